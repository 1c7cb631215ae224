/**
 * Dense and sparse kernels for the randomized truncated SVD of LSI, on Float64Arrays.
 *
 * Dense matrices are column-major: an n × k matrix `A` holds column j at `A[j*n .. (j+1)*n)`.
 * Sparse matrices are doc-major rows ({@link SparseRows}) with column ids in 0 … m−1.
 * The hot loops are plain typed-array loops, unrolled by four where a column is reused, so that
 * V8 keeps them in registers (no SIMD in JavaScript; see bench/eval-tomcat.ts for timings).
 */

/** Doc-major sparse rows with local column ids (0 … cols−1). */
export interface SparseRows {
  readonly rows: number;
  readonly cols: number;
  readonly start: Uint32Array;
  readonly col: Uint32Array;
  readonly val: Float64Array;
}

/**
 * A deterministic pseudo-random generator of standard normal values (mulberry32 uniform bits,
 * Box–Muller transform), so that LSI fits are reproducible run to run.
 */
export function normalGenerator(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = uniform();
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/** An n × k matrix of independent standard normal values (column-major). */
export function gaussianMatrix(n: number, k: number, seed: number): Float64Array {
  const next = normalGenerator(seed);
  const out = new Float64Array(n * k);
  for (let i = 0; i < out.length; i++) out[i] = next();
  return out;
}

/**
 * Aᵀ B for n × k column-major A and B, when the result is known to be symmetric (A = B, or
 * A = Q and B = G Q with G symmetric): the upper triangle is computed and mirrored.
 * @returns k × k, row-major = column-major (symmetric).
 */
export function symmetricCross(A: Float64Array, B: Float64Array, n: number, k: number): Float64Array {
  const C = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    const ai = i * n;
    let j = i;
    for (; j + 3 < k; j += 4) {
      const b0 = j * n, b1 = b0 + n, b2 = b1 + n, b3 = b2 + n;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let r = 0; r < n; r++) {
        const a = A[ai + r];
        s0 += a * B[b0 + r];
        s1 += a * B[b1 + r];
        s2 += a * B[b2 + r];
        s3 += a * B[b3 + r];
      }
      C[i * k + j] = s0; C[i * k + j + 1] = s1; C[i * k + j + 2] = s2; C[i * k + j + 3] = s3;
    }
    for (; j < k; j++) {
      const bj = j * n;
      let s = 0;
      for (let r = 0; r < n; r++) s += A[ai + r] * B[bj + r];
      C[i * k + j] = s;
    }
  }
  // Only the upper triangle was computed (Aᵀ B is symmetric up to rounding): mirror it.
  for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) C[i * k + j] = C[j * k + i];
  return C;
}

/**
 * Cholesky factorisation C = L Lᵀ of a symmetric positive semi-definite k × k matrix, in place
 * (the lower triangle of C becomes L, row-major L[i*k + j], j ≤ i). A pivot below
 * `tol · max diagonal` marks its dimension as dependent: that column of L is set to 0 and the
 * dimension is dropped (semi-definite Cholesky), so rank-deficient input never yields NaN.
 * @returns `kept[j]` = 1 for the independent dimensions, and their number.
 */
export function choleskyInPlace(C: Float64Array, k: number, tol = 1e-12): { kept: Uint8Array; rank: number } {
  let maxDiag = 0;
  for (let i = 0; i < k; i++) maxDiag = Math.max(maxDiag, C[i * k + i]);
  const floor = tol * maxDiag;
  const kept = new Uint8Array(k);
  let rank = 0;
  for (let j = 0; j < k; j++) {
    const rj = j * k;
    let d = C[rj + j];
    for (let p = 0; p < j; p++) d -= C[rj + p] * C[rj + p];
    if (!(d > floor) || maxDiag === 0) {
      for (let i = j; i < k; i++) C[i * k + j] = 0;
      continue;
    }
    const ljj = Math.sqrt(d);
    C[rj + j] = ljj;
    kept[j] = 1;
    rank++;
    for (let i = j + 1; i < k; i++) {
      const ri = i * k;
      let s = C[ri + j];
      for (let p = 0; p < j; p++) s -= C[ri + p] * C[rj + p];
      C[ri + j] = s / ljj;
    }
  }
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) C[i * k + j] = 0;
  return { kept, rank };
}

/**
 * A ← A L⁻ᵀ in place, for n × k column-major A and lower-triangular L (row-major, from
 * {@link choleskyInPlace}). Columns of dropped dimensions become 0. Cost n k² / 2.
 */
export function solveLowerTransposedRight(A: Float64Array, n: number, k: number, L: Float64Array, kept: Uint8Array): void {
  // Column j of X = A L⁻ᵀ: X_j = (A_j − Σ_{i<j} L[j,i] X_i) / L[j,j].
  for (let j = 0; j < k; j++) {
    const cj = j * n;
    if (!kept[j]) {
      A.fill(0, cj, cj + n);
      continue;
    }
    const rj = j * k;
    let i = 0;
    for (; i + 3 < j; i += 4) {
      const l0 = L[rj + i], l1 = L[rj + i + 1], l2 = L[rj + i + 2], l3 = L[rj + i + 3];
      if (l0 === 0 && l1 === 0 && l2 === 0 && l3 === 0) continue;
      const c0 = i * n, c1 = c0 + n, c2 = c1 + n, c3 = c2 + n;
      for (let r = 0; r < n; r++) A[cj + r] -= l0 * A[c0 + r] + l1 * A[c1 + r] + l2 * A[c2 + r] + l3 * A[c3 + r];
    }
    for (; i < j; i++) {
      const l = L[rj + i];
      if (l === 0) continue;
      const ci = i * n;
      for (let r = 0; r < n; r++) A[cj + r] -= l * A[ci + r];
    }
    const inv = 1 / L[rj + j];
    for (let r = 0; r < n; r++) A[cj + r] *= inv;
  }
}

/**
 * Orthonormalises the columns of an n × k column-major matrix in place by one Cholesky-QR pass
 * (Q = A R⁻¹ with RᵀR = AᵀA); dependent columns become 0.
 * @returns the number of independent columns.
 */
export function choleskyQr(A: Float64Array, n: number, k: number): number {
  const C = symmetricCross(A, A, n, k);
  const { kept, rank } = choleskyInPlace(C, k);
  solveLowerTransposedRight(A, n, k, C, kept);
  return rank;
}

/**
 * Y = X Xᵀ Q for sparse X (rows × cols) and dense Q (rows × k, column-major), without forming
 * X Xᵀ: Z = Xᵀ Q_b then Y_b = X Z for blocks of `block` columns. Cost 2 · nnz(X) · k.
 */
export function gramTimes(X: SparseRows, Q: Float64Array, k: number, block = 32): Float64Array {
  const n = X.rows;
  const m = X.cols;
  const Y = new Float64Array(n * k);
  const qb = new Float64Array(n * block);
  const zb = new Float64Array(m * block);
  const acc = new Float64Array(block);
  for (let c0 = 0; c0 < k; c0 += block) {
    const b = Math.min(block, k - c0);
    for (let j = 0; j < b; j++) {
      const cj = (c0 + j) * n;
      for (let d = 0; d < n; d++) qb[d * b + j] = Q[cj + d];
    }
    zb.fill(0, 0, m * b);
    for (let d = 0; d < n; d++) {
      const qr = d * b;
      for (let p = X.start[d]; p < X.start[d + 1]; p++) {
        const x = X.val[p];
        const zr = X.col[p] * b;
        for (let j = 0; j < b; j++) zb[zr + j] += x * qb[qr + j];
      }
    }
    for (let d = 0; d < n; d++) {
      acc.fill(0, 0, b);
      for (let p = X.start[d]; p < X.start[d + 1]; p++) {
        const x = X.val[p];
        const zr = X.col[p] * b;
        for (let j = 0; j < b; j++) acc[j] += x * zb[zr + j];
      }
      for (let j = 0; j < b; j++) Y[(c0 + j) * n + d] = acc[j];
    }
  }
  return Y;
}

/** Result of {@link randomizedLsiBasis}. */
export interface LsiBasis {
  /** Dimensions asked for (min of k, rows, cols). */
  readonly dims: number;
  /** Independent dimensions found (≤ dims; fewer when X has lower rank). */
  readonly rank: number;
  /**
   * P (rows × dims, column-major) such that for any vector v in column space, its coordinates in
   * an orthonormal basis B of the latent space are (X vᵀ)ᵀ P: the fold-in operator.
   */
  readonly foldIn: Float64Array;
  /** Coordinates of the rows of X in B (rows × dims, column-major): X B = X Xᵀ P. */
  readonly rowCoords: Float64Array;
}

/**
 * An orthonormal basis B (in term space) of the approximate top-k right singular subspace of X,
 * by the randomized range finder with power iterations (Halko, Martinsson & Tropp 2011, Alg. 4.3/4.4)
 * run on the small side (rows): Q spans (X Xᵀ)^q Ω for a Gaussian Ω, orthonormalised by
 * Cholesky-QR after each product; then B = Xᵀ Q L⁻ᵀ with L Lᵀ = Qᵀ X Xᵀ Q, which is orthonormal.
 *
 * B itself (cols × k, large) is never formed: what LSI needs are the coordinates of the rows
 * (X B) and an operator to fold in new vectors (v B = (X vᵀ)ᵀ Q L⁻ᵀ), see {@link LsiBasis}.
 * Cosines in these coordinates equal those of LSI's U_k Σ_k document vectors and V_k query
 * fold-in (Deerwester et al. 1990), since both are coordinates of the same projections.
 *
 * Cost ≈ 2 (q + 1) · nnz(X) · k + (2.5 q + 1.5) · rows · k² operations.
 * @param k dimensions asked for; capped at min(rows, cols).
 * @param powerIterations q ≥ 0 (default 2).
 */
export function randomizedLsiBasis(X: SparseRows, k: number, powerIterations = 2, seed = 0x1f123bb5): LsiBasis {
  const n = X.rows;
  const dims = Math.max(0, Math.min(k, n, X.cols));
  if (dims === 0) return { dims: 0, rank: 0, foldIn: new Float64Array(0), rowCoords: new Float64Array(0) };
  let Q = gaussianMatrix(n, dims, seed);
  for (let it = 0; it < powerIterations; it++) {
    Q = gramTimes(X, Q, dims);
    choleskyQr(Q, n, dims);
  }
  const H = gramTimes(X, Q, dims);
  const T = symmetricCross(Q, H, n, dims);
  const { kept, rank } = choleskyInPlace(T, dims, 1e-10);
  solveLowerTransposedRight(Q, n, dims, T, kept);
  solveLowerTransposedRight(H, n, dims, T, kept);
  return { dims, rank, foldIn: Q, rowCoords: H };
}
