/**
 * Puts the outcomes of several worker threads back in work order: each thread evaluates a
 * contiguous slice of the issues and posts outcomes as it finishes them, so they arrive
 * interleaved; the run's rows and run files must be written in work order (the bytes one thread
 * writes), whatever the threads' speeds.
 *
 * An outcome that arrives before its turn waits with its rankings packed (file paths interned,
 * ids and scores in typed arrays: about 12 bytes per ranked file instead of an object each), since
 * a later slice can finish long before an earlier one.
 */
import type { IssueOutcome, RetrieverOutcome } from './issue-evaluator.js';

interface PackedResult extends Omit<RetrieverOutcome, 'ranking'> {
  readonly ids: Uint32Array;
  readonly scores: Float64Array;
}

interface PackedOutcome extends Omit<IssueOutcome, 'results'> {
  readonly results: readonly PackedResult[];
}

/**
 * A function taking outcomes in any order, with their position in the work order, and calling
 * `emit` with each in work order (0, 1, 2 …) as soon as those before it were emitted.
 * @param emit receives every outcome once, in work order.
 * @returns `add(position, outcome)`; positions are 0-based and each is added once.
 * @throws Error from `add` for a position added twice or already emitted (a bug of the caller).
 */
export function inWorkOrder(emit: (o: IssueOutcome) => void): (position: number, outcome: IssueOutcome) => void {
  let next = 0;
  const waiting = new Map<number, PackedOutcome>();
  const pathIds = new Map<string, number>();
  const paths: string[] = [];
  const intern = (p: string): number => {
    let id = pathIds.get(p);
    if (id === undefined) {
      id = paths.length;
      pathIds.set(p, id);
      paths.push(p);
    }
    return id;
  };
  const pack = (o: IssueOutcome): PackedOutcome => ({
    ...o,
    results: o.results.map(({ ranking, ...r }) => ({
      ...r, ids: Uint32Array.from(ranking, (x) => intern(x.id)), scores: Float64Array.from(ranking, (x) => x.score),
    })),
  });
  const unpack = (o: PackedOutcome): IssueOutcome => ({
    ...o,
    results: o.results.map(({ ids, scores, ...r }) => ({ ...r, ranking: Array.from(ids, (id, i) => ({ id: paths[id], score: scores[i] })) })),
  });
  return (position, outcome) => {
    if (position < next || waiting.has(position)) throw new Error(`outcome at work position ${position} added twice`);
    if (position > next) {
      waiting.set(position, pack(outcome));
      return;
    }
    emit(outcome);
    next++;
    for (let w = waiting.get(next); w !== undefined; w = waiting.get(next)) {
      waiting.delete(next);
      emit(unpack(w));
      next++;
    }
  };
}
