import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusFromTokens, Vocabulary } from '../../src/retrieve/file-retrievers/corpus.js';
import {
  choleskyQr, gaussianMatrix, gramTimes, randomizedLsiBasis, symmetricCross, type SparseRows,
} from '../../src/retrieve/file-retrievers/linalg.js';
import { LsiRetriever } from '../../src/retrieve/file-retrievers/lsi.js';
import { TfidfRetriever } from '../../src/retrieve/file-retrievers/tfidf.js';
import { rankFiles } from '../../src/retrieve/file-retrievers/types.js';

/** Cyclic Jacobi eigen-decomposition of a small symmetric matrix (test reference only). */
function jacobiEigen(A: number[][]): { values: number[]; vectors: number[][] } {
  const n = A.length;
  const a = A.map((r) => [...r]);
  const v: number[][] = A.map((_, i) => A.map((__, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) off += a[i][j] ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p][q]) < 1e-300) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = a.map((_, i) => i).sort((x, y) => a[y][y] - a[x][x]);
  return { values: order.map((i) => a[i][i]), vectors: order.map((i) => v.map((row) => row[i])) };
}

/**
 * A random sparse matrix with a clear spectral gap: each row mixes one of four topics (a block of
 * terms with large weights) with a little noise elsewhere, so the top four singular directions
 * are well separated from the rest.
 */
function topicMatrix(n: number, m: number, seed: number): SparseRows {
  const g = gaussianMatrix(n * 40, 1, seed);
  let gi = 0;
  const next = () => Math.abs(g[gi++ % g.length]);
  const start = new Uint32Array(n + 1);
  const col: number[] = [];
  const val: number[] = [];
  const block = Math.floor(m / 4);
  for (let d = 0; d < n; d++) {
    const topic = d % 4;
    const row = new Map<number, number>();
    for (let t = 0; t < 8; t++) row.set(topic * block + t, 3 + next());
    for (let t = 0; t < 4; t++) {
      const c = Math.floor(next() * 1000) % m;
      row.set(c, (row.get(c) ?? 0) + 0.2 * next());
    }
    for (const c of [...row.keys()].sort((a, b) => a - b)) {
      col.push(c);
      val.push(row.get(c) as number);
    }
    start[d + 1] = col.length;
  }
  return { rows: n, cols: m, start, col: Uint32Array.from(col), val: Float64Array.from(val) };
}

function dense(X: SparseRows): number[][] {
  const out = Array.from({ length: X.rows }, () => new Array<number>(X.cols).fill(0));
  for (let d = 0; d < X.rows; d++) for (let p = X.start[d]; p < X.start[d + 1]; p++) out[d][X.col[p]] = X.val[p];
  return out;
}

test('Cholesky-QR gives orthonormal columns; dependent columns become 0, never NaN', () => {
  const n = 40, k = 6;
  const A = gaussianMatrix(n, k, 7);
  A.copyWithin(5 * n, 4 * n, 5 * n); // column 5 = column 4
  const rank = choleskyQr(A, n, k);
  assert.equal(rank, 5);
  const C = symmetricCross(A, A, n, k);
  for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) assert.ok(Math.abs(C[i * k + j] - (i === j ? 1 : 0)) < 1e-10, `(${i},${j}) ${C[i * k + j]}`);
  assert.ok(A.every(Number.isFinite));
  assert.equal(C[5 * k + 5], 0);
});

test('gramTimes equals X Xᵀ Q computed densely', () => {
  const X = topicMatrix(15, 30, 3);
  const Q = gaussianMatrix(15, 3, 5);
  const Y = gramTimes(X, Q, 3, 2);
  const D = dense(X);
  for (let d = 0; d < 15; d++) {
    for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let e = 0; e < 15; e++) {
        let g = 0;
        for (let t = 0; t < 30; t++) g += D[d][t] * D[e][t];
        s += g * Q[j * 15 + e];
      }
      assert.ok(Math.abs(Y[j * 15 + d] - s) < 1e-9);
    }
  }
});

test('randomized LSI basis: row coordinates match the exact rank-k LSI (cosines of U_k Σ_k rows)', () => {
  const n = 40, m = 80, k = 4;
  const X = topicMatrix(n, m, 11);
  const basis = randomizedLsiBasis(X, k, 2);
  assert.equal(basis.dims, k);
  assert.equal(basis.rank, k);
  // Exact: eigenvectors of G = X Xᵀ give U; U_k Σ_k rows are the document vectors.
  const D = dense(X);
  const G = D.map((r) => D.map((s) => r.reduce((acc, x, t) => acc + x * s[t], 0)));
  const { values, vectors } = jacobiEigen(G);
  const exact = D.map((_, d) => vectors.slice(0, k).map((u, j) => u[d] * Math.sqrt(values[j])));
  const ours = D.map((_, d) => Array.from({ length: k }, (__, j) => basis.rowCoords[j * n + d]));
  const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / Math.hypot(...a) / Math.hypot(...b);
  // Coordinates differ by a rotation; Gram matrices (inner products between documents) agree.
  let worst = 0;
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) worst = Math.max(worst, Math.abs(cos(exact[a], exact[b]) - cos(ours[a], ours[b])));
  assert.ok(worst < 1e-3, `largest cosine difference ${worst}`);
});

function javaCorpus(files: number, vocabulary = new Vocabulary(), offset = 0) {
  const words = ['parse', 'token', 'stream', 'lexer', 'char', 'http', 'request', 'session', 'cookie', 'header',
    'servlet', 'filter', 'cache', 'buffer', 'socket', 'thread', 'pool', 'jsp', 'compiler', 'tag'];
  const docs = [];
  for (let i = 0; i < files; i++) {
    const topic = (i + offset) % 5;
    const content: string[] = [];
    for (let j = 0; j < 12; j++) content.push(words[(topic * 4 + ((j * (i + 3)) % 7)) % words.length]);
    docs.push({ id: `src/F${i + offset}.java`, fields: [[`f${i + offset}`, 'java'], content] });
  }
  return corpusFromTokens(docs, vocabulary);
}

test('LSI with k ≥ files ranks exactly as TF-IDF cosine', () => {
  const c = javaCorpus(12);
  const lsi = new LsiRetriever({ dimensions: 50 });
  const tfidf = new TfidfRetriever();
  lsi.index(c);
  tfidf.index(c);
  const query = new Map([['http', 1], ['cookie', 2]]);
  const a = rankFiles(c, lsi.score(query), false).map((r) => r.id);
  const b = rankFiles(c, tfidf.score(query), false).map((r) => r.id);
  assert.deepEqual(a, b);
  assert.equal(lsi.stats().cosine, 1);
  assert.equal(lsi.stats().fits, 0);
});

test('LSI finds files through co-occurring terms that the query does not contain', () => {
  // `session` and `cookie` always occur together; a query for `cookie` ranks a file with only
  // `session` above unrelated files.
  const docs = [
    { id: 'A', fields: [['a'], ['session', 'cookie', 'header']] },
    { id: 'B', fields: [['b'], ['session', 'cookie']] },
    { id: 'C', fields: [['c'], ['session']] },
    { id: 'D', fields: [['d'], ['thread', 'pool']] },
    { id: 'E', fields: [['e'], ['thread', 'pool', 'socket']] },
    { id: 'F', fields: [['f'], ['socket', 'buffer']] },
  ];
  const c = corpusFromTokens(docs);
  const lsi = new LsiRetriever({ dimensions: 2, powerIterations: 4 });
  lsi.index(c);
  const ranked = rankFiles(c, lsi.score(new Map([['cookie', 1]])), true).map((r) => r.id);
  assert.deepEqual(ranked.slice(0, 3).sort(), ['A', 'B', 'C']);
});

test('LSI refit share: a model is reused (files folded in) below the share and refitted above it', () => {
  const v = new Vocabulary();
  const base = javaCorpus(40, v);
  const nearby = javaCorpus(40, v, 2); // 38 shared files, 2 new and 2 gone: 2 / 40 = 0.05 each way
  const exact = new LsiRetriever({ dimensions: 8, powerIterations: 3 });
  exact.index(base);
  exact.index(nearby);
  assert.equal(exact.stats().fits, 2, 'refit 0: every different state is fitted');
  const reuse = new LsiRetriever({ dimensions: 8, refit: 0.1, powerIterations: 3 });
  reuse.index(base);
  reuse.index(nearby);
  assert.deepEqual([reuse.stats().fits, reuse.stats().reuses, reuse.stats().foldedDocs], [1, 1, 2]);
  const query = new Map([['http', 1], ['session', 1]]);
  const s = reuse.score(query);
  assert.ok(s.every(Number.isFinite));
  // Files of one topic tie; what must hold is that both rank files of the same topic first.
  const topic = (id: string) => Number(/F(\d+)/.exec(id)?.[1]) % 5;
  const top = (r: LsiRetriever) => new Set(rankFiles(nearby, r.score(query), true).slice(0, 5).map((x) => topic(x.id)));
  assert.deepEqual(top(reuse), top(exact), 'folding in two files keeps the top 5 in the same topic');
  assert.equal(top(exact).size, 1);
  reuse.index(base);
  assert.equal(reuse.stats().fits, 1, 'going back to the fitted state reuses its model');
  const far = javaCorpus(40, v, 20);
  reuse.index(far);
  assert.equal(reuse.stats().fits, 2, 'half the files changed: refitted');
});
