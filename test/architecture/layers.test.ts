import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  importsOf, layerViolations, memberOf, parseLayerTable, repositoryImports, repositoryRoot,
  type ImportEdge, type Violation,
} from './layer-rules.js';

const root = repositoryRoot(import.meta.url);
const members = parseLayerTable(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'));
const edges = repositoryImports(root, ['src', 'bench', 'faults']);

/**
 * Imports that break the layer rule today, each being removed on another branch. An entry
 * covers every import from a module under `from` of a module under `to`; once none is left the
 * test asks for the entry to be deleted, so the list only shrinks.
 */
const KNOWN_LEAKS: readonly { from: string; to: string; why: string }[] = [
];

/**
 * Forwarding modules kept for one caller that cannot change yet: module → the only modules
 * that may import it. Once none of them does, the test asks for the module to be deleted.
 */
const FORWARDERS: Readonly<Record<string, readonly string[]>> = {};

const isKnown = (v: ImportEdge) => KNOWN_LEAKS.some((k) => v.from.startsWith(k.from) && v.to.startsWith(k.to));
const show = (vs: readonly Violation[]) => vs.map((v) => `${v.from} → ${v.to}: ${v.reason}`).join('\n');

test('every import of src/, bench/ and faults/ follows the layers of ARCHITECTURE.md', () => {
  const violations = layerViolations(edges, members).filter((v) => !isKnown(v));
  assert.deepEqual(violations, [], `imports against the layer list of ARCHITECTURE.md:\n${show(violations)}`);
});

test('every known leak still occurs (delete the entries that no longer do)', () => {
  const all = layerViolations(edges, members);
  const stale = KNOWN_LEAKS.filter((k) => !all.some((v) => v.from.startsWith(k.from) && v.to.startsWith(k.to)));
  assert.deepEqual(stale, [], 'these KNOWN_LEAKS no longer occur: delete them from test/architecture/layers.test.ts');
});

test('forwarding modules serve only the caller they are kept for, and go when it no longer imports them', () => {
  for (const [module, callers] of Object.entries(FORWARDERS)) {
    const importers = [...new Set(edges.filter((e) => e.to === module).map((e) => e.from))].sort();
    assert.deepEqual(importers.filter((f) => !callers.includes(f)), [], `${module} forwards for ${callers.join(', ')} only: import its target instead`);
    assert.notDeepEqual(importers, [], `nothing imports ${module} any more: delete it and its FORWARDERS entry`);
  }
});

test('the layer table names the folders of the architecture in order', () => {
  const layer = (m: string) => members.find((x) => x.member === m)?.layer;
  for (const m of ['src/errors.ts', 'src/util/', 'src/metrics/', 'src/index/', 'src/retrieve/', 'src/ltr/', 'src/index.ts', 'src/pipeline/', 'src/cli/', 'bench/']) {
    assert.notEqual(layer(m), undefined, `${m} is missing from the layer table`);
  }
  assert.ok(layer('src/metrics/')! < layer('src/eval/')!);
  assert.ok(layer('src/retrieve/')! < layer('src/ltr/')!);
  assert.ok(layer('src/ltr/')! < layer('src/pipeline/')!);
  assert.ok(layer('src/pipeline/')! < layer('src/index.ts')!, 'src/index.ts exports the facade');
  assert.ok(layer('src/pipeline/')! < layer('src/cli/')!);
  assert.equal(layer('src/cli/'), layer('bench/'), 'bench/ and src/cli/ are independent callers of the library');
  assert.ok(edges.length > 500, `only ${edges.length} imports read: the reader misses some`);
});

// The checker itself, on a made-up table: each rule must be able to fail.
const TABLE = [
  '# x', '## Layers', '| layer | folders | holds |', '|---|---|---|',
  '| 3 | `src/cli/`, `bench/`, `src/stage-a/sub/` | callers |', '| 2 | `src/stage-a/`, `src/stage-b/` | stages |',
  '| 1 | `src/core/`, `src/stage-a/sub/shared.ts` | core |', '| 0 | `src/errors.ts` | errors |', '## Next', '| 9 | `src/ignored/` | |',
].join('\n');

test('the layer rule: down is allowed; up, across a layer and out of the table are not', () => {
  const ms = parseLayerTable(TABLE);
  assert.equal(ms.length, 8, 'rows of later sections are not layers');
  assert.equal(memberOf('src/stage-a/sub/x.ts', ms)?.member, 'src/stage-a/sub/');
  assert.equal(memberOf('src/stage-a/sub/shared.ts', ms)?.layer, 1);
  const edge = (from: string, to: string) => ({ from, to });
  const ok = [
    edge('src/cli/a.ts', 'src/stage-a/x.ts'), edge('src/stage-a/x.ts', 'src/core/y.ts'), edge('src/core/y.ts', 'src/core/z.ts'),
    edge('src/stage-b/x.ts', 'src/stage-a/sub/shared.ts'), edge('src/stage-a/sub/x.ts', 'src/stage-a/x.ts'),
    edge('bench/b.ts', 'test/repo/git-fixture.ts'), edge('src/core/y.ts', 'src/errors.ts'),
  ];
  assert.deepEqual(layerViolations(ok, ms), []);
  const bad = [
    edge('src/core/y.ts', 'src/stage-a/x.ts'), edge('src/stage-a/x.ts', 'src/stage-b/x.ts'), edge('bench/b.ts', 'src/cli/a.ts'),
    edge('src/stage-b/x.ts', 'src/stage-a/sub/x.ts'), edge('src/core/y.ts', 'test/repo/git-fixture.ts'),
    edge('src/core/y.ts', 'src/nowhere/n.ts'), edge('src/ignored/i.ts', 'src/errors.ts'),
  ];
  assert.deepEqual(layerViolations(bad, ms).map((v) => `${v.from} → ${v.to}`), bad.map((e) => `${e.from} → ${e.to}`));
  assert.match(layerViolations([bad[0]], ms)[0].reason, /src\/core\/ \(layer 1\) may import only lower layers, and src\/stage-a\/ is layer 2/);
});

test('imports are read in every form: static, type-only, re-export, dynamic; packages are left out', () => {
  const source = [
    "import { a } from './a.js';", "import type { B } from '../b/b.js';", "export { c } from './c.js';",
    "export * from '../../d.js';", "const e = await import('./e.js');", "import { f } from 'node:fs';",
    "import {\n  g,\n  h,\n} from './gh.js';",
  ].join('\n');
  assert.deepEqual(importsOf('src/x/y.ts', source).map((e) => e.to),
    ['src/x/a.ts', 'src/b/b.ts', 'src/x/c.ts', 'd.ts', 'src/x/e.ts', 'src/x/gh.ts']);
});
