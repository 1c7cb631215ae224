// A state's file-retriever scores are a function of its files and the issue alone: the same
// corpus, built after a different history (other terms seen first, so other term ids), scores
// bit for bit the same, for every file retriever (LSI fits and folds in, TF-IDF and rVSM norms).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bagOf, corpusFromTokens, jointField, Vocabulary } from '../../src/retrieve/file-retrievers/corpus.js';
import { createFileRetriever } from '../../src/retrieve/file-retrievers/registry.js';

/** A deterministic corpus of `files` files over a few hundred words, with uneven counts. */
function docs(files: number, offset = 0) {
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const words = Array.from({ length: 300 }, (_, i) => `w${(i * 7919) % 1000}`);
  return Array.from({ length: files }, (_, i) => {
    const content: string[] = [];
    const n = 20 + Math.floor(next() * 80);
    for (let j = 0; j < n; j++) content.push(words[Math.floor(next() ** 2 * words.length)]);
    return { id: `src/F${i + offset}.java`, fields: [[`f${i + offset}`, 'java'], content] };
  });
}

/** Scores of every retriever for a few queries, on `corpus` indexed once. */
function scores(build: () => ReturnType<typeof corpusFromTokens>, names: readonly string[], refit = 0): Float64Array[] {
  const out: Float64Array[] = [];
  const queries = [new Map([['w838', 2], ['w919', 1], ['java', 1]]), new Map([['w757', 1], ['w676', 3], ['w0', 1], ['f3', 1]])];
  for (const name of names) {
    const r = createFileRetriever(name, { lsiRefit: refit });
    r.index(build());
    for (const q of queries) out.push(r.score(q));
  }
  return out;
}

const RETRIEVERS = ['tfidf', 'rvsm', 'bm25f', 'lsi8', 'lsi500'];

test('a corpus scores bit-identically whatever terms its vocabulary saw before', () => {
  const files = docs(60);
  const fresh = scores(() => corpusFromTokens(files), RETRIEVERS);
  // another history: other files' terms first, in reverse order, so every id differs
  const seen = new Vocabulary();
  for (const d of [...docs(40, 100)].reverse()) for (const f of d.fields) bagOf([...f].reverse(), seen);
  for (const d of [...files].reverse()) bagOf([...d.fields[1]].reverse(), seen);
  const later = scores(() => corpusFromTokens(files, seen), RETRIEVERS);
  assert.equal(later.length, fresh.length);
  for (let i = 0; i < fresh.length; i++) {
    const name = RETRIEVERS[Math.floor(i / 2)];
    assert.ok(fresh[i].some((x) => x !== 0), `${name} scores something`);
    assert.deepEqual([...later[i]], [...fresh[i]], `${name}, query ${i % 2}: same bits after another history`);
  }
});

test('LSI folding-in (refit > 0) is independent of term ids too', () => {
  const base = docs(50);
  const nearby = [...base.slice(2), ...docs(2, 500)];
  const run = (v: Vocabulary) => {
    const r = createFileRetriever('lsi8', { lsiRefit: 0.2 });
    r.index(corpusFromTokens(base, v));
    r.index(corpusFromTokens(nearby, v));
    assert.equal(r.stats?.().foldedDocs, 2);
    return [...r.score(new Map([['w919', 1], ['w838', 2], ['java', 1]]))];
  };
  const seen = new Vocabulary();
  for (const d of [...docs(40, 100)].reverse()) for (const f of d.fields) bagOf([...f].reverse(), seen);
  for (const d of [...nearby, ...base].reverse()) bagOf([...d.fields[1]].reverse(), seen);
  const fresh = run(new Vocabulary());
  assert.ok(fresh.some((x) => x !== 0));
  assert.deepEqual(run(seen), fresh);
});

test('vocabulary ranks follow term order as terms are added; bags and joint rows are in term order', () => {
  const v = new Vocabulary();
  for (const t of ['m', 'c', 'x']) v.idOf(t);
  assert.deepEqual([...v.ranks()], [1, 0, 2]);
  for (const t of ['a', 'n', 'z', 'b']) v.idOf(t);
  const r = v.ranks();
  const order = [...v.terms.keys()].sort((a, b) => r[a] - r[b]).map((id) => v.terms[id]);
  assert.deepEqual(order, ['a', 'b', 'c', 'm', 'n', 'x', 'z']);
  const bag = bagOf(['z', 'b', 'z', 'm'], v);
  assert.deepEqual([...bag.terms].map((id) => v.terms[id]), ['b', 'm', 'z']);
  assert.deepEqual([...bag.tf], [1, 1, 2]);
  const c = corpusFromTokens([{ id: 'A', fields: [['z', 'c'], ['b', 'z', 'q']] }], v);
  const joint = jointField(c);
  assert.deepEqual([...joint.term].map((id) => v.terms[id]), ['b', 'c', 'q', 'z']);
  assert.deepEqual([...joint.tf], [1, 1, 1, 2]);
});

test('vocabulary ranks stay in term order over many additions in batches', () => {
  const v = new Vocabulary();
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  for (let batch = 0; batch < 30; batch++) {
    for (let j = next() % 200; j > 0; j--) v.idOf(`t${next() % 5000}`);
    const r = v.ranks();
    const want = [...v.terms].sort();
    const got: string[] = new Array(v.size);
    for (let id = 0; id < v.size; id++) got[r[id]] = v.terms[id];
    assert.deepEqual(got, want, `after batch ${batch}`);
  }
});
