/**
 * Temporal 50/50 split of issues by the date of their first linked commit ("file localisation from
 * issues at large", §3.6): the earlier half is the validation split (used to choose
 * preprocessing), the later half the test split (used for reporting).
 *
 * Order: by first-commit time, ties broken by issue id in natural order (`MNG-9` before
 * `MNG-10`), so the split does not depend on input order. Sizes: validation gets ⌈n/2⌉, test
 * ⌊n/2⌋, as the paper's replication package (`split(..., 50, 50)` / `_split_bin`) does.
 */
import { IssuelocError } from '../errors.js';

/** A time: a Date, Unix seconds (number or all-digit string, as git `%ct`), or an ISO 8601 / RFC 2822 string. */
export type TimeLike = Date | number | string;

/** Result of {@link temporalSplit}. */
export interface TemporalSplit<T> {
  /** Earlier half (⌈n/2⌉ items), oldest first. */
  readonly validation: T[];
  /** Later half (⌊n/2⌋ items), oldest first. */
  readonly test: T[];
  /** Time (ms since epoch) of the last validation and the first test item. */
  readonly boundary: { readonly lastValidationMs: number; readonly firstTestMs: number };
  /** Items in the test half whose first-commit time equals the last validation time (split only by id). */
  readonly tiesAcrossBoundary: number;
}

/**
 * Milliseconds since the epoch of a {@link TimeLike}.
 * @throws IssuelocError naming `what` when the value is not a valid time.
 */
export function toEpochMs(t: TimeLike, what: string): number {
  let ms: number;
  if (t instanceof Date) ms = t.getTime();
  else if (typeof t === 'number') ms = t * 1000;
  else if (/^\s*-?\d+\s*$/.test(t)) ms = Number(t) * 1000;
  else ms = Date.parse(t);
  if (!Number.isFinite(ms)) throw new IssuelocError(`${what}: '${String(t)}' is not a valid time`);
  return ms;
}

/** Natural order of ids: digit runs compare as numbers, the rest by code unit. */
export function compareIdsNatural(a: string, b: string): number {
  const ra = a.match(/\d+|\D+/g) ?? [];
  const rb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
    const x = ra[i];
    const y = rb[i];
    if (x === y) continue;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const nx = x.replace(/^0+(?=\d)/, '');
      const ny = y.replace(/^0+(?=\d)/, '');
      if (nx.length !== ny.length) return nx.length - ny.length;
      if (nx !== ny) return nx < ny ? -1 : 1;
      return x.length - y.length; // same number, fewer leading zeros first
    }
    return x < y ? -1 : 1;
  }
  return ra.length - rb.length;
}

/**
 * Splits issues 50/50 in time (see module doc).
 * @param items issues (any record type).
 * @param idOf the id (unique).
 * @param firstCommitOf time of the first linked commit.
 * @throws IssuelocError when fewer than 2 issues are given (a split would be empty), when an id
 *   repeats, or when a time is invalid.
 */
export function temporalSplit<T>(
  items: readonly T[], idOf: (item: T) => string, firstCommitOf: (item: T) => TimeLike,
): TemporalSplit<T> {
  if (items.length < 2) {
    throw new IssuelocError(
      `temporal split needs at least 2 issues, got ${items.length}: the ${items.length === 0 ? 'validation and test splits' : 'test split'} would be empty`);
  }
  const seen = new Set<string>();
  const keyed = items.map((item) => {
    const id = idOf(item);
    if (seen.has(id)) throw new IssuelocError(`temporal split: issue id '${id}' appears twice`);
    seen.add(id);
    return { item, id, ms: toEpochMs(firstCommitOf(item), `first commit of issue ${id}`) };
  });
  keyed.sort((a, b) => (a.ms - b.ms) || compareIdsNatural(a.id, b.id));
  const nValidation = Math.ceil(keyed.length / 2);
  const lastValidationMs = keyed[nValidation - 1].ms;
  const testPart = keyed.slice(nValidation);
  return {
    validation: keyed.slice(0, nValidation).map((k) => k.item),
    test: testPart.map((k) => k.item),
    boundary: { lastValidationMs, firstTestMs: testPart[0].ms },
    tiesAcrossBoundary: testPart.filter((k) => k.ms === lastValidationMs).length,
  };
}

/**
 * Picks one half of a split by name.
 * @throws IssuelocError for a name other than `validation`, `test` or `all`, or when the chosen
 *   half is empty.
 */
export function pickSplit<T>(split: TemporalSplit<T>, name: string): T[] {
  let out: T[];
  if (name === 'validation') out = split.validation;
  else if (name === 'test') out = split.test;
  else if (name === 'all') out = [...split.validation, ...split.test];
  else throw new IssuelocError(`unknown split '${name}' (expected validation, test or all)`);
  if (out.length === 0) throw new IssuelocError(`the ${name} split is empty`);
  return out;
}
