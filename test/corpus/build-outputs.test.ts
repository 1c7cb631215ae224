// Build outputs committed beside their sources (axios's dist/ bundles) are left out of the code index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildOutputs, selectNonSources, selectSources } from '../../src/corpus/select.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';

const entry = (path: string) => ({ path, mode: '100644', blob: 'x'.repeat(40), size: 10 });
const listing = (paths: string[]) => paths.map(entry);

test('buildOutputs: dist folders of JavaScript beside their sources, and files with a source map', () => {
  const axios = listing([
    'lib/axios.js', 'lib/core/Axios.js', 'index.d.ts',
    'dist/axios.js', 'dist/axios.js.map', 'dist/node/axios.cjs', 'dist/esm/axios.d.ts', 'dist/README.md',
    'public/app.js', 'public/app.js.map',
    'cmd/dist/main.go',
  ]);
  assert.deepEqual([...buildOutputs(axios)].sort(), [
    'dist/README.md', 'dist/axios.js', 'dist/axios.js.map', 'dist/esm/axios.d.ts', 'dist/node/axios.cjs',
    'public/app.js', 'public/app.js.map',
  ]);
  const { sources, skipped } = selectSources(axios);
  assert.deepEqual(sources.map((s) => s.entry.path), ['lib/axios.js', 'lib/core/Axios.js', 'index.d.ts', 'cmd/dist/main.go']);
  assert.equal(skipped.buildOutput, 4, 'dist/axios.js, dist/node/axios.cjs, dist/esm/axios.d.ts, public/app.js');
  assert.deepEqual(selectNonSources(axios).map((e) => e.path), [], 'source maps and dist files are no non-source documents either');
});

test('buildOutputs: a repository whose only code is its dist keeps it; Go and Rust dist or build folders are source', () => {
  assert.deepEqual([...buildOutputs(listing(['dist/lib.js', 'dist/util.js', 'README.md']))], []);
  assert.deepEqual([...buildOutputs(listing(['src/main.go', 'cmd/dist/build.go', 'build/main.rs', 'web/app.js']))], []);
  assert.deepEqual([...buildOutputs(listing(['src/app.py', 'docs/build/x.py', 'linker.map']))], [], 'a .map file without its mapped file stays');
});

test('indexCommit leaves the dist bundle out: the bundle no longer outranks lib/ (fixture repository)', async () => {
  const root = tempDir();
  try {
    const fn = 'function mergeConfig(config1, config2) {\n  return Object.assign({}, config1, config2);\n}\n';
    const commit = commitFiles(join(root, 'repo'), {
      'lib/core/mergeConfig.js': `export default ${fn}`,
      'dist/axios.js': `(function () {\n${fn}\n})();\n//# sourceMappingURL=axios.js.map\n`,
      'dist/axios.js.map': '{"version":3,"sources":["../lib/core/mergeConfig.js"],"sourcesContent":["mergeConfig"]}\n',
      'package.json': '{"name": "axios"}\n',
    });
    const repo = await GitRepo.open(join(root, 'repo'));
    try {
      const { codeIndex } = await indexCommit(repo, commit, { cacheDir: join(root, 'cache'), settings: { files: 'all' } });
      assert.deepEqual(codeIndex.filePaths, ['lib/core/mergeConfig.js']);
      assert.deepEqual(codeIndex.nonSource?.paths, ['package.json']);
      assert.equal(codeIndex.stats.skipped.buildOutput, 1);
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(root);
  }
});
