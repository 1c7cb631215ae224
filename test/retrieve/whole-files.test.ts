// A function-less file is scored on the function level's scale as its whole-file document (the
// one a file without a grammar has), so a file named by path is not held back for having no
// function (issue 12, item 7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { Localizer } from '../../src/retrieve/localize.js';
import { functionlessFiles } from '../../src/retrieve/rollup.js';
import { Bm25fScorer } from '../../src/retrieve/bm25f.js';
import { WholeFileScorer } from '../../src/retrieve/whole-files.js';
import { DEFAULT_RANKING } from '../../src/retrieve/localize.js';
import { extractIssueSignals } from '../../src/text/issue-signals.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

async function indexOf(files: Record<string, string>) {
  const dir = tempDir('issueloc-whole-');
  try {
    const commit = commitFiles(join(dir, 'repo'), files);
    const repo = await GitRepo.open(join(dir, 'repo'));
    const { codeIndex } = await indexCommit(repo, commit, { cacheDir: join(dir, 'cache') });
    await repo.close();
    return codeIndex;
  } finally {
    cleanup(dir);
  }
}

test('a function-less file scores as its whole-file document without its text would in the function-level index', async () => {
  // the same path and name as Python (no function: file level only) and as Lua (no grammar: one
  // document); the Lua file is empty, so its document is its path and name alone
  const text = 'timeout_value = 30\nretry_limit = 5\nretry_backoff = retry_limit * 2\n';
  const ci = await indexOf({ 'conf/limits.py': text, 'conf/limits.lua': '', 'conf/net.py': 'def connect(host, timeout):\n    return host\n' });
  const bare = functionlessFiles(ci.fileOfUnit, ci.filePaths.length);
  assert.deepEqual([...bare].map((f) => ci.filePaths[f]), ['conf/limits.py']);
  const lua = ci.units.findIndex((u) => u.path === 'conf/limits.lua');
  assert.ok(lua >= 0);
  const l = new Localizer(ci);
  const fn = new Bm25fScorer(ci.index, DEFAULT_RANKING.bm25);
  const whole = new WholeFileScorer(ci, bare, fn.params);
  for (const issue of ['conf limits timeout', 'limits', 'conf']) {
    const query = l.queryOf(parseIssue(issue));
    const expected = fn.scoreAll(query)[lua];
    const got = whole.scoreAll(query)[0];
    assert.ok(expected > 0 && Math.abs(got - expected) < 1e-5 * expected, `${issue}: ${got} vs ${expected}`);
  }
  assert.equal(whole.scoreAll(l.queryOf(parseIssue('retry backoff')))[0], 0, 'its text is not counted here (the file prior counts it)');
});

test('a function-less file named by path outranks its unnamed twin whose text is one function', async () => {
  const consts = '__title__ = "pkg"\n__version__ = "2.31.0"\n__build__ = 0x023100\n';
  const ci = await indexOf({
    'src/pkg/__version__.py': consts,
    'src/pkg/meta.py': `def version_info():\n${consts.split('\n').filter(Boolean).map((l) => `    ${l}`).join('\n')}\n`,
    'src/pkg/net.py': 'def connect(host):\n    return host\n',
  });
  const issue = 'Wrong version string in src/pkg/__version__.py after the release';
  const l = new Localizer(ci);
  const loc = l.localize(l.queryOf(parseIssue(issue)), { top: 10, signals: extractIssueSignals(issue) });
  assert.deepEqual(loc.files.slice(0, 2).map((f) => f.id), ['src/pkg/__version__.py', 'src/pkg/meta.py'], JSON.stringify(loc.files));
  assert.deepEqual(loc.files[0].signals, ['mentionedFile']);
  assert.ok(!loc.functions.some((f) => f.id.startsWith('src/pkg/__version__.py')), 'no function of its own');
});
