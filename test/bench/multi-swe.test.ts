// The multi-language bench's pure helpers: all-gold metrics from gold ranks, folds of repositories,
// the causes of misses (bench/multi-swe-analysis).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGoldMetrics, goldRanks } from '../../bench/lib/all-gold.js';
import { repositoryFolds } from '../../bench/lib/folds.js';
import { missCause, namesFile, pairedFile, textFlags, type MissFacts } from '../../bench/lib/miss-causes.js';

test('all-gold Acc@k needs every gold file in the top k, even when there are more gold files than k', () => {
  assert.deepEqual(allGoldMetrics([2, 4]), { 'Acc@1': 0, 'Acc@3': 0, 'Acc@5': 1, 'Acc@10': 1, MRR: 0.5 });
  // LocAgent's Acc@1 counts a gold top 1 when there are two gold files; all-gold does not
  assert.equal(allGoldMetrics([1, 2])['Acc@1'], 0);
  assert.deepEqual(allGoldMetrics([3, null]), { 'Acc@1': 0, 'Acc@3': 0, 'Acc@5': 0, 'Acc@10': 0, MRR: 1 / 3 });
  assert.deepEqual(allGoldMetrics([null]), { 'Acc@1': 0, 'Acc@3': 0, 'Acc@5': 0, 'Acc@10': 0, MRR: 0 });
  assert.equal(allGoldMetrics([])['Acc@10'], 0);
});

test('goldRanks gives 1-based ranks and null for gold files not ranked', () => {
  assert.deepEqual(goldRanks(['a.c', 'b.c', 'c.c'], ['c.c', 'CHANGELOG.md', 'a.c']), [3, null, 1]);
});

test('repositoryFolds keeps each repository in one fold and balances issue counts', () => {
  const items = [...Array(5).fill('a/big'), ...Array(3).fill('b/mid'), ...Array(2).fill('c/small'), 'd/one'].map((repo, i) => ({ repo, i }));
  const folds = repositoryFolds(items, 2);
  assert.deepEqual(folds.map((f) => [...new Set(f.map((x) => x.repo))]), [['a/big', 'd/one'], ['b/mid', 'c/small']]);
  assert.deepEqual(folds.map((f) => f.length), [6, 5]);
  assert.equal(repositoryFolds(items, 10).length, 4, 'no empty folds');
});

const facts = (over: Partial<MissFacts>): MissFacts => ({
  path: 'src/jv.c', rank: 40, source: true, indexed: true, units: 3, changedLines: [12],
  unitRanges: [[10, 20]], top: ['lib/a.c', 'lib/b.c'], gold: ['src/jv.c'], text: 'crash when printing', ...over,
});

test('missCause: the first cause that holds, in the documented order', () => {
  assert.equal(missCause(facts({ path: 'CHANGELOG.md', source: false, indexed: false })), 'non-source');
  assert.equal(missCause(facts({ path: 'tests/x.c', indexed: false })), 'not indexed');
  assert.equal(missCause(facts({ units: 0, unitRanges: [] })), 'no unit');
  assert.equal(missCause(facts({ changedLines: [3, 25] })), 'change outside units');
  assert.equal(missCause(facts({ path: 'include/jv.h', top: ['src/jv.c'] })), 'header/implementation pair');
  assert.equal(missCause(facts({ top: ['src/jv_print.c'] })), 'same directory ranked instead');
  assert.equal(missCause(facts({ text: 'the bug is in jv.c' })), 'named in issue');
  assert.equal(missCause(facts({ gold: ['src/jv.c', 'lib/b.c'] })), 'multi-file (another gold in top k)');
  assert.equal(missCause(facts({ rank: 7 })), 'near miss (rank 6-10)');
  assert.equal(missCause(facts({})), 'ranked 11-100');
  assert.equal(missCause(facts({ rank: null })), 'not in top 100');
});

test('pairedFile and namesFile', () => {
  assert.equal(pairedFile('include/fmt/core.h', ['src/format.cc', 'src/core.cc']), 'src/core.cc');
  assert.equal(pairedFile('src/core.cc', ['src/core.cc']), undefined);
  assert.equal(pairedFile('src/main.rs', ['src/main.h']), undefined);
  assert.ok(namesFile('see printer/src/json.rs', 'crates/printer/src/json.rs'));
  assert.ok(namesFile('the AxiosHeaders class', 'lib/core/AxiosHeaders.js'));
  assert.ok(!namesFile('the io output', 'src/io.rs'), 'stems under 4 characters do not count');
  assert.ok(!namesFile('myutilsx', 'src/utils.js'));
});

test('textFlags: qualified mentions and stack traces', () => {
  assert.deepEqual(textFlags('calling `grep::printer::JSON::new`'), ['path::name (Rust, C++)']);
  assert.deepEqual(textFlags('httpx.NewRequest fails'), ['pkg.Func (Go)']);
  assert.deepEqual(textFlags('Gson#toJson drops'), ['Class#method']);
  assert.deepEqual(textFlags("thread 'main' panicked at src/main.rs:12:5"), ['file.ext:line', 'stack trace']);
  assert.deepEqual(textFlags('plain words only'), []);
});
