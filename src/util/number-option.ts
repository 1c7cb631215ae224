import { IssuelocError } from '../errors.js';

/** Bounds of a numeric option (see {@link parseNumberOption}). */
export interface NumberBounds {
  /** Smallest value allowed (default: no bound). */
  min?: number;
  /** Largest value allowed (default: no bound; whole numbers: Number.MAX_SAFE_INTEGER). */
  max?: number;
  /** `min` itself is not allowed (a value must be above it). */
  aboveMin?: boolean;
  /** Only whole numbers. */
  whole?: boolean;
}

/**
 * The one parser of numeric option values of every command: a finite number (a whole one with
 * `whole`) within the bounds. Empty text, NaN, infinities, fractions where whole numbers are
 * asked for and values out of range are refused, so nothing downstream sees a NaN, a negative
 * count or a size no array can have.
 *
 * @param name the option as the user writes it (`--top`), for the message.
 * @throws IssuelocError `--top takes a positive whole number, got 'ten'` (exit 2).
 */
export function parseNumberOption(v: unknown, name: string, bounds: NumberBounds = {}): number {
  const { whole = false, aboveMin = false } = bounds;
  const min = bounds.min ?? Number.NEGATIVE_INFINITY;
  const max = bounds.max ?? (whole ? Number.MAX_SAFE_INTEGER : Number.POSITIVE_INFINITY);
  const raw = String(v).trim();
  const n = raw === '' ? Number.NaN : Number(raw);
  const ok = Number.isFinite(n) && (aboveMin ? n > min : n >= min) && n <= max && (!whole || Number.isInteger(n));
  if (!ok) {
    const tooBig = Number.isFinite(n) && n > max && bounds.max === undefined;
    throw new IssuelocError(`${name} takes ${describeBounds(min, max, aboveMin, whole)}${tooBig ? ` up to ${max}` : ''}, got '${String(v)}'`);
  }
  return n;
}

/** `a positive whole number`, `a number from 0 to 1`, `a whole number ≥ 2`, … */
function describeBounds(min: number, max: number, aboveMin: boolean, whole: boolean): string {
  const kind = whole ? 'whole number' : 'number';
  const unbounded = max === Number.POSITIVE_INFINITY || (whole && max === Number.MAX_SAFE_INTEGER);
  if (unbounded && ((min === 0 && aboveMin) || (whole && min === 1 && !aboveMin))) return `a positive ${kind}`;
  if (unbounded) return min === Number.NEGATIVE_INFINITY ? `a ${kind}` : `a ${kind} ${aboveMin ? '>' : '≥'} ${min}`;
  if (min === Number.NEGATIVE_INFINITY) return `a ${kind} ≤ ${max}`;
  return aboveMin ? `a ${kind} > ${min} and ≤ ${max}` : `a ${kind} from ${min} to ${max}`;
}
