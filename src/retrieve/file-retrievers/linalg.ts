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
 * A = Q and B = G Q with G symmetric): the upper triangle is computed (two columns of A against
 * four of B per pass, eight accumulators) and mirrored.
 * @returns k × k, row-major = column-major (symmetric).
 */
export function symmetricCross(A: Float64Array, B: Float64Array, n: number, k: number): Float64Array {
  const C = new Float64Array(k * k);
  let i = 0;
  for (; i + 1 < k; i += 2) {
    const a0 = i * n, a1 = a0 + n;
    let j = i;
    for (; j + 3 < k; j += 4) {
      const b0 = j * n, b1 = b0 + n, b2 = b1 + n, b3 = b2 + n;
      let s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0;
      for (let r = 0; r < n; r++) {
        const x0 = A[a0 + r], x1 = A[a1 + r];
        const y0 = B[b0 + r], y1 = B[b1 + r], y2 = B[b2 + r], y3 = B[b3 + r];
        s00 += x0 * y0; s01 += x0 * y1; s02 += x0 * y2; s03 += x0 * y3;
        s10 += x1 * y0; s11 += x1 * y1; s12 += x1 * y2; s13 += x1 * y3;
      }
      const r0 = i * k + j, r1 = r0 + k;
      C[r0] = s00; C[r0 + 1] = s01; C[r0 + 2] = s02; C[r0 + 3] = s03;
      C[r1] = s10; C[r1 + 1] = s11; C[r1 + 2] = s12; C[r1 + 3] = s13;
    }
    for (; j < k; j++) {
      const bj = j * n;
      let s0 = 0, s1 = 0;
      for (let r = 0; r < n; r++) {
        const y = B[bj + r];
        s0 += A[a0 + r] * y;
        s1 += A[a1 + r] * y;
      }
      C[i * k + j] = s0;
      C[(i + 1) * k + j] = s1;
    }
  }
  for (; i < k; i++) {
    let s = 0;
    for (let r = 0; r < n; r++) s += A[i * n + r] * B[i * n + r];
    C[i * k + i] = s;
  }
  // Only the upper triangle is right (Aᵀ B is symmetric up to rounding): mirror it.
  for (let r = 0; r < k; r++) for (let c = 0; c < r; c++) C[r * k + c] = C[c * k + r];
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
 * {@link choleskyInPlace}): column j of the result is (A_j − Σ_{i<j} L[j,i] X_i) / L[j,j].
 * Columns of dropped dimensions become 0. Two target columns are updated per pass over four
 * source columns. Cost n k² / 2.
 */
export function solveLowerTransposedRight(A: Float64Array, n: number, k: number, L: Float64Array, kept: Uint8Array): void {
  const finish = (j: number) => {
    const cj = j * n;
    if (!kept[j]) {
      A.fill(0, cj, cj + n);
      return;
    }
    const inv = 1 / L[j * k + j];
    for (let r = 0; r < n; r++) A[cj + r] *= inv;
  };
  for (let j = 0; j < k; j += 2) {
    const two = j + 1 < k;
    const cj = j * n, cj1 = cj + n, rj = j * k, rj1 = rj + k;
    let i = 0;
    if (two) {
      for (; i + 3 < j; i += 4) {
        const a0 = L[rj + i], a1 = L[rj + i + 1], a2 = L[rj + i + 2], a3 = L[rj + i + 3];
        const b0 = L[rj1 + i], b1 = L[rj1 + i + 1], b2 = L[rj1 + i + 2], b3 = L[rj1 + i + 3];
        const c0 = i * n, c1 = c0 + n, c2 = c1 + n, c3 = c2 + n;
        for (let r = 0; r < n; r++) {
          const x0 = A[c0 + r], x1 = A[c1 + r], x2 = A[c2 + r], x3 = A[c3 + r];
          A[cj + r] -= a0 * x0 + a1 * x1 + a2 * x2 + a3 * x3;
          A[cj1 + r] -= b0 * x0 + b1 * x1 + b2 * x2 + b3 * x3;
        }
      }
      for (; i < j; i++) {
        const a = L[rj + i], b = L[rj1 + i];
        const ci = i * n;
        for (let r = 0; r < n; r++) {
          const x = A[ci + r];
          A[cj + r] -= a * x;
          A[cj1 + r] -= b * x;
        }
      }
      finish(j);
      const l = L[rj1 + j];
      if (l !== 0) for (let r = 0; r < n; r++) A[cj1 + r] -= l * A[cj + r];
      finish(j + 1);
    } else {
      for (; i < j; i++) {
        const a = L[rj + i];
        const ci = i * n;
        for (let r = 0; r < n; r++) A[cj + r] -= a * A[ci + r];
      }
      finish(j);
    }
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
 * X Xᵀ: Z = Xᵀ Q_b then Y_b = X Z for blocks of `block` columns. Cost 2 · nnz(X) · k. Two (then
 * four) non-zeros of a row are handled per pass over the block, so each loaded value of Q (or of
 * the accumulator) serves several products: about twice as fast in V8 as one at a time.
 */
export function gramTimes(X: SparseRows, Q: Float64Array, k: number, block = 32): Float64Array {
  const n = X.rows;
  const m = X.cols;
  const st = X.start;
  const cl = X.col;
  const vl = X.val;
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
    // Z = Xᵀ Q_b, accumulated row by row of X.
    for (let d = 0; d < n; d++) {
      const qr = d * b;
      const e = st[d + 1];
      let p = st[d];
      for (; p + 1 < e; p += 2) {
        const x1 = vl[p], x2 = vl[p + 1];
        const z1 = cl[p] * b, z2 = cl[p + 1] * b;
        for (let j = 0; j < b; j++) {
          const q = qb[qr + j];
          zb[z1 + j] += x1 * q;
          zb[z2 + j] += x2 * q;
        }
      }
      if (p < e) {
        const x = vl[p];
        const z = cl[p] * b;
        for (let j = 0; j < b; j++) zb[z + j] += x * qb[qr + j];
      }
    }
    // Y_b = X Z.
    for (let d = 0; d < n; d++) {
      acc.fill(0, 0, b);
      const e = st[d + 1];
      let p = st[d];
      for (; p + 3 < e; p += 4) {
        const x1 = vl[p], x2 = vl[p + 1], x3 = vl[p + 2], x4 = vl[p + 3];
        const z1 = cl[p] * b, z2 = cl[p + 1] * b, z3 = cl[p + 2] * b, z4 = cl[p + 3] * b;
        for (let j = 0; j < b; j++) acc[j] += x1 * zb[z1 + j] + x2 * zb[z2 + j] + x3 * zb[z3 + j] + x4 * zb[z4 + j];
      }
      for (; p < e; p++) {
        const x = vl[p];
        const z = cl[p] * b;
        for (let j = 0; j < b; j++) acc[j] += x * zb[z + j];
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
  /** Q (rows × dims, column-major): a basis of the approximate top left singular subspace. */
  readonly q: Float64Array;
  /** L (dims × dims, row-major lower triangle) with L Lᵀ = Qᵀ X Xᵀ Q. */
  readonly l: Float64Array;
  /** `kept[j]` = 1 for the independent dimensions. */
  readonly kept: Uint8Array;
  /** Coordinates of the rows of X in the orthonormal latent basis B (rows × dims, column-major). */
  readonly rowCoords: Float64Array;
}

/**
 * An orthonormal basis B (in term space) of the approximate top-k right singular subspace of X,
 * by the randomized range finder with power iterations (Halko, Martinsson & Tropp 2011, Alg. 4.3/4.4)
 * run on the small side (rows): Q spans (X Xᵀ)^q Ω for a Gaussian Ω, orthonormalised by
 * Cholesky-QR after each product; then B = Xᵀ Q L⁻ᵀ with L Lᵀ = Qᵀ X Xᵀ Q, which is orthonormal.
 *
 * B itself (cols × k, large) is never formed: what LSI needs are the coordinates of the rows
 * (X B = X Xᵀ Q L⁻ᵀ) and the coordinates of any other vector v, v B = ((X vᵀ)ᵀ Q) L⁻ᵀ
 * ({@link foldInCoordinates}). Cosines in these coordinates equal those of LSI's U_k Σ_k document
 * vectors and V_k query fold-in (Deerwester et al. 1990): both are coordinates of the same
 * projections onto the latent subspace.
 *
 * Cost ≈ 2 (q + 1) · nnz(X) · k + (q + 1.5) · rows · k² + (q + 1) k³ / 3 operations.
 * @param k dimensions asked for; capped at min(rows, cols).
 * @param powerIterations q ≥ 0 (default 1).
 */
export function randomizedLsiBasis(X: SparseRows, k: number, powerIterations = 1, seed = 0x1f123bb5): LsiBasis {
  const n = X.rows;
  const dims = Math.max(0, Math.min(k, n, X.cols));
  if (dims === 0) {
    return { dims: 0, rank: 0, q: new Float64Array(0), l: new Float64Array(0), kept: new Uint8Array(0), rowCoords: new Float64Array(0) };
  }
  let Q = gaussianMatrix(n, dims, seed);
  for (let it = 0; it < powerIterations; it++) {
    Q = gramTimes(X, Q, dims);
    choleskyQr(Q, n, dims);
  }
  const H = gramTimes(X, Q, dims);
  const T = symmetricCross(Q, H, n, dims);
  const { kept, rank } = choleskyInPlace(T, dims, 1e-10);
  solveLowerTransposedRight(H, n, dims, T, kept);
  return { dims, rank, q: Q, l: T, kept, rowCoords: H };
}

/**
 * Latent coordinates of a vector given by a = X vᵀ (its inner products with the rows of X):
 * (aᵀ Q) L⁻ᵀ, by one product with Q and a forward substitution with L.
 */
export function foldInCoordinates(a: Float64Array, basis: LsiBasis): Float64Array {
  const n = a.length;
  const k = basis.dims;
  const { q: Q, l: L, kept } = basis;
  const y = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const cj = j * n;
    let s = 0;
    for (let i = 0; i < n; i++) s += a[i] * Q[cj + i];
    y[j] = s;
  }
  // y ← y L⁻ᵀ, i.e. solve L yᵀ = cᵀ forwards; dropped dimensions are 0.
  for (let j = 0; j < k; j++) {
    if (!kept[j]) {
      y[j] = 0;
      continue;
    }
    const rj = j * k;
    let s = y[j];
    for (let i = 0; i < j; i++) s -= L[rj + i] * y[i];
    y[j] = s / L[rj + j];
  }
  return y;
}
