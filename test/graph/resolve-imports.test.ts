// The code graph's facts of a file (imports as written, calls with their lines) and the imports
// resolved to the repository's files, per language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { factsOf } from '../../src/graph/blob-facts.js';
import { FileTable, resolveImports } from '../../src/graph/resolve-imports.js';

const FILES = [
  'pkg/__init__.py', 'pkg/core/basic.py', 'pkg/core/__init__.py', 'pkg/util.py',
  'web/src/app.ts', 'web/src/lib/index.ts', 'web/src/helper.js',
  'src/main/java/org/acme/Foo.java', 'src/main/java/org/acme/util/Bar.java', 'src/main/java/org/acme/util/Baz.java',
  'cmd/tool/main.go', 'internal/store/store.go', 'internal/store/store_test.go',
  'crate/src/lib.rs', 'crate/src/parse/mod.rs', 'crate/src/parse/lexer.rs',
  'lib/include/fmt/core.h', 'lib/src/format.cc', 'lib/src/format.h',
];
const table = new FileTable(FILES);
const resolved = (path: string, text: string) => resolveImports(path, factsOf(path, text).imports, table).map((i) => FILES[i]).sort();

test('imports resolve to files of the repository, per language; libraries resolve to nothing', () => {
  assert.deepEqual(resolved('pkg/util.py', 'import os\nfrom pkg.core import basic\nfrom .core.basic import Basic as B\n'),
    ['pkg/core/__init__.py', 'pkg/core/basic.py']);
  assert.deepEqual(resolved('pkg/core/basic.py', 'from ..util import helper\n'), ['pkg/util.py']);
  assert.deepEqual(resolved('web/src/app.ts', "import { a } from './lib';\nimport x from 'react';\nconst h = require('./helper.js');\n"),
    ['web/src/helper.js', 'web/src/lib/index.ts']);
  assert.deepEqual(resolved('src/main/java/org/acme/Foo.java', 'package org.acme;\nimport java.util.List;\nimport org.acme.util.*;\nimport static org.acme.util.Bar.make;\n'),
    ['src/main/java/org/acme/util/Bar.java', 'src/main/java/org/acme/util/Baz.java']);
  assert.deepEqual(resolved('cmd/tool/main.go', 'package main\n\nimport (\n\t"fmt"\n\ts "example.com/x/internal/store"\n)\n'), ['internal/store/store.go']);
  assert.deepEqual(resolved('crate/src/lib.rs', 'mod parse;\nuse crate::parse::lexer::Token;\nuse std::io;\n'), ['crate/src/parse/lexer.rs', 'crate/src/parse/mod.rs']);
  assert.deepEqual(resolved('lib/src/format.cc', '#include "format.h"\n#include <fmt/core.h>\n#include <vector>\n'), ['lib/include/fmt/core.h', 'lib/src/format.h']);
});

test('calls are names before `(` with their lines; keywords and definitions are not calls', () => {
  const { calls } = factsOf('a.py', 'def fun(x):\n    if (x):\n        return gx(x) + ho (x)\n    gx(1)\nclass K(Base):\n    pass\n');
  assert.deepEqual(calls, [['gx', 3], ['ho', 3], ['gx', 4]]);
  assert.deepEqual(factsOf('a.ts', 'function run() {\n  return helper<T>(1);\n}\n').calls, [['helper', 2]]);
});
