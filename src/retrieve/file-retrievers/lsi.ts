/**
 * LSI, latent semantic indexing (Deerwester et al. 1990; "file localisation from issues at large",
 * LSI-500 and LSI-1000): the TF-IDF matrix of the candidate files (weighted as in `tfidf.ts`) is
 * reduced by a truncated SVD to k dimensions, the issue is folded into the latent space
 * (q ↦ q V_k) and files are ranked by the cosine of their latent vectors (U_k Σ_k rows) with it.
 * k is capped at the number of files (and of terms). The SVD is randomized (Halko, Martinsson &
 * Tropp 2011; scikit-learn's `TruncatedSVD` default algorithm), see `linalg.ts`.
 *
 * When k ≥ the number of files, the latent space holds every file vector, so LSI ranks exactly as
 * TF-IDF cosine: that case is scored directly, without an SVD.
 *
 * Reuse across a-priori states (`refit`): an SVD costs seconds for thousands of files, and
 * consecutive states share most files. A fitted model is reused for a later corpus when both the
 * share of the corpus's files the model was not fitted on and the share of the model's files no
 * longer in the corpus (by content key: path and blob) are at most `refit`; files the
 * model was not fitted on are folded in with the model's IDF (Berry, Dumais & O'Brien 1995,
 * "folding-in"), and terms the model never saw are ignored. `refit: 0` fits on every state that
 * differs at all (exact, as the paper). The last `maxModels` models are kept, so issues
 * alternating between branches reuse theirs.
 */
import { invertRows, type Postings } from '../../index/inverted-index.js';
import { type FileCorpus, type Vocabulary } from './corpus.js';
import { foldInCoordinates, randomizedLsiBasis, type LsiBasis, type SparseRows } from './linalg.js';
import { cosineScores, queryVector, termFrequencyRows, tfidfMatrix, type TfWeighting, type WeightedRows } from './tfidf.js';
import type { FileRetriever, QueryTerms } from './types.js';

/** Options of {@link LsiRetriever}. */
export interface LsiOptions {
  /** k, the latent dimensions (500 and 1000 in the paper). */
  dimensions: number;
  /** TF weighting of the TF-IDF matrix; default `'fields'` (as `tfidf`). */
  weighting?: TfWeighting;
  /** Power iterations of the randomized SVD; default 1. */
  powerIterations?: number;
  /** Largest share of differing files for which a fitted model is reused; default 0 (exact). */
  refit?: number;
  /** Fitted models kept; default 2. */
  maxModels?: number;
  /** Seed of the random start; default fixed, so fits are reproducible. */
  seed?: number;
  /** Name in tables; default `lsi<k>`. */
  name?: string;
}

interface LsiModel {
  /** The vocabulary whose term ids the model uses (models never cross vocabularies). */
  readonly vocabulary: Vocabulary;
  readonly keys: ReadonlyMap<string, number>;
  readonly n: number;
  readonly idf: Float64Array;
  readonly rows: WeightedRows;
  readonly postings: Postings;
  readonly basis: LsiBasis;
  readonly folded: Map<string, Float64Array>;
  lastUsed: number;
}

type LsiState =
  | { kind: 'cosine'; corpus: FileCorpus; rows: WeightedRows; idf: Float64Array; norms: Float64Array; postings: Postings }
  | { kind: 'latent'; corpus: FileCorpus; model: LsiModel; coords: Float64Array; norms: Float64Array };

const MAX_FOLDED = 20000;

/** LSI with k dimensions (see the module comment). */
export class LsiRetriever implements FileRetriever {
  readonly name: string;
  readonly retrievesAll = true;
  private readonly k: number;
  private readonly weighting: TfWeighting;
  private readonly q: number;
  private readonly refit: number;
  private readonly maxModels: number;
  private readonly seed: number;
  private readonly models: LsiModel[] = [];
  private state?: LsiState;
  private clock = 0;
  private readonly counters = { fits: 0, reuses: 0, cosine: 0, foldedDocs: 0, fitMillis: 0, foldMillis: 0 };

  /** @throws RangeError when k is not a positive integer or refit is outside [0, 1]. */
  constructor(options: LsiOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions < 1) throw new RangeError(`LSI dimensions must be a positive integer, got ${options.dimensions}`);
    const refit = options.refit ?? 0;
    if (!(refit >= 0 && refit <= 1)) throw new RangeError(`LSI refit share must be in [0, 1], got ${refit}`);
    this.k = options.dimensions;
    this.weighting = options.weighting ?? 'fields';
    this.q = options.powerIterations ?? 1;
    this.refit = refit;
    this.maxModels = Math.max(1, options.maxModels ?? 2);
    this.seed = options.seed ?? 0x1f123bb5;
    this.name = options.name ?? `lsi${options.dimensions}`;
  }

  index(corpus: FileCorpus): void {
    const n = corpus.ids.length;
    this.clock++;
    if (this.k >= n) {
      const { rows, idf, norms } = tfidfMatrix(corpus, this.weighting);
      this.state = { kind: 'cosine', corpus, rows, idf, norms, postings: invertRows(rows, corpus.vocabulary.size) };
      this.counters.cosine++;
      return;
    }
    let model = this.reusableModel(corpus);
    if (model) this.counters.reuses++;
    else model = this.fit(corpus);
    model.lastUsed = this.clock;
    const t0 = performance.now();
    const { coords, norms } = this.coordinates(corpus, model);
    this.counters.foldMillis += performance.now() - t0;
    this.state = { kind: 'latent', corpus, model, coords, norms };
  }

  score(query: QueryTerms): Float64Array {
    const s = this.state;
    if (!s) throw new Error(`${this.name}: score() before index()`);
    if (s.kind === 'cosine') {
      const q = queryVector(query, s.corpus, this.weighting, (t) => (t < s.idf.length ? s.idf[t] : 0));
      return cosineScores(q, s.rows, s.norms, s.postings, s.corpus.ids.length);
    }
    const { model, coords, norms, corpus } = s;
    const q = queryVector(query, corpus, this.weighting, (t) => (t < model.idf.length ? model.idf[t] : 0));
    const qc = foldIn(q, model);
    const dims = model.basis.dims;
    let qn = 0;
    for (let j = 0; j < dims; j++) qn += qc[j] * qc[j];
    const n = corpus.ids.length;
    const out = new Float64Array(n);
    if (qn === 0) return out;
    qn = Math.sqrt(qn);
    for (let d = 0; d < n; d++) {
      if (norms[d] === 0) continue;
      let dot = 0;
      const o = d * dims;
      for (let j = 0; j < dims; j++) dot += coords[o + j] * qc[j];
      out[d] = dot / (norms[d] * qn);
    }
    return out;
  }

  /** fits, reuses, cosine (k ≥ files), foldedDocs, fitMillis, foldMillis. */
  stats(): Record<string, number> {
    return { ...this.counters };
  }

  private reusableModel(corpus: FileCorpus): LsiModel | undefined {
    const n = corpus.ids.length;
    let best: LsiModel | undefined;
    let bestDrift = Infinity;
    for (const m of this.models) {
      if (m.vocabulary !== corpus.vocabulary) continue; // another repository's term ids
      if (m.basis.dims < this.k) continue; // fitted on fewer files than k: too few dimensions
      let covered = 0;
      for (const key of corpus.keys) if (m.keys.has(key)) covered++;
      // the larger one-sided share: files the model does not know, files it knows that are gone
      const drift = Math.max((n - covered) / n, (m.n - covered) / m.n);
      if (drift < bestDrift) {
        bestDrift = drift;
        best = m;
      }
    }
    return best && bestDrift <= this.refit ? best : undefined;
  }

  private fit(corpus: FileCorpus): LsiModel {
    const t0 = performance.now();
    const { rows, idf } = tfidfMatrix(corpus, this.weighting);
    const V = corpus.vocabulary.size;
    const local = new Int32Array(V).fill(-1);
    let m = 0;
    for (let p = 0; p < rows.term.length; p++) if (local[rows.term[p]] < 0) local[rows.term[p]] = m++;
    const col = new Uint32Array(rows.term.length);
    for (let p = 0; p < col.length; p++) col[p] = local[rows.term[p]];
    const X: SparseRows = { rows: corpus.ids.length, cols: m, start: rows.start, col, val: rows.val };
    const basis = randomizedLsiBasis(X, this.k, this.q, this.seed);
    const keys = new Map<string, number>();
    corpus.keys.forEach((k, i) => keys.set(k, i));
    const model: LsiModel = {
      vocabulary: corpus.vocabulary,
      keys, n: corpus.ids.length, idf, rows, postings: invertRows(rows, V), basis, folded: new Map(), lastUsed: this.clock,
    };
    this.models.push(model);
    if (this.models.length > this.maxModels) {
      this.models.sort((a, b) => b.lastUsed - a.lastUsed);
      this.models.length = this.maxModels;
    }
    this.counters.fits++;
    this.counters.fitMillis += performance.now() - t0;
    return model;
  }

  /** Latent coordinates (row-major, n × dims) and their norms for every file of the corpus. */
  private coordinates(corpus: FileCorpus, model: LsiModel): { coords: Float64Array; norms: Float64Array } {
    const n = corpus.ids.length;
    const dims = model.basis.dims;
    const coords = new Float64Array(n * dims);
    const norms = new Float64Array(n);
    let tf: WeightedRows | undefined;
    const nf = model.n;
    const rc = model.basis.rowCoords;
    for (let d = 0; d < n; d++) {
      const key = corpus.keys[d];
      const o = d * dims;
      const row = model.keys.get(key);
      if (row !== undefined) {
        for (let j = 0; j < dims; j++) coords[o + j] = rc[j * nf + row];
      } else {
        let c = model.folded.get(key);
        if (!c) {
          tf ??= termFrequencyRows(corpus, this.weighting);
          const x = new Map<number, number>();
          for (let p = tf.start[d]; p < tf.start[d + 1]; p++) {
            const t = tf.term[p];
            if (t < model.idf.length && model.idf[t] > 0) x.set(t, tf.val[p] * model.idf[t]);
          }
          c = foldIn(x, model);
          if (model.folded.size >= MAX_FOLDED) model.folded.clear();
          model.folded.set(key, c);
          this.counters.foldedDocs++;
        }
        coords.set(c, o);
      }
      let s = 0;
      for (let j = 0; j < dims; j++) s += coords[o + j] * coords[o + j];
      norms[d] = Math.sqrt(s);
    }
    return { coords, norms };
  }
}

/**
 * Latent coordinates of a sparse term-space vector v (term id → weight), from its inner products
 * with the model's fitted TF-IDF rows (see `randomizedLsiBasis`).
 */
function foldIn(v: ReadonlyMap<number, number>, model: LsiModel): Float64Array {
  const a = new Float64Array(model.n);
  const { postings, rows } = model;
  for (const [t, w] of v) {
    if (t + 1 >= postings.start.length) continue;
    for (let p = postings.start[t]; p < postings.start[t + 1]; p++) a[postings.doc[p]] += w * rows.val[postings.entry[p]];
  }
  return foldInCoordinates(a, model.basis);
}
