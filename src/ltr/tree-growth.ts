/**
 * Growing one regression tree of a boosted ensemble on per-row first and second derivatives,
 * over binned features (src/ltr/feature-bins.ts), with the histogram method: a node's split
 * search is a pass over its per-bin sums of g, h and row counts, and of two children only the
 * smaller is summed anew, the other is the parent's histogram minus it (Ke et al. 2017, LightGBM,
 * §2.1 and Alg. 1).
 *
 * Second-order (Newton) boosting: a leaf's value is γ = Σg / (Σh + λ₂) and a split gains
 * G_L²/(H_L + λ₂) + G_R²/(H_R + λ₂) − G²/(H + λ₂) (Chen & Guestrin 2016, "XGBoost", Eq. 5–7,
 * with g the direction in which the scores should move, i.e. minus their gradient); with λ₂ → 0
 * the leaf value is Burges (2010)'s LambdaMART Newton step γ = Σ y / Σ w (§7, Algorithm 1).
 */
import type { BinnedFeatures } from './feature-bins.js';
import { TreeBuilder, type RegressionTree } from './regression-tree.js';

/** Options of {@link growTree}. */
export interface TreeGrowthOptions {
  /** Largest number of splits from the root to a leaf (≥ 0; 0 = a single leaf). */
  maxDepth: number;
  /** Fewest rows a leaf may hold (≥ 1). */
  minLeaf: number;
  /** λ₂ ≥ 0 added to a leaf's Σh (damps leaves of little curvature). */
  l2: number;
  /** Per feature column: 1 when splits may use it (default all). */
  allowed?: Uint8Array;
}

/** Per-bin sums of a node's rows, interleaved: [Σg, Σh, rows] at 3 · (j · stride + bin). */
type Histogram = Float64Array;

/**
 * Grows one depth-limited tree, greedily (the best split of every node, ties to the first
 * feature and the lowest cut), fully deterministic.
 *
 * @param data binned features of all rows.
 * @param g per row: the step direction (LambdaMART's λ).
 * @param h per row: the curvature, ≥ 0 (LambdaMART's w).
 * @param out receives each row's leaf value (length data.rows), for updating the scores.
 * @returns the tree, its thresholds the cut points of `data` (so x ≤ threshold ⇔ bin ≤ b).
 */
export function growTree(data: BinnedFeatures, g: Float64Array, h: Float64Array, opts: TreeGrowthOptions, out: Float64Array): RegressionTree {
  const F = data.features;
  const { bins, cuts } = data;
  const nBins = cuts.map((c) => c.length + 1);
  const stride = Math.max(1, ...nBins);
  const usable: number[] = [];
  for (let j = 0; j < F; j++) if (nBins[j] > 1 && (!opts.allowed || opts.allowed[j])) usable.push(j);
  const order = new Int32Array(data.rows);
  for (let i = 0; i < data.rows; i++) order[i] = i;
  const scratch = new Int32Array(data.rows);
  const builder = new TreeBuilder();
  const minLeaf = Math.max(1, opts.minLeaf);
  const l2 = opts.l2;
  const histogramOf = (from: number, to: number): Histogram => histogram(order, from, to, bins, g, h, F, stride);

  const leaf = (from: number, to: number, G: number, H: number): number => {
    const v = H + l2 > 0 ? G / (H + l2) : 0;
    for (let k = from; k < to; k++) out[order[k]] = v;
    return builder.leaf(v);
  };

  /** Grows the node of rows order[from, to) with sums G, H; `hist` only when it may split. */
  const grow = (from: number, to: number, G: number, H: number, depth: number, hist: Histogram | undefined): number => {
    const n = to - from;
    if (!hist || depth >= opts.maxDepth || n < 2 * minLeaf || H + l2 <= 0) return leaf(from, to, G, H);
    const parentTerm = (G * G) / (H + l2);
    let bestGain = 1e-12;
    let bestJ = -1;
    let bestB = -1;
    let best = { G: 0, H: 0, n: 0 };
    for (const j of usable) {
      let gl = 0;
      let hl = 0;
      let nl = 0;
      const at = 3 * j * stride;
      for (let b = 0; b < nBins[j] - 1; b++) {
        gl += hist[at + 3 * b];
        hl += hist[at + 3 * b + 1];
        nl += hist[at + 3 * b + 2];
        if (nl < minLeaf) continue;
        if (n - nl < minLeaf) break;
        const gr = G - gl;
        const hr = H - hl;
        if (hl + l2 <= 0 || hr + l2 <= 0) continue; // no curvature (λ₂ = 0): no Newton step
        const gain = (gl * gl) / (hl + l2) + (gr * gr) / (hr + l2) - parentTerm;
        if (gain > bestGain) {
          bestGain = gain;
          bestJ = j;
          bestB = b;
          best = { G: gl, H: hl, n: nl };
        }
      }
    }
    if (bestJ < 0) return leaf(from, to, G, H);
    // stable partition: rows with bin ≤ bestB first
    let l = from;
    let r = 0;
    for (let k = from; k < to; k++) {
      const i = order[k];
      if (bins[i * F + bestJ] <= bestB) order[l++] = i;
      else scratch[r++] = i;
    }
    order.set(scratch.subarray(0, r), l);
    const mid = from + best.n;
    const node = builder.split(bestJ, cuts[bestJ][bestB]);
    let leftHist: Histogram | undefined;
    let rightHist: Histogram | undefined;
    if (depth + 1 < opts.maxDepth) {
      // sum the smaller child; the larger is the parent minus it (the parent's arrays are reused)
      const leftSmaller = best.n <= n - best.n;
      const small = leftSmaller ? histogramOf(from, mid) : histogramOf(mid, to);
      for (let a = 0; a < hist.length; a++) hist[a] -= small[a];
      [leftHist, rightHist] = leftSmaller ? [small, hist] : [hist, small];
    }
    const left = grow(from, mid, best.G, best.H, depth + 1, leftHist);
    const right = grow(mid, to, G - best.G, H - best.H, depth + 1, rightHist);
    builder.setChildren(node, left, right);
    return node;
  };

  let G = 0;
  let H = 0;
  for (let i = 0; i < data.rows; i++) { G += g[i]; H += h[i]; }
  grow(0, data.rows, G, H, 0, opts.maxDepth > 0 ? histogramOf(0, data.rows) : undefined);
  return builder.build();
}

/** Sums g, h and rows per feature and bin over the rows order[from, to). */
function histogram(order: Int32Array, from: number, to: number, bins: Uint8Array, g: Float64Array, h: Float64Array, F: number, stride: number): Histogram {
  const hist = new Float64Array(3 * F * stride);
  for (let k = from; k < to; k++) {
    const i = order[k];
    const gi = g[i];
    const hi = h[i];
    const row = i * F;
    for (let j = 0; j < F; j++) {
      const at = 3 * (j * stride + bins[row + j]);
      hist[at] += gi;
      hist[at + 1] += hi;
      hist[at + 2]++;
    }
  }
  return hist;
}
