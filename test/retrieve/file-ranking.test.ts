// The ranking read file by file (files as blocks, in the order of their bounds) gives the same
// hits, scores and tie order as scoring and sorting every document: on random scores with ties
// (seeded), and on a built index for random queries, with and without the file prior and signals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { hitsByRank, topK, type Hit, type HitCursor } from '../../src/retrieve/bm25f.js';
import { fileRanges, rankByFiles } from '../../src/retrieve/file-ranking.js';
import { bestOfFiles } from '../../src/retrieve/item-lines.js';
import { Localizer, type RankingOptions } from '../../src/retrieve/localize.js';
import { extractIssueSignals } from '../../src/text/issue-signals.js';

/** A seeded generator of numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const all = (hits: Iterable<Hit> | HitCursor) => {
  if (Symbol.iterator in hits) return [...hits].map((h) => ({ doc: h.doc, score: h.score }));
  const out: Hit[] = [];
  while (hits.next()) out.push({ doc: hits.doc, score: hits.score });
  return out;
};

test('rankByFiles gives topK over every document, ties by document, for exact and loose bounds (seeded)', () => {
  const rnd = random(7);
  for (let round = 0; round < 200; round++) {
    const files = 1 + Math.floor(rnd() * 12);
    const fileOf: number[] = [];
    for (let f = 0; f < files; f++) {
      const n = Math.floor(rnd() * 6); // some files have no document
      for (let i = 0; i < n; i++) fileOf.push(f);
    }
    const fileOfUnit = Uint32Array.from(fileOf);
    const start = fileRanges(fileOfUnit, files)!;
    // few distinct values: many ties, some zero scores
    const scores = Float32Array.from(fileOfUnit, () => Math.floor(rnd() * 4) / 2);
    const exact = new Float64Array(files).fill(-Infinity);
    for (let d = 0; d < scores.length; d++) exact[fileOfUnit[d]] = Math.max(exact[fileOfUnit[d]], scores[d]);
    const loose = exact.map((b) => (b === -Infinity ? b : b + Math.floor(rnd() * 3)));
    const expected = all(topK(scores, scores.length));
    for (const bound of [exact, loose]) {
      assert.deepEqual(all(rankByFiles(bound, start, (d) => scores[d])), expected);
    }
    const best = bestOfFiles(scores, fileOfUnit, files);
    const fileBest = Float32Array.from(best, (d) => (d >= 0 ? scores[d] : 0));
    const byFile = all(topK(fileBest, files));
    assert.deepEqual(all(rankByFiles(loose, start, (d) => scores[d], 'file')), byFile);
    assert.deepEqual(all(rankByFiles(exact, start, (d) => scores[d], 'file', new Uint8Array(files).fill(1))), byFile);
  }
});

test('fileRanges refuses documents that are not listed file by file', () => {
  assert.deepEqual([...fileRanges(Uint32Array.from([0, 0, 2, 2, 2]), 4)!], [0, 2, 2, 5, 5]);
  assert.equal(fileRanges(Uint32Array.from([0, 1, 0]), 2), undefined);
  assert.equal(fileRanges(Uint32Array.from([0, 3]), 2), undefined);
});

const WORDS = ['parse', 'token', 'stream', 'buffer', 'flush', 'retry', 'socket', 'render', 'matrix', 'solve', 'cache', 'limit'];

/** A repository of seeded functions: some bodies repeated within and across files (ties). */
function repositoryFiles(rnd: () => number): Record<string, string> {
  const shared = 'def shared_helper(token, stream):\n    return parse(token) + flush(stream)\n';
  const out: Record<string, string> = {};
  for (let f = 0; f < 8; f++) {
    const parts: string[] = [];
    const n = 2 + Math.floor(rnd() * 5);
    for (let i = 0; i < n; i++) {
      if (rnd() < 0.25) {
        parts.push(shared);
        continue;
      }
      const body = Array.from({ length: 2 + Math.floor(rnd() * 6) }, () => WORDS[Math.floor(rnd() * WORDS.length)]);
      parts.push(`def ${WORDS[Math.floor(rnd() * WORDS.length)]}_${f}_${i}(x):\n    return ${body.join(' + ')}\n`);
    }
    out[`pkg/${WORDS[f]}/mod_${f}.py`] = parts.join('\n');
  }
  out['pkg/constants.py'] = 'LIMIT = 5\nRETRY = 3\n';
  return out;
}

test('the localizer ranking file by file equals scoring every function: hits, best function of each file, files (seeded queries)', async () => {
  const dir = tempDir('issueloc-file-ranking-');
  try {
    const rnd = random(11);
    const files = repositoryFiles(rnd);
    const commit = commitFiles(join(dir, 'repo'), files);
    const repo = await GitRepo.open(join(dir, 'repo'));
    const { codeIndex } = await indexCommit(repo, commit, { cacheDir: join(dir, 'cache') });
    await repo.close();
    assert.ok(fileRanges(codeIndex.fileOfUnit, codeIndex.filePaths.length), 'the fixture lists its documents file by file');
    const paths = Object.keys(files);
    const configs: RankingOptions[] = [{}, { filePrior: 0 }, { signals: false }, { filePrior: 0, signals: false }, { filePrior: 0.3 }];
    let compared = 0;
    for (const ranking of configs) {
      const localizer = new Localizer(codeIndex, ranking);
      for (let q = 0; q < 40; q++) {
        const terms = new Map<string, number>();
        const n = 1 + Math.floor(rnd() * 5);
        for (let i = 0; i < n; i++) terms.set(WORDS[Math.floor(rnd() * WORDS.length)], 1 + Math.floor(rnd() * 3));
        // some queries name a file or a function (signals)
        const text = rnd() < 0.5 ? `Error in ${paths[Math.floor(rnd() * paths.length)]} calling \`shared_helper()\`` : 'nothing named';
        const signals = extractIssueSignals(text);
        const dense = localizer.scoreAll(terms, signals);
        const scores = dense.scores.slice();
        const expectedHits = all(hitsByRank(scores, scores.length));
        const best = bestOfFiles(scores, codeIndex.fileOfUnit, codeIndex.filePaths.length);
        const fileBest = Float32Array.from(best, (d) => (d >= 0 ? scores[d] : 0));
        const expectedFiles = all(topK(fileBest, fileBest.length));
        const expectedFunctionless = dense.functionless;
        const got = localizer.ranking(terms, signals, Infinity, 64);
        assert.deepEqual(all(got.hits), expectedHits);
        assert.deepEqual(all(got.files()), expectedFiles);
        assert.deepEqual(got.functionless, expectedFunctionless);
        for (let f = 0; f < codeIndex.filePaths.length; f++) assert.equal(got.bestOfFile(f), best[f]);
        for (let d = 0; d < scores.length; d++) assert.equal(got.scoreOf(d), scores[d]);
        // the files' lines are asked after the next query: the same best functions
        const other = new Map([[WORDS[q % WORDS.length], 1]]);
        localizer.scoreAll(other, signals);
        localizer.ranking(other, signals, 5, 64);
        for (let f = 0; f < codeIndex.filePaths.length; f++) assert.equal(got.bestOfFile(f), best[f]);
        for (let d = 0; d < scores.length; d++) assert.equal(got.scoreOf(d), scores[d]);
        if (expectedHits.length > 1) compared++;
        // a depth cuts the same list
        assert.deepEqual(all(localizer.ranking(terms, signals, 3, 64).hits), expectedHits.slice(0, 3));
      }
    }
    assert.ok(compared > 50, `enough queries rank several functions (${compared})`);
  } finally {
    cleanup(dir);
  }
});
