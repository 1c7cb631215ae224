import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';
import { CandidateShapes } from '../../src/ltr/features/shapes.js';

const fn = (qualifiedName: string): UnitTerms => ({ kind: 'function', qualifiedName, startLine: 1, endLine: 3, body: [['x', 1]], bodyLength: 1 });

test('isInit and isPrivate have their Rust and Go equivalents; Python keeps its own rule', () => {
  const files = [
    { path: 'pkg/lib.py', units: [fn('_helper'), fn('__init__'), fn('helper')] },
    { path: 'crate/src/lib.rs', units: [fn('helper')] },
    { path: 'crate/src/main.rs', units: [fn('helper')] },
    { path: 'net/http/server.go', units: [fn('Server.serve'), fn('ListenAndServe'), fn('helper')] },
  ];
  const ci = buildCodeIndex('c0ffee', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 });
  const shapes = new CandidateShapes(ci);
  const row = (d: number) => `${ci.units[d].path}:${ci.units[d].qualifiedName}:${shapes.of(d).file.isInit}${shapes.of(d).unit.isPrivate}`;
  const got = ci.units.map((u, d) => (u.kind === 'function' ? row(d) : '')).filter(Boolean);
  assert.deepEqual(got, [
    'pkg/lib.py:_helper:01', 'pkg/lib.py:__init__:00', 'pkg/lib.py:helper:00',
    'crate/src/lib.rs:helper:10', 'crate/src/main.rs:helper:10',
    'net/http/server.go:Server.serve:01', 'net/http/server.go:ListenAndServe:00', 'net/http/server.go:helper:01',
  ]);
});
