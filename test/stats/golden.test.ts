/*
 * Golden values from python3 with scipy 1.17.1 and numpy 2.4.6. scikit-posthocs is not installed
 * here, so the Conover values come from its posthoc_conover formula (v0.9) re-implemented in numpy
 * below; the Holm values of data set A reproduce the published example of scikit-posthocs'
 * README (0.00119517, 0.00278329, 0.18672227). The script that printed them:
 *
 *   import numpy as np, scipy.stats as ss
 *   def conover(groups):
 *       x = np.concatenate(groups); n = len(x); k = len(groups)
 *       r = ss.rankdata(x); lens = np.array([len(g) for g in groups])
 *       idx = np.cumsum(np.r_[0, lens])
 *       rg = [r[idx[i]:idx[i+1]] for i in range(k)]
 *       _, t = np.unique(r, return_counts=True)
 *       C = min(1.0, 1.0 - np.sum(t**3 - t) / (n**3 - n))
 *       h = 12.0 / (n*(n+1)) * sum(g.sum()**2 / len(g) for g in rg) - 3.0*(n+1)
 *       hc = h / C
 *       S2 = n*(n+1)/12.0 if C == 1 else (np.sum(r**2) - n*(n+1)**2/4.0) / (n-1)
 *       out = []
 *       for i in range(k):
 *           for j in range(i+1, k):
 *               B = 1.0/lens[i] + 1.0/lens[j]; D = (n-1-hc)/(n-k)
 *               tv = abs(rg[i].mean() - rg[j].mean()) / np.sqrt(S2*B*D)
 *               out.append((i, j, tv, 2*ss.t.sf(abs(tv), n-k)))
 *       return out
 *   def holm(p):
 *       p = np.asarray(p); o = np.argsort(p); m = len(p)
 *       adj = np.minimum(1, np.maximum.accumulate(p[o] * np.arange(m, 0, -1)))
 *       res = np.empty(m); res[o] = adj; return res
 *   A = [[1,2,3,5,1],[12,31,54],[10,12,6,74,11]]
 *   B = [[0,0,1,0.5,1/3,1,0,0.25],[0,0,0,0.2,0.5],[1,1,0.5,0,1,1/3]]
 *   for G in (A, B):
 *       H, p = ss.kruskal(*G); n = sum(map(len, G)); print(H, p, H/((n**2-1)/(n+1)))
 *       c = conover([np.array(g, float) for g in G]); ps = [q for *_, q in c]
 *       print([t for _,_,t,_ in c], ps, holm(ps), np.minimum(1, np.array(ps)*len(ps)),
 *             ss.false_discovery_control(ps, method='bh'))
 *   x = [0,0,1,2,2,3,5,8,0,1,4,2]; y = [0,0.5,1,1/3,1,1,0.5,1,0,0.25,1,0]
 *   print(ss.spearmanr(x, y))
 *   rng = np.random.default_rng(7); xs = rng.poisson(3, 60); ys = np.round(xs*0.1 + rng.random(60), 1)
 *   print(xs.tolist(), ys.tolist(), ss.spearmanr(xs, ys))
 *   print(ss.kruskal(list(range(1, 41)), list(range(41, 81)), list(range(81, 121))))
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { kruskalWallis } from '../../src/stats/kruskal.js';
import { conover } from '../../src/stats/conover.js';
import { adjustPValues } from '../../src/stats/p-adjust.js';
import { spearman } from '../../src/stats/spearman.js';

function close(actual: number | null, expected: number, rel = 1e-9, what = ''): void {
  assert.ok(actual !== null, `${what}: got null`);
  const tol = rel * Math.max(Math.abs(expected), 1e-300);
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
}

const A = { g1: [1, 2, 3, 5, 1], g2: [12, 31, 54], g3: [10, 12, 6, 74, 11] };
const B = new Map([
  ['Bug', [0, 0, 1, 0.5, 1 / 3, 1, 0, 0.25]],
  ['Task', [0, 0, 0, 0.2, 0.5]],
  ['Improvement', [1, 1, 0.5, 0, 1, 1 / 3]],
]);

test('Kruskal-Wallis H, p and ε² match scipy.stats.kruskal (with and without ties)', () => {
  const a = kruskalWallis(A);
  close(a.H, 9.184530386740327, 1e-12, 'A H');
  close(a.p, 0.010129886213908555, 1e-9, 'A p');
  close(a.epsilonSquared, 0.7653775322283606, 1e-12, 'A eps2');
  assert.equal(a.df, 2);
  const b = kruskalWallis(B);
  close(b.H, 3.913526912181303, 1e-12, 'B H');
  close(b.p, 0.14131505394315994, 1e-9, 'B p');
  close(b.epsilonSquared, 0.21741816178785017, 1e-12, 'B eps2');
  // the chi-square upper tail agrees with 1 - @stdlib chisquare-cdf where that difference is exact enough
  close(b.p, 1 - chisquareCdf(b.H ?? 0, 2), 1e-9, 'B p vs stdlib cdf');
  // tiny p stays accurate: scipy gives 1.0691833741861901e-23
  const range = (a0: number, b0: number): number[] => Array.from({ length: b0 - a0 }, (_, i) => a0 + i);
  const big = kruskalWallis([range(1, 41), range(41, 81), range(81, 121)].reduce((o, v, i) => ({ ...o, [`g${i}`]: v }), {}));
  close(big.H, 105.78512396694214, 1e-12, 'big H');
  close(big.p, 1.0691833741861901e-23, 1e-6, 'big p');
});

test('Conover t, p and Holm / Bonferroni / BH adjusted p match the scikit-posthocs formula', () => {
  const a = conover(A);
  assert.deepEqual(a.pairs.map((p) => [p.a, p.b]), [['g1', 'g2'], ['g1', 'g3'], ['g2', 'g3']]);
  [5.205029040797137, 4.373415837883676, 1.4175398238766679].forEach((t, i) => close(a.pairs[i].t, t, 1e-10, `A t${i}`));
  [0.00039839107804122225, 0.0013916442576787664, 0.18672227399281952].forEach((p, i) => close(a.pairs[i].p, p, 1e-8, `A p${i}`));
  [0.0011951732341236667, 0.0027832885153575328, 0.18672227399281952].forEach((p, i) => close(a.pairs[i].pAdjusted, p, 1e-8, `A holm${i}`));
  assert.equal(a.df, 10);
  assert.ok(a.pairs[0].meanRankDiff < 0); // g1 ranks below g2

  const b = conover(B);
  [1.1072956213632315, 1.190082701677779, 2.103898395628545].forEach((t, i) => close(b.pairs[i].t, t, 1e-10, `B t${i}`));
  [0.5027466567516766, 0.5027466567516766, 0.15466549736463045].forEach((p, i) => close(b.pairs[i].pAdjusted, p, 1e-8, `B holm${i}`));
  const bonf = conover(B, { adjust: 'bonferroni' });
  [0.8536076075387391, 0.7541199851275149, 0.15466549736463045].forEach((p, i) => close(bonf.pairs[i].pAdjusted, p, 1e-8, `B bonf${i}`));
  const bh = conover(B, { adjust: 'fdr_bh' });
  [0.2845358691795797, 0.2845358691795797, 0.15466549736463045].forEach((p, i) => close(bh.pairs[i].pAdjusted, p, 1e-8, `B bh${i}`));
  const none = conover(B, { adjust: 'none' });
  [0.2845358691795797, 0.2513733283758383, 0.05155516578821015].forEach((p, i) => close(none.pairs[i].pAdjusted, p, 1e-8, `B none${i}`));
});

test('p-value adjustment on its own (order kept, capped at 1)', () => {
  assert.deepEqual(adjustPValues([0.01, 0.04, 0.03], 'holm').map((v) => +v.toFixed(10)), [0.03, 0.06, 0.06]);
  assert.deepEqual(adjustPValues([0.5, 0.6], 'bonferroni'), [1, 1]);
  assert.throws(() => adjustPValues([1.5]), /in \[0, 1\]/);
});

test('Spearman rho and p match scipy.stats.spearmanr (ties, average ranks)', () => {
  const r = spearman([0, 0, 1, 2, 2, 3, 5, 8, 0, 1, 4, 2], [0, 0.5, 1, 1 / 3, 1, 1, 0.5, 1, 0, 0.25, 1, 0]);
  close(r.rho, 0.5764631625025579, 1e-12, 'rho');
  close(r.p, 0.04976475460307708, 1e-9, 'p');
  const xs = [4, 1, 4, 3, 5, 1, 0, 5, 1, 2, 1, 2, 5, 5, 2, 6, 2, 1, 3, 6, 1, 5, 2, 0, 5, 1, 3, 5, 5, 3, 1, 4, 2, 4, 7, 4, 4, 5, 1, 3, 4, 4, 1, 4, 4, 0, 0, 2, 1, 3, 6, 1, 3, 2, 5, 4, 2, 7, 0, 4];
  const ys = [0.7, 0.6, 1.1, 0.4, 0.9, 0.2, 0.7, 1.3, 0.5, 0.6, 0.6, 0.4, 0.7, 0.8, 0.7, 0.7, 1.0, 0.7, 0.6, 0.7, 0.9, 0.6, 0.3, 0.1, 0.6, 1.0, 0.6, 0.8, 1.3, 0.9, 0.3, 0.8, 1.1, 0.8, 1.4, 0.5, 1.1, 1.3, 0.9, 1.0, 0.8, 0.5, 0.6, 1.2, 0.6, 0.3, 0.5, 0.9, 1.0, 0.4, 0.8, 0.9, 0.9, 0.9, 1.5, 1.3, 1.0, 1.5, 0.4, 1.0];
  const r60 = spearman(xs, ys);
  close(r60.rho, 0.429527314144418, 1e-12, 'rho60');
  close(r60.p, 0.0006153104543502945, 1e-8, 'p60');
  assert.equal(r60.n, 60);
});
