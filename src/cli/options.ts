import { Command } from 'commander';
import { IssuelocError } from '../errors.js';
import { DEFAULT_INDEX_SETTINGS, FIELDS, type IndexSettings } from '../index/code-index.js';
import type { Bm25fParams } from '../retrieve/bm25f.js';
import type { RankingOptions } from '../retrieve/localize.js';
import { DEFAULT_SIGNAL_WEIGHTS, type SignalWeights } from '../retrieve/signals.js';
import { DEFAULT_TITLE_WEIGHT } from '../retrieve/query.js';
import { LANGUAGE_BY_EXTENSION, type Language } from '../corpus/languages.js';

/** Adds the options that decide what is indexed (shared by `index` and `localize`). */
export function indexOptions(cmd: Command): Command {
  return cmd
    .option('--cache-dir <path>', 'cache folder (default: ISSUELOC_CACHE_DIR, else ~/.cache/issueloc/<name>-<hash>, outside the work tree)')
    .option('--cache-max-size <size>', 'size cap of the cache folder, least recently used entries removed after a build (default: ISSUELOC_CACHE_MAX_SIZE, else 2G)')
    .option('--include-tests', 'index test files too')
    .option('--languages <list>', 'index only these languages, e.g. python,java (default: all)')
    .option('--stem', 'Porter-stem tokens')
    .option('--max-file-bytes <n>', `skip files larger than this (default ${DEFAULT_INDEX_SETTINGS.maxFileBytes})`)
    .option('--max-body-words <n>', `words of each function kept (default ${DEFAULT_INDEX_SETTINGS.maxBodyWords})`);
}

/** Index settings from parsed options. */
export function parseIndexSettings(o: Record<string, unknown>): Partial<IndexSettings> {
  const s: Partial<IndexSettings> = {};
  if (o.includeTests) s.includeTests = true;
  if (o.stem) s.stem = true;
  if (o.languages !== undefined) {
    s.languages = String(o.languages).split(',').map((l) => l.trim().toLowerCase()).filter(Boolean);
    if (s.languages.length === 0) throw new IssuelocError('--languages: no language given (e.g. python,java)');
    const known = new Set(Object.values(LANGUAGE_BY_EXTENSION));
    const unknown = s.languages.filter((l) => !known.has(l as Language));
    if (unknown.length > 0) throw new IssuelocError(`--languages: unknown language ${unknown.join(', ')} (known: ${[...known].sort().join(', ')})`);
  }
  if (o.maxFileBytes !== undefined) s.maxFileBytes = parseNumberOption(o.maxFileBytes, '--max-file-bytes', { min: 1, whole: true });
  if (o.maxBodyWords !== undefined) s.maxBodyWords = parseNumberOption(o.maxBodyWords, '--max-body-words', { min: 0, whole: true });
  return s;
}

/** Adds the ranking options: BM25F+ parameters and the weights of the other evidence. */
export function rankingOptions(cmd: Command): Command {
  return cmd
    .option('--file-prior <x>', 'weight of the whole-file score added to each function (0 = none)')
    .option('--title-weight <x>', `extra query weight of each word of the issue's title, its first line (default ${DEFAULT_TITLE_WEIGHT})`)
    .option('--no-signals', 'ignore stack frames, paths and names written in the issue')
    .option('--signal-weights <list>', 'weights of the issue-text signals, e.g. frameFile=0.2,namedFunction=0.1')
    .option('--k1 <x>', 'BM25 term-frequency saturation k1')
    .option('--b <x>', 'BM25 length normalisation b (0..1)')
    .option('--delta <x>', 'BM25+ lower bound δ (0 = plain BM25F)')
    .option('--weights <list>', `field weights as ${FIELDS.map((f) => `${f}=W`).join(',')}`);
}

/** Ranking options from parsed options (only those given). */
export function parseRankingOptions(o: Record<string, unknown>): RankingOptions {
  const r: RankingOptions = { bm25: parseBm25Options(o) };
  if (o.filePrior !== undefined) r.filePrior = num(o.filePrior, '--file-prior', 0);
  if (o.titleWeight !== undefined) r.titleWeight = num(o.titleWeight, '--title-weight', 0);
  if (o.signals === false) r.signals = false;
  else if (o.signalWeights !== undefined) r.signals = parseSignalWeights(String(o.signalWeights));
  return r;
}

/** `frameFile=0.2,namedFunction=0.1` → the named signal weights. */
export function parseSignalWeights(spec: string): Partial<SignalWeights> {
  const w: Partial<SignalWeights> = {};
  const names = Object.keys(DEFAULT_SIGNAL_WEIGHTS);
  for (const part of spec.split(',').filter(Boolean)) {
    const [name, value] = part.split('=');
    if (!names.includes(name?.trim())) throw new IssuelocError(`--signal-weights: unknown signal '${name}' (signals: ${names.join(', ')})`);
    w[name.trim() as keyof SignalWeights] = num(value, `--signal-weights ${name}`, 0);
  }
  return w;
}

/** BM25F+ parameters from parsed options (only those given). */
export function parseBm25Options(o: Record<string, unknown>): Partial<Bm25fParams> {
  const p: Partial<Bm25fParams> = {};
  if (o.k1 !== undefined) p.k1 = num(o.k1, '--k1', 0);
  if (o.b !== undefined) {
    p.b = parseNumberOption(o.b, '--b', { min: 0, max: 1 });
  }
  if (o.delta !== undefined) p.delta = num(o.delta, '--delta', 0);
  if (o.weights !== undefined) p.weights = parseWeights(String(o.weights));
  return p;
}

/** `path=3,name=3,body=1` → weights in FIELDS order (unnamed fields keep weight 1). */
export function parseWeights(spec: string): number[] {
  const w = FIELDS.map(() => 1);
  for (const part of spec.split(',').filter(Boolean)) {
    const [name, value] = part.split('=');
    const i = (FIELDS as readonly string[]).indexOf(name?.trim());
    if (i < 0) throw new IssuelocError(`--weights: unknown field '${name}' (fields: ${FIELDS.join(', ')})`);
    w[i] = num(value, `--weights ${name}`, 0);
  }
  return w;
}

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

/** A commander argument parser of a whole-number option (see {@link parseNumberOption}). */
export function wholeOption(name: string, min: number, max?: number): (v: string) => number {
  return (v) => parseNumberOption(v, name, { min, max, whole: true });
}

function num(v: unknown, name: string, min: number): number {
  return parseNumberOption(v, name, { min });
}
