// The code graph of an indexed commit: calls resolved to functions (same file, then imported
// files, then a name defined once), imports to files; cached beside the index as a checked file,
// its facts per blob, so the next commit scans only the blobs that changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodeGraph } from '../../src/graph/code-graph.js';
import { graphFilePath } from '../../src/graph/graph-store.js';
import { openCodeGraph } from '../../src/graph/open-graph.js';
import { listCacheEntries } from '../../src/index/cache-usage.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { settingsKey, type CodeIndex } from '../../src/index/code-index.js';
import { GitRepo } from '../../src/repo/git.js';
import { setCacheWarningSink } from '../../src/util/checked-file.js';
import { fixtureRepo, type FixtureCommit } from '../repo/fixture-repo.js';

const commits: FixtureCommit[] = [
  {
    id: 'A', message: 'init', files: {
      'pkg/render.py': 'from pkg.colour import parse\n\ndef render(x):\n    return parse(x) + local(x)\n\ndef local(x):\n    return x\n',
      'pkg/colour.py': 'def parse(x):\n    return unique_helper(x)\n\nclass Colour:\n    def parse(self):\n        return 1\n',
      'pkg/other.py': 'def unique_helper(x):\n    return x\n\ndef local(x):\n    return 0\n',
    },
  },
  { id: 'B', parents: ['A'], message: 'edit', files: { 'pkg/other.py': 'def unique_helper(x):\n    return x + 1\n' } },
];

const unitOf = (ci: CodeIndex, id: string) => ci.units.findIndex((u) => `${u.path}:${u.qualifiedName}` === id);
const edges = (ci: CodeIndex, g: CodeGraph, id: string) => [...CodeGraph.of(g.calls, unitOf(ci, id))].map((k) => `${ci.units[k].path}:${ci.units[k].qualifiedName}`).sort();

test('code graph: resolved calls and imports, stored beside the index and reused; a new commit scans the changed blobs only', async () => {
  const fx = fixtureRepo(commits);
  const cacheDir = mkdtempSync(join(tmpdir(), 'issueloc-graph-'));
  const repo = await GitRepo.open(fx.dir);
  try {
    const { codeIndex } = await indexCommit(repo, fx.sha('A'), { cacheDir });
    const first = await openCodeGraph(repo, codeIndex, cacheDir);
    assert.equal(first.built, true);
    assert.equal(first.scannedBlobs, 3);
    const g = first.graph;
    // same file first (local), then the imported file (parse: the function, and the method of the imported file), then a unique name
    assert.deepEqual(edges(codeIndex, g, 'pkg/render.py:render'), ['pkg/colour.py:Colour.parse', 'pkg/colour.py:parse', 'pkg/render.py:local']);
    assert.deepEqual(edges(codeIndex, g, 'pkg/colour.py:parse'), ['pkg/other.py:unique_helper']);
    const file = (p: string) => codeIndex.filePaths.indexOf(p);
    assert.deepEqual([...CodeGraph.of(g.imports, file('pkg/render.py'))], [file('pkg/colour.py')]);
    assert.deepEqual([...CodeGraph.of(g.importers, file('pkg/colour.py'))], [file('pkg/render.py')]);
    assert.deepEqual([...CodeGraph.of(g.callers, unitOf(codeIndex, 'pkg/other.py:unique_helper'))], [unitOf(codeIndex, 'pkg/colour.py:parse')]);

    const again = await openCodeGraph(repo, codeIndex, cacheDir);
    assert.equal(again.built, false, 'read from its cache file');
    assert.deepEqual(again.graph.calls, g.calls);
    assert.deepEqual(again.graph.imports, g.imports);
    assert.ok(readdirSync(join(cacheDir, 'index')).some((n) => n.endsWith('-graph.bin')), 'beside the index');
    // entries of the cache: prune and the size cap see the graph file and the facts of each blob
    const entries = listCacheEntries(cacheDir);
    assert.ok(entries.some((e) => e.kind === 'index' && e.files.some((f) => f.endsWith('-graph.bin'))));
    assert.equal(entries.filter((e) => e.kind === 'blobs' && e.files[0].includes('blobs-graph1')).length, 3);

    const b = await indexCommit(repo, fx.sha('B'), { cacheDir });
    const next = await openCodeGraph(repo, b.codeIndex, cacheDir);
    assert.equal(next.built, true);
    assert.equal(next.scannedBlobs, 1, 'the changed blob only');

    // a corrupt graph file: one warning, rebuilt, the same graph
    const path = graphFilePath(cacheDir, fx.sha('A'), settingsKey(codeIndex.settings));
    writeFileSync(path, 'garbage');
    const lines: string[] = [];
    const prev = setCacheWarningSink((l) => lines.push(l));
    try {
      const rebuilt = await openCodeGraph(repo, codeIndex, cacheDir);
      assert.equal(rebuilt.built, true);
      assert.deepEqual(rebuilt.graph.calls, g.calls);
    } finally {
      setCacheWarningSink(prev);
    }
    assert.equal(lines.length, 1);
    assert.match(lines[0], /corrupt cache file .*-graph\.bin: rebuilt/);
  } finally {
    await repo.close();
    fx.remove();
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
