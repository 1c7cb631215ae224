// Pseudo-relevance feedback (src/retrieve/feedback.ts): the heaviest terms of the first pass's best
// documents join the query, so a function the issue does not name but whose vocabulary its best
// match shares is ranked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { Localizer, type RankingOptions } from '../../src/retrieve/localize.js';
import { expandQuery } from '../../src/retrieve/feedback.js';
import { checkLocalizerOptions } from '../../src/pipeline/check-options.js';
import { IssuelocError } from '../../src/errors.js';
import { extractIssueSignals } from '../../src/text/issue-signals.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

// The issue names `load_settings`; it calls `merge_overlay` (in another file), which shares
// `overlay` and `precedence` with it but no word of the issue.
const SETTINGS = [
  'def load_settings(path):',
  '    """Read the settings file; the overlay precedence decides which value wins."""',
  '    overlay = read_overlay(path)',
  '    return merge_overlay(overlay, precedence=OVERLAY_PRECEDENCE)',
  '',
].join('\n');
const OVERLAY = [
  'def merge_overlay(base, precedence):',
  '    """Apply each overlay layer by precedence."""',
  '    for layer in sorted(base, key=precedence):',
  '        base.update(layer)',
  '    return base',
  '',
].join('\n');

// Filler files of two functions each, so that the shared words are rare at both levels (a term
// in more than a tenth of the documents never expands a query).
const WORDS = ['apple', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heron', 'iris', 'jade', 'kelp', 'lotus', 'maple', 'nectar', 'olive', 'pearl', 'quartz', 'raven', 'sage', 'tulip'];
const FILLER = Object.fromEntries(WORDS.map((a, i) => [`app/filler_${a}.py`, [
  `def ${a}_handler(x):`,
  `    return ${a}_value(x) + ${WORDS[(i + 1) % WORDS.length]}_count`,
  '',
  `def ${a}_report(y):`,
  `    return ${a}_summary(y)`,
  '',
].join('\n')]));

async function indexOf() {
  const dir = tempDir('issueloc-feedback-');
  try {
    const commit = commitFiles(join(dir, 'repo'), { 'app/settings.py': SETTINGS, 'app/overlay.py': OVERLAY, ...FILLER });
    const repo = await GitRepo.open(join(dir, 'repo'));
    const { codeIndex } = await indexCommit(repo, commit, { cacheDir: join(dir, 'cache') });
    await repo.close();
    return codeIndex;
  } finally {
    cleanup(dir);
  }
}

const ISSUE = 'load_settings ignores the settings file\nCalling load_settings with a path reads the file but returns stale values.';

function functionsOf(ci: Awaited<ReturnType<typeof indexOf>>, ranking: RankingOptions): string[] {
  const l = new Localizer(ci, ranking);
  return l.localize(l.queryOf(parseIssue(ISSUE)), { top: 10, signals: extractIssueSignals(ISSUE) }).functions.map((f) => f.id);
}

test('feedback from the best function brings in the function it shares rare words with, which the issue does not name', async () => {
  const ci = await indexOf();
  assert.ok(ci.units.length >= 30, `the filler makes ${ci.units.length} documents`);
  const without = functionsOf(ci, {});
  assert.equal(without[0], 'app/settings.py:load_settings');
  assert.ok(!without.includes('app/overlay.py:merge_overlay'), `without feedback: ${without.join(', ')}`);
  const withFeedback = functionsOf(ci, { feedback: { docs: 1, terms: 10, weight: 0.5 } });
  assert.equal(withFeedback[0], 'app/settings.py:load_settings');
  assert.equal(withFeedback[1], 'app/overlay.py:merge_overlay', `with feedback: ${withFeedback.join(', ')}`);
  // at the file level the feedback document is the whole of settings.py: the same neighbour comes in
  assert.ok(functionsOf(ci, { feedback: { docs: 1, terms: 10, weight: 0.5, level: 'file' } }).includes('app/overlay.py:merge_overlay'));
  // no filler function is brought in: their words are not in the feedback document
  assert.ok(withFeedback.every((id) => !id.startsWith('app/filler_')), withFeedback.join(', '));
});

test('the expanded query interpolates the normalised query with the expansion terms; weight 0 or no terms keep the query', () => {
  const q = new Map([['load', 2], ['settings', 2]]);
  assert.equal(expandQuery(q, new Map([['overlay', 1]]), 0), q);
  assert.equal(expandQuery(q, new Map(), 0.5), q);
  const e = expandQuery(q, new Map([['overlay', 0.75], ['settings', 0.25]]), 0.4);
  assert.deepEqual([...e].map(([t, w]) => [t, +w.toFixed(6)]), [['load', 0.3], ['settings', 0.4], ['overlay', 0.3]]);
});

test('feedback settings are checked: all three numbers needed, weight in 0 … 1, a known level', () => {
  const check = (feedback: unknown) => () => checkLocalizerOptions({ repo: '.', ranking: { feedback } });
  assert.doesNotThrow(check({ docs: 5, terms: 20, weight: 0.3, level: 'file' }));
  assert.throws(check({ terms: 20, weight: 0.3 }), (e: Error) => e instanceof IssuelocError && /ranking\.feedback\.docs/.test(e.message));
  assert.throws(check({ docs: 5, terms: 20, weight: 1.5 }), /ranking\.feedback\.weight/);
  assert.throws(check({ docs: 5, terms: 20, weight: 0.3, level: 'module' }), /ranking\.feedback\.level/);
  assert.throws(check({ docs: 5, terms: 20, weight: 0.3, k: 1 }), /unknown option 'k'/);
});
