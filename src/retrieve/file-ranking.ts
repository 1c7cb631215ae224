import type { HitCursor } from './bm25f.js';

/**
 * Ranking the function-level documents file by file. The documents of a file are consecutive
 * (corpus order: path, then line), so a file is a block of documents, and a bound of the scores
 * of each file orders the work: the files are taken in the order of their bounds, and a file's
 * documents are read only when its bound reaches the best document not yet given, as block-max
 * pruning takes blocks (Ding & Suel 2011, "Faster top-k document retrieval using block-max
 * indexes", SIGIR; the bounds per term of MaxScore, Turtle & Flood 1995, taken per block). A
 * reader of the head of the ranking (the roll-up's first files and modules, the model's
 * candidates) reads a few files instead of every document.
 */

/**
 * Per file, where its documents start: documents `start[f]` … `start[f + 1] − 1` are file f's;
 * undefined when `fileOfUnit` does not list the documents file by file (ascending).
 */
export function fileRanges(fileOfUnit: Uint32Array, fileCount: number): Uint32Array | undefined {
  const start = new Uint32Array(fileCount + 1);
  for (let d = 0; d < fileOfUnit.length; d++) {
    if ((d > 0 && fileOfUnit[d] < fileOfUnit[d - 1]) || fileOfUnit[d] >= fileCount) return undefined;
    start[fileOfUnit[d] + 1]++;
  }
  for (let f = 0; f < fileCount; f++) start[f + 1] += start[f];
  return start;
}

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
 * The documents in ranking order (score descending, then lower document first, as `topK` of
 * src/retrieve/bm25f.ts orders them), scores > 0 only, found file by file: the files in the
 * order of `bound` (an upper bound of `scoreOf` over each file's documents), a file's documents
 * scored only when its bound reaches the best document not yet given. Exact while the bounds
 * hold: a document of a file not scored ranks after every document given (a bound equal to the
 * best score found is scored first, for the tie's lower document). With `each` = `file`: the
 * files instead (`doc` a file, `score` its best document's), in the order of their best scores,
 * then lower file first; a file whose `bound` is its best score (`boundIsBest`, when given, not
 * 0) is not read. At most `depth` hits are given (the work for the one after is never done).
 */
export function rankByFiles(
  bound: Float64Array, fileStart: Uint32Array, scoreOf: (d: number) => number, each: 'document' | 'file' = 'document', boundIsBest?: Uint8Array,
  depth = Infinity,
): HitCursor {
  return new FileRankedHits(bound, fileStart, scoreOf, each === 'file', boundIsBest, depth);
}

/** The cursor of {@link rankByFiles}. */
class FileRankedHits implements HitCursor {
  doc = -1;
  score = 0;
  private readonly files: FilesByBound;
  private readonly heap = new DocHeap();

  constructor(
    private readonly bound: Float64Array, private readonly fileStart: Uint32Array, private readonly scoreOf: (d: number) => number,
    private readonly byFile: boolean, private readonly boundIsBest: Uint8Array | undefined, private left: number,
  ) {
    this.files = new FilesByBound(bound);
  }

  next(): boolean {
    if (!(this.left > 0)) return false;
    const { files, heap, fileStart, scoreOf } = this;
    while (files.peek() > -Infinity && (heap.size === 0 || files.peek() >= heap.topScore())) {
      const f = files.take();
      if (this.byFile && this.boundIsBest?.[f]) {
        heap.push(f, this.bound[f]);
        continue;
      }
      let best = 0;
      for (let d = fileStart[f]; d < fileStart[f + 1]; d++) {
        const s = scoreOf(d);
        if (this.byFile) best = s > best ? s : best;
        else if (s > 0) heap.push(d, s);
      }
      if (best > 0) heap.push(f, best);
    }
    if (heap.size === 0) return false;
    this.doc = heap.topDoc();
    this.score = heap.topScore();
    heap.removeTop();
    this.left--;
    return true;
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

  topDoc(): number {
    return this.doc[0];
  }

  /** Removes the best document (call when {@link size} is above 0). */
  removeTop(): void {
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
  }
}
