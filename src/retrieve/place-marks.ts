/**
 * Marks over the numbers 0 … size − 1 (documents, files) for one query at a time, each with the
 * place it was first marked at: a stamp per number, so that starting the next query costs O(1),
 * not a fill, and a query's de-duplication reads typed arrays instead of hashing strings.
 */
export class PlaceMarks {
  private readonly stamp: Uint32Array;
  private readonly place: Int32Array;
  private query = 0;

  constructor(size: number) {
    this.stamp = new Uint32Array(size);
    this.place = new Int32Array(size);
  }

  /** Forgets every mark (call before each query). */
  clear(): void {
    if (++this.query === 0xffffffff) {
      this.stamp.fill(0);
      this.query = 1;
    }
  }

  /** Marks `k` at `place` unless it is marked; true when it was not. */
  mark(k: number, place: number): boolean {
    if (this.stamp[k] === this.query) return false;
    this.stamp[k] = this.query;
    this.place[k] = place;
    return true;
  }

  /** The place `k` was marked at (−1: not marked since {@link clear}). */
  placeOf(k: number): number {
    return this.stamp[k] === this.query ? this.place[k] : -1;
  }
}
