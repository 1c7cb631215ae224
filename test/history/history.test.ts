import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFixCommit } from '../../src/history/fix-commits.js';
import { HistoryLog, historyLogFile } from '../../src/history/history-log.js';
import { fileHistoryAt } from '../../src/history/file-history.js';
import { RepoHistory } from '../../src/history/repo-history.js';
import { CosineIndex, simiScore } from '../../src/history/similarity.js';
import { SimilarIssues } from '../../src/history/similar-issues.js';
import { fixtureRepo, type FixtureCommit } from '../repo/fixture-repo.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

test('fix commits: defect words in the subject, closing phrases, Jira keys; not bare PR numbers', () => {
  for (const m of ['Fix crash in parser', 'Fixed #12345 -- Fixed QuerySet.defer() crash.', 'MNG-1234 handle empty POM',
    'Update docs\n\nCloses #45', '[extractor] bugfix for playlists', 'Bug 54321 - NPE in Request', 'Hotfix: null check']) {
    assert.equal(isFixCommit(m), true, m);
  }
  for (const m of ['Add support for Python 3.12 (#1234)', 'Refactor the tokenizer', 'debug output for prefix',
    'Merge branch main', 'Update fixtures.json\n\nSee discussion in #12']) {
    assert.equal(isFixCommit(m), false, m);
  }
});

const commits: FixtureCommit[] = [
  { id: 'A', message: 'initial import', files: { 'pkg/a.py': 'a = 1\n', 'pkg/b.py': 'b = 1\n' }, day: 0 },
  { id: 'B', parents: ['A'], message: 'Fix crash in parser of a', files: { 'pkg/a.py': 'a = 2\n' }, day: 30 },
  { id: 'C', parents: ['B'], message: 'Add options to b', files: { 'pkg/b.py': 'b = 2\n' }, day: 60 },
  { id: 'D', parents: ['C'], message: 'Fixes #3: crash when a and b disagree', files: { 'pkg/a.py': 'a = 3\n', 'pkg/b.py': 'b = 3\n' }, day: 90 },
];

test('history log: file fix/change counts and recency at a base commit see only its ancestors', async () => {
  const fx = fixtureRepo(commits);
  try {
    const log = await HistoryLog.load(fx.dir, [fx.sha('D')]);
    assert.equal(log.size, 4);
    const atC = fileHistoryAt(log, fx.sha('C'));
    assert.deepEqual([atC.files.get('pkg/a.py')!.changes, atC.files.get('pkg/a.py')!.fixes], [2, 1]);
    assert.deepEqual([atC.files.get('pkg/b.py')!.changes, atC.files.get('pkg/b.py')!.fixes], [2, 0]);
    // last fix of a.py 30 days = 1 month before C: recency 1 / (1 + 1)
    assert.ok(Math.abs(atC.files.get('pkg/a.py')!.fixRecency - 0.5) < 1e-9);
    assert.equal(atC.files.get('pkg/b.py')!.fixRecency, 0);
    const atD = fileHistoryAt(log, fx.sha('D'));
    assert.equal(atD.files.get('pkg/a.py')!.fixes, 2);
    assert.equal(atD.files.get('pkg/a.py')!.fixRecency, 1, 'fixed at the base commit itself');
    // Lewis et al.: a fix at the base commit weighs 1/2, the oldest commit almost nothing
    assert.ok(Math.abs(atD.files.get('pkg/b.py')!.fixWeighted - 0.5) < 1e-9);
    assert.throws(() => fileHistoryAt(log, 'f'.repeat(40)), /not in the history log/);
  } finally {
    fx.remove();
  }
});

test('history log: cached on disk and extended with only the missing commits', async () => {
  const fx = fixtureRepo(commits);
  const cache = mkdtempSync(join(tmpdir(), 'issueloc-hist-'));
  try {
    const first = await HistoryLog.load(fx.dir, [fx.sha('B')], { cacheDir: cache });
    assert.equal(first.size, 2);
    assert.ok(existsSync(historyLogFile(cache, fx.dir)));
    const more = await HistoryLog.load(fx.dir, [fx.sha('D')], { cacheDir: cache });
    assert.equal(more.size, 4);
    const marks = more.ancestorsOf(fx.sha('C'));
    assert.deepEqual([...marks].reduce((n, m) => n + m, 0), 3);
    // with the repository gone, the cache alone answers for known commits
    fx.remove();
    const cached = await HistoryLog.load(fx.dir, [fx.sha('C')], { cacheDir: cache });
    assert.equal(cached.size, 4);
  } finally {
    fx.remove();
    rmSync(cache, { recursive: true, force: true });
  }
});

test('message SimiScore ranks the files of commits whose messages resemble the issue', async () => {
  const fx = fixtureRepo(commits);
  try {
    const h = await RepoHistory.open(fx.dir, [fx.sha('D')]);
    const atC = h.messageScores(fx.sha('C'), parseIssue('parser crash'));
    assert.ok((atC.get('pkg/a.py') ?? 0) > (atC.get('pkg/b.py') ?? 0));
    const none = h.messageScores(fx.sha('A'), parseIssue('parser crash'));
    assert.equal(none.size, 0, 'later commits are not seen from A');
  } finally {
    fx.remove();
  }
});

test('cosine index and SimiScore (BugLocator Eq. 7) share a report’s similarity among its files', () => {
  const idx = new CosineIndex([['crash', 'parser'], ['options', 'menu'], ['crash', 'menu']]);
  const hits = idx.similar(['crash', 'parser'], 10);
  assert.equal(hits[0].doc, 0);
  assert.ok(Math.abs(hits[0].score - 1) < 1e-6);
  assert.deepEqual(hits.map((h) => h.doc), [0, 2]);
  assert.deepEqual(idx.similar(['unknown'], 5), []);
  const s = simiScore([{ doc: 0, score: 0.8 }, { doc: 1, score: 0.4 }], (d) => (d === 0 ? ['x', 'y'] : ['y']));
  assert.ok(Math.abs(s.get('x')! - 0.4) < 1e-9 && Math.abs(s.get('y')! - 0.8) < 1e-9);
});

test('similar earlier issues: only issues reported before the query count', () => {
  const day = 86_400_000;
  const sim = new SimilarIssues([
    { id: '1', text: 'NPE in request parameter parsing', time: 1 * day, files: ['Request.java'] },
    { id: '2', text: 'request parameter parsing fails on empty value', time: 5 * day, files: ['Parameters.java'] },
    { id: '3', text: 'session manager leaks threads', time: 2 * day, files: ['Manager.java'] },
  ]);
  const at3 = sim.scores(parseIssue('parameter parsing NPE'), 3 * day);
  assert.deepEqual([...at3.keys()], ['Request.java']);
  const at9 = sim.scores(parseIssue('parameter parsing NPE'), 9 * day);
  assert.ok(at9.has('Parameters.java') && at9.get('Request.java')! > at9.get('Parameters.java')!);
  assert.equal(sim.scores(parseIssue('parameter parsing'), NaN).size, 0);
});

test('CosineIndex.similar keeps the top of the full ranking for every cut, ties (equal documents) by document number', () => {
  let seed = 3;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const words = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta'];
  const base = Array.from({ length: 12 }, () => Array.from({ length: 1 + Math.floor(rand() * 5) }, () => words[Math.floor(rand() * words.length)]));
  const docs = [...base, ...base, ...base.slice(0, 5)]; // repeated documents: equal cosines
  const index = new CosineIndex(docs);
  for (const query of [['alpha', 'beta'], ['gamma', 'gamma', 'zeta'], words]) {
    const all = index.similar(query, 1e9);
    const sorted = [...all].sort((a, b) => b.score - a.score || a.doc - b.doc);
    assert.deepEqual(all, sorted);
    assert.ok(all.length > 5);
    for (let k = 1; k <= all.length + 1; k++) assert.deepEqual(index.similar(query, k), all.slice(0, k), `k ${k}`);
  }
});

test('CosineIndex.similar gives the same hits whether few or many messages are touched, with and without an allowed mask', () => {
  let seed = 17;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const common = ['parser', 'crash', 'menu', 'options', 'render', 'save'];
  // 400 messages of common words; a rare word in 6 of them (few touched: under 1/8 of the messages)
  const docs = Array.from({ length: 400 }, (_, d) => [
    ...Array.from({ length: 1 + Math.floor(rand() * 4) }, () => common[Math.floor(rand() * common.length)]),
    ...(d % 67 === 3 ? ['frobnicate'] : []),
  ]);
  const index = new CosineIndex(docs);
  const allowed = Uint8Array.from(docs, (_, d) => (d % 3 === 0 ? 0 : 1));
  for (const query of [['frobnicate'], ['frobnicate', 'frobnicate', 'zzz'], ['parser', 'crash'], [...common, 'frobnicate']]) {
    const all = index.similar(query, 1e9);
    assert.ok(all.length > 0, query.join(' '));
    assert.deepEqual(all, [...all].sort((a, b) => b.score - a.score || a.doc - b.doc));
    for (const k of [1, 3, 50, all.length]) assert.deepEqual(index.similar(query, k), all.slice(0, k), `${query.join(' ')} k ${k}`);
    // the mask leaves the statistics: the allowed hits are the unrestricted ones, filtered
    assert.deepEqual(index.similar(query, 1e9, { allowed }), all.filter((h) => allowed[h.doc] === 1), `${query.join(' ')} allowed`);
  }
  assert.equal(index.similar(['frobnicate'], 1e9).length, 6);
});

test('CosineIndex.similar over many documents (several blocks): the cosines of a direct sum in query-term order, bit for bit', () => {
  // 10 000 documents of a 40-word vocabulary, skewed so that some words are frequent
  let seed = 5;
  const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const vocab = Array.from({ length: 40 }, (_, k) => `w${k}`);
  const docs = Array.from({ length: 10_000 }, () => Array.from({ length: 1 + Math.floor(next() * 6) }, () => vocab[Math.floor(next() * next() * 40)]));
  const index = new CosineIndex(docs);
  const query = ['w3', 'w17', 'w3', 'w30', 'w0', 'nowhere', 'w25'];
  // the reference: per document, Σ over the query's distinct terms in order of first occurrence
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(docs.length / df.get(t)!);
  const counts = new Map<string, number>();
  for (const t of query) if (df.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  let qsq = 0;
  for (const [t, tf] of counts) qsq += ((1 + Math.log(tf)) * idf(t)) ** 2;
  const scored = docs.flatMap((d, k) => {
    const tfs = new Map<string, number>();
    for (const t of d) tfs.set(t, (tfs.get(t) ?? 0) + 1);
    let sq = 0;
    for (const [t, tf] of tfs) sq += (Math.fround(1 + Math.log(tf)) * idf(t)) ** 2;
    let sum = 0;
    for (const [t, tf] of counts) if (tfs.has(t)) sum += (1 + Math.log(tf)) * idf(t) * Math.fround(1 + Math.log(tfs.get(t)!)) * idf(t);
    return sum > 0 ? [{ doc: k, score: sum / (Math.sqrt(qsq) * Math.sqrt(sq)) }] : [];
  }).sort((a, b) => b.score - a.score || a.doc - b.doc);
  assert.ok(scored.length > 5000, 'the query reaches documents of every block');
  assert.deepEqual(index.similar(query, 200), scored.slice(0, 200));
});
