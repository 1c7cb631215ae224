// In a C++ repository the modules are classes and functions, not namespaces: in the index (built
// and loaded back from the cache), in the rankings, and in the gold modules of mined commits and
// of commits' patches, so rankings and gold agree.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { goldForCommit } from '../../src/dataset/gold.js';
import { mineCommits } from '../../src/history/commit-miner.js';
import { openLocalizer } from '../../src/pipeline/localizer.js';
import { GitRepo } from '../../src/repo/git.js';
import { fixtureRepo } from '../repo/fixture-repo.js';

// the C++ grammar's large lexer: the baseline wasm compiler suffices (as test/corpus/extract.test.ts)
setFlagsFromString('--liftoff-only');

const SOURCE = [
  'namespace fmt {',
  'class Formatter {',
  ' public:',
  '  void format_width(int width) {',
  '    int padding = width * 2;',
  '  }',
  '};',
  'void vprint_width(int width) {}',
  '}  // namespace fmt',
  '',
].join('\n');
const fx = fixtureRepo([
  { id: 'A', message: 'initial import', files: { 'src/format.cc': SOURCE } },
  { id: 'B', parents: ['A'], message: 'Fix the padding of format width for wide columns', files: { 'src/format.cc': SOURCE.replace('width * 2', 'width * 3') } },
]);
const dir = mkdtempSync(join(tmpdir(), 'issueloc-ns-modules-'));
after(() => {
  fx.remove();
  rmSync(dir, { recursive: true, force: true });
});

test('C++ modules are the classes and functions inside a namespace, in rankings and in gold', async () => {
  const cacheDir = join(dir, 'cache');
  for (const round of ['built', 'loaded']) {
    const localizer = await openLocalizer({ repo: fx.dir, cacheDir });
    try {
      const r = await localizer.localize('format width padding is wrong', { top: 10 });
      assert.equal(r.index.built, round === 'built');
      assert.deepEqual(r.modules.map((m) => m.id).sort(), ['src/format.cc:fmt.Formatter', 'src/format.cc:fmt.vprint_width'], round);
      assert.deepEqual(r.functions.map((m) => m.id).sort(), ['src/format.cc:fmt.Formatter.format_width', 'src/format.cc:fmt.vprint_width'], 'function ids keep the namespace');
    } finally {
      await localizer.close();
    }
  }
  const repo = await GitRepo.open(fx.dir);
  try {
    const gold = await goldForCommit(repo, fx.sha('B'));
    assert.deepEqual(gold.functions, ['src/format.cc:fmt.Formatter.format_width']);
    assert.deepEqual(gold.modules, ['src/format.cc:fmt.Formatter']);
    const mined = [];
    for await (const p of mineCommits(repo, fx.sha('B'), { cacheDir })) mined.push(p);
    assert.deepEqual(mined.map((p) => p.modules), [['src/format.cc:fmt.Formatter']]);
  } finally {
    await repo.close();
  }
});
