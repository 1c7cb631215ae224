/**
 * Dense slots for the keys of one list at a time: keys are small non-negative integers (document
 * or id numbers below a bound known in advance), each new key of the list takes the next slot
 * (0, 1, 2 … in order of first sight). The table is one typed array reused list after list:
 * starting a new list is O(1) (a generation number), so a query pays for its own keys only, not
 * for a Map keyed by them.
 */
export class DenseSlots {
  /** Per key, the generation that last gave it a slot, and that slot. */
  private readonly generationOf: Uint32Array;
  private readonly slotOf: Int32Array;
  private generation = 1;
  /** Slots given in the current list. */
  size = 0;

  /** @param bound every key is below it. */
  constructor(readonly bound: number) {
    this.generationOf = new Uint32Array(bound);
    this.slotOf = new Int32Array(bound);
  }

  /** Starts a new list: no key has a slot. */
  clear(): this {
    if (++this.generation === 0xffffffff) {
      this.generationOf.fill(0);
      this.generation = 1;
    }
    this.size = 0;
    return this;
  }

  /** The slot of `key` (its value when given by {@link mark}; −1: none in this list). */
  get(key: number): number {
    return this.generationOf[key] === this.generation ? this.slotOf[key] : -1;
  }

  /**
   * Gives `key` the value `value` (a place, a rank: any int32) unless it has one in this list;
   * true when it had none. {@link get} then reads that value.
   */
  mark(key: number, value: number): boolean {
    if (this.generationOf[key] === this.generation) return false;
    this.generationOf[key] = this.generation;
    this.slotOf[key] = value;
    this.size++;
    return true;
  }

  /** The slot of `key`, the next free one when it has none yet. */
  add(key: number): number {
    if (this.generationOf[key] === this.generation) return this.slotOf[key];
    this.generationOf[key] = this.generation;
    return (this.slotOf[key] = this.size++);
  }
}
