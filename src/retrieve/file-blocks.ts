import type { Bm25fScorer, Hit, QueryTerms } from './bm25f.js';

/**
 * The postings of one term cut at file boundaries: block i holds the postings
 * `start[i]` … `start[i + 1] − 1`, all in file `file[i]`, and `max[i]` is their largest gain
 * (`Bm25fScorer.gainOf`).
 */
interface TermBlocks {
  file: Uint32Array;
  start: Uint32Array;
  max: Float64Array;
}

/**
 * Block-max upper bounds of BM25F+ with a repository's files as the blocks (Ding & Suel 2011,
 * "Faster top-k document retrieval using block-max indexes", SIGIR; the per-term bounds of
 * MaxScore, Turtle & Flood 1995, "Query evaluation: strategies and optimizations", taken per block).
 * The function-level documents of a file are consecutive (corpus order: path, then line), so a
 * term's postings fall in runs, one per file holding it: per query, a file's bound is
 * Σ_t qw(t) · idf(t) · max gain of t in the file, and a file whose bound cannot reach the
 * ranking is never scored.
 *
 * A file's documents are scored exactly as `Bm25fScorer.scoreAll` scores them (each document's
 * terms added in query order, rounded to float32 at each step), so scores and ties are
 * bit-identical to scoring every document. Construct once per loaded index ({@link of}); a
 * term's blocks are made on its first query and kept, as the scorer keeps its gains.
 */
export class FileBlocks {
  private readonly blocks = new Map<number, TermBlocks>();
  /** Scores of the documents of the files scored for the current query ({@link BlockQuery}). */
  readonly fn: Float32Array;
  /** Per file, the query (its number) whose scores `fn` holds for the file's documents. */
  private readonly scoredFor: Int32Array;
  private queries = 0;
  // the current query: per file, its first and last run of postings (−1: none); per run, its
  // term (index into the query's w, doc, gain), postings from … to, and the file's next run
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  private runTerm = new Int32Array(1024);
  private runFrom = new Uint32Array(1024);
  private runTo = new Uint32Array(1024);
  private runNext = new Int32Array(1024);
  private termW: number[] = [];
  private termDoc: Uint32Array[] = [];
  private termGain: Float64Array[] = [];

  private constructor(readonly scorer: Bm25fScorer, readonly fileOfUnit: Uint32Array, readonly fileStart: Uint32Array) {
    const files = fileStart.length - 1;
    this.fn = new Float32Array(fileOfUnit.length);
    this.scoredFor = new Int32Array(files);
    this.head = new Int32Array(files);
    this.tail = new Int32Array(files);
  }

  /**
   * The blocks of an index whose documents `fileOfUnit` lists file by file (ascending), else
   * undefined (no bound holds then: score every document).
   */
  static of(scorer: Bm25fScorer, fileOfUnit: Uint32Array, fileCount: number): FileBlocks | undefined {
    const start = new Uint32Array(fileCount + 1);
    for (let d = 0; d < fileOfUnit.length; d++) {
      if (d > 0 && fileOfUnit[d] < fileOfUnit[d - 1]) return undefined;
      if (fileOfUnit[d] >= fileCount) return undefined;
      start[fileOfUnit[d] + 1]++;
    }
    for (let f = 0; f < fileCount; f++) start[f + 1] += start[f];
    return new FileBlocks(scorer, fileOfUnit, start);
  }

  /** The per-file runs of term `t`'s postings, with their largest gains. */
  private blocksOf(t: number): TermBlocks {
    let b = this.blocks.get(t);
    if (b) return b;
    const { doc } = this.scorer.index.postings(t);
    const gain = this.scorer.gainOf(t);
    const fileOf = this.fileOfUnit;
    let n = 0;
    for (let p = 0; p < doc.length; p++) if (p === 0 || fileOf[doc[p]] !== fileOf[doc[p - 1]]) n++;
    b = { file: new Uint32Array(n), start: new Uint32Array(n + 1), max: new Float64Array(n) };
    let i = -1;
    for (let p = 0; p < doc.length; p++) {
      const f = fileOf[doc[p]];
      if (i < 0 || f !== b.file[i]) {
        i++;
        b.file[i] = f;
        b.start[i] = p;
      }
      if (gain[p] > b.max[i]) b.max[i] = gain[p];
    }
    b.start[n] = doc.length;
    this.blocks.set(t, b);
    return b;
  }

  /**
   * Starts a query: its per-file bounds, and the postings each file holds. Only the last query
   * can be scored: a new one ends the one before.
   */
  query(query: QueryTerms): BlockQuery {
    const bound = new Float64Array(this.head.length);
    const { head, tail } = this;
    head.fill(-1);
    this.termW = [];
    this.termDoc = [];
    this.termGain = [];
    let runs = 0;
    const { termIds } = this.scorer.index;
    for (const [term, qw] of query) {
      const t = termIds.get(term);
      if (t === undefined || qw <= 0) continue;
      const w = qw * this.scorer.idf(t);
      const b = this.blocksOf(t);
      const k = this.termW.length;
      this.termW.push(w);
      this.termDoc.push(this.scorer.index.postings(t).doc);
      this.termGain.push(this.scorer.gainOf(t));
      if (runs + b.file.length > this.runTerm.length) this.grow(runs + b.file.length);
      for (let i = 0; i < b.file.length; i++) {
        const f = b.file[i];
        bound[f] += w * b.max[i];
        const r = runs++;
        this.runTerm[r] = k;
        this.runFrom[r] = b.start[i];
        this.runTo[r] = b.start[i + 1];
        this.runNext[r] = -1;
        if (head[f] < 0) head[f] = r;
        else this.runNext[tail[f]] = r;
        tail[f] = r;
      }
    }
    return new BlockQuery(this, ++this.queries, bound);
  }

  /**
   * The scores of file `f`'s documents for `query` (index i: its i-th document), as
   * `Bm25fScorer.scoreAll` gives them, in a new array: for a file asked for after the query (its
   * lines), whatever query ran since.
   */
  scoreFileAlone(query: QueryTerms, f: number): Float32Array {
    const from = this.fileStart[f];
    const out = new Float32Array(this.fileStart[f + 1] - from);
    const { termIds } = this.scorer.index;
    for (const [term, qw] of query) {
      const t = termIds.get(term);
      if (t === undefined || qw <= 0) continue;
      const b = this.blocksOf(t);
      // the term's run in file f: binary search of the runs' files (ascending)
      let lo = 0, hi = b.file.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (b.file[mid] < f) lo = mid + 1; else hi = mid - 1;
      }
      if (lo >= b.file.length || b.file[lo] !== f) continue;
      const w = qw * this.scorer.idf(t);
      const { doc } = this.scorer.index.postings(t);
      const gain = this.scorer.gainOf(t);
      for (let p = b.start[lo]; p < b.start[lo + 1]; p++) out[doc[p] - from] += w * gain[p];
    }
    return out;
  }

  private grow(n: number): void {
    const size = Math.max(n, 2 * this.runTerm.length);
    const grown = <T extends Int32Array | Uint32Array>(a: T, b: T): T => { b.set(a); return b; };
    this.runTerm = grown(this.runTerm, new Int32Array(size));
    this.runFrom = grown(this.runFrom, new Uint32Array(size));
    this.runTo = grown(this.runTo, new Uint32Array(size));
    this.runNext = grown(this.runNext, new Int32Array(size));
  }

  /** Whether query number `q` is the last one started. */
  isCurrent(q: number): boolean {
    return q === this.queries;
  }

  /** Scores the documents of file `f` for query number `q` (the last one) into {@link fn}, once. */
  score(f: number, q: number): void {
    if (this.scoredFor[f] === q) return;
    if (q !== this.queries) throw new Error('a query of FileBlocks scored after the next one started');
    this.scoredFor[f] = q;
    const fn = this.fn;
    fn.fill(0, this.fileStart[f], this.fileStart[f + 1]);
    // in query order, as Bm25fScorer.scoreAll adds them: the same float32 roundings
    for (let r = this.head[f]; r >= 0; r = this.runNext[r]) {
      const k = this.runTerm[r];
      const w = this.termW[k];
      const doc = this.termDoc[k];
      const gain = this.termGain[k];
      for (let p = this.runFrom[r], to = this.runTo[r]; p < to; p++) fn[doc[p]] += w * gain[p];
    }
  }
}

/**
 * One query over {@link FileBlocks}: `bound[f]` ≥ the BM25F+ score of every document of file f
 * (before float32 rounding: see {@link BOUND_SLACK}); {@link scoreFile} scores a file's documents.
 */
export class BlockQuery {
  constructor(private readonly blocks: FileBlocks, private readonly id: number, readonly bound: Float64Array) {}

  /** Scores file `f`'s documents (once): then `fn[d]` is document d's score, as `Bm25fScorer.scoreAll` gives it. */
  scoreFile(f: number): void {
    this.blocks.score(f, this.id);
  }

  get fn(): Float32Array {
    return this.blocks.fn;
  }

  /** The largest BM25F+ score of any document (0 when none matches; {@link maxByFiles}). */
  maxScore(): number {
    const fn = this.blocks.fn;
    const bound = new Float64Array(this.bound.length);
    for (let f = 0; f < bound.length; f++) bound[f] = this.bound[f] * BOUND_SLACK;
    return maxByFiles(bound, this.blocks.fileStart, (f) => this.scoreFile(f), (d) => fn[d]);
  }

  /**
   * The scores of file `f`'s documents (index i: its i-th document), as `Bm25fScorer.scoreAll`
   * gives them: a view of {@link fn} while this is the last query, else a new array.
   */
  scoresOfFile(query: QueryTerms, f: number): Float32Array {
    const { fileStart } = this.blocks;
    if (!this.blocks.isCurrent(this.id)) return this.blocks.scoreFileAlone(query, f);
    this.scoreFile(f);
    return this.blocks.fn.subarray(fileStart[f], fileStart[f + 1]);
  }
}

/**
 * Slack on a bound summed in float64 for scores summed in float32 (each addition rounded to a
 * relative 2⁻²⁴): far above the rounding of a few thousand additions, far below any gap that
 * would change which files are scored.
 */
export const BOUND_SLACK = 1 + 2 ** -12;

/**
 * The files by descending `bound`, as far as they are taken: a binary max-heap of the files with
 * a positive bound (made in O(files), each file taken in O(log files)); the ranking reads a few.
 */
export class FilesByBound {
  private readonly heap: Uint32Array;
  private size = 0;

  constructor(private readonly bound: Float64Array) {
    const heap = new Uint32Array(bound.length);
    let n = 0;
    for (let f = 0; f < bound.length; f++) if (bound[f] > 0) heap[n++] = f;
    this.heap = heap;
    this.size = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** The highest bound not taken yet (−Infinity: none left). */
  peek(): number {
    return this.size > 0 ? this.bound[this.heap[0]] : -Infinity;
  }

  /** Takes the file of the highest bound (call when {@link peek} is finite). */
  take(): number {
    const f = this.heap[0];
    this.heap[0] = this.heap[--this.size];
    this.down(0);
    return f;
  }

  private down(i: number): void {
    const { heap, bound } = this;
    const n = this.size;
    const x = heap[i];
    const b = bound[x];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const m = l + 1 < n && bound[heap[l + 1]] > bound[heap[l]] ? l + 1 : l;
      if (!(bound[heap[m]] > b)) break;
      heap[i] = heap[m];
      i = m;
    }
    heap[i] = x;
  }
}

/**
 * The largest `scoreOf` of any document (0 when none is positive): the files in the order of
 * `bound` (an upper bound of `scoreOf` over each file's documents), each scored
 * (`scoreFile`) until the next bound is below the best score found.
 */
export function maxByFiles(bound: Float64Array, fileStart: Uint32Array, scoreFile: (f: number) => void, scoreOf: (d: number) => number): number {
  let best = 0;
  const files = new FilesByBound(bound);
  while (files.peek() >= best) {
    const f = files.take();
    if (fileStart[f] === fileStart[f + 1]) continue;
    scoreFile(f);
    for (let d = fileStart[f]; d < fileStart[f + 1]; d++) {
      const s = scoreOf(d);
      if (s > best) best = s;
    }
  }
  return best;
}

/**
 * The documents in ranking order (score descending, then lower document first, as `topK` of
 * src/retrieve/bm25f.ts orders them), scores > 0 only, found file by file: the files in the
 * order of `bound` (an upper bound of `scoreOf` over each file's documents), a file scored
 * (`scoreFile`, then `scoreOf` of each of its documents) only when its bound reaches the best
 * document not yet given. Exact while the bounds hold: a document of a file not scored ranks
 * after every document given (a bound equal to the best score found is scored first, for the
 * tie's lower document).
 */
export function* rankByFiles(
  bound: Float64Array, fileStart: Uint32Array, scoreFile: (f: number) => void, scoreOf: (d: number) => number,
): Generator<Hit> {
  const files = new FilesByBound(bound);
  const heap = new DocHeap();
  for (;;) {
    while (files.peek() > -Infinity && (heap.size === 0 || files.peek() >= heap.topScore())) {
      const f = files.take();
      if (fileStart[f] === fileStart[f + 1]) continue;
      scoreFile(f);
      for (let d = fileStart[f]; d < fileStart[f + 1]; d++) {
        const s = scoreOf(d);
        if (s > 0) heap.push(d, s);
      }
    }
    if (heap.size === 0) return;
    yield heap.pop();
  }
}

/** A max-heap of scored documents: highest score first, at equal scores the lower document. */
class DocHeap {
  private doc = new Int32Array(64);
  private score = new Float64Array(64);
  size = 0;

  topScore(): number {
    return this.score[0];
  }

  private before(i: number, j: number): boolean {
    return this.score[i] > this.score[j] || (this.score[i] === this.score[j] && this.doc[i] < this.doc[j]);
  }

  private swap(i: number, j: number): void {
    const d = this.doc[i]; this.doc[i] = this.doc[j]; this.doc[j] = d;
    const s = this.score[i]; this.score[i] = this.score[j]; this.score[j] = s;
  }

  push(d: number, s: number): void {
    if (this.size === this.doc.length) {
      const doc = new Int32Array(2 * this.size); doc.set(this.doc); this.doc = doc;
      const score = new Float64Array(2 * this.size); score.set(this.score); this.score = score;
    }
    let i = this.size++;
    this.doc[i] = d; this.score[i] = s;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): Hit {
    const hit = { doc: this.doc[0], score: this.score[0] };
    const last = --this.size;
    this.doc[0] = this.doc[last]; this.score[0] = this.score[last];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= last) break;
      const m = l + 1 < last && this.before(l + 1, l) ? l + 1 : l;
      if (!this.before(m, i)) break;
      this.swap(i, m);
      i = m;
    }
    return hit;
  }
}
