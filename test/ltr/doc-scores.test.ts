import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsrIndex, averageFieldLengths } from '../../src/index/inverted-index.js';
import { DocFieldScorer } from '../../src/ltr/doc-scores.js';

/** A 3-field index of 400 documents: term t is held by every (t + 1)-th document, so short and long postings. */
function fixture(): CsrIndex {
  const D = 400, T = 40, F = 3;
  const start = [0];
  const doc: number[] = [];
  const tf: number[] = [];
  for (let t = 0; t < T; t++) {
    for (let d = t % 7; d < D; d += t + 1) {
      doc.push(d);
      tf.push((d + t) % 3, (d * t) % 4, t % 2 === 0 ? 1 : 0);
    }
    start.push(doc.length);
  }
  const lengths = Array.from({ length: D * F }, (_, i) => 1 + (i % 11));
  const vocabulary = Array.from({ length: T }, (_, t) => `t${t}`);
  return new CsrIndex(['path', 'name', 'body'], vocabulary, new Map(vocabulary.map((v, t) => [v, t])), D,
    Uint32Array.from(start), Uint32Array.from(doc), Uint16Array.from(tf), Uint32Array.from(lengths));
}

/** Each cell as the scorer defines it, term by term in query order (BM25F+ and per-field BM25, k1 1.2, b 0.75, δ 1). */
function reference(index: CsrIndex, docs: readonly number[], terms: { termId: number; weight: number }[]): Float64Array {
  const F = 3, W = 4, k1 = 1.2, delta = 1;
  const avg = averageFieldLengths(index);
  const out = new Float64Array(docs.length * W);
  for (const { termId, weight } of terms) {
    const { doc, tf: postingTf } = index.postings(termId);
    docs.forEach((d, i) => {
      const p = doc.indexOf(d);
      if (p < 0) return;
      let tf = 0;
      for (let f = 0; f < F; f++) {
        const raw = postingTf[p * F + f];
        if (raw === 0) continue;
        const tff = raw / (1 - 0.75 + (0.75 * index.fieldLength[d * F + f]) / avg[f]);
        tf += 1 * tff;
        out[i * W + 1 + f] += weight * (((k1 + 1) * tff) / (k1 + tff));
      }
      if (tf > 0) out[i * W] += weight * (((k1 + 1) * tf) / (k1 + tf) + delta);
    });
  }
  return out;
}

test('scoreDocs: every cell as the formula gives it, term by term, whether a term is matched by a pass along its postings or by a gallop', () => {
  const index = fixture();
  const scorer = new DocFieldScorer(index);
  const queries = [
    scorer.prepare(new Map([['t0', 2], ['t3', 1], ['t39', 1], ['t12', 3], ['nope', 1]])),
    scorer.prepare(new Map([['t39', 1], ['t1', 1]])),
    [],
  ];
  // 6 documents: postings up to 48 long are passed along, longer ones galloped; 2 repeated documents: all galloped
  for (const docs of [[399, 0, 42, 7, 13, 200], [5, 77, 5, 300, 0, 0]]) {
    const got = scorer.scoreDocs(docs, queries);
    queries.forEach((terms, q) => assert.deepEqual([...got[q]], [...reference(index, docs, terms)], `documents ${docs}, query ${q}`));
  }
});
