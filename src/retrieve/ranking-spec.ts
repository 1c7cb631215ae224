/**
 * Ranking options written as text (command-line values such as `--weights path=3,name=3,body=1`
 * or `--signal-weights frameFile=0.2`), parsed into {@link RankingOptions}; each error names the
 * option as the user writes it.
 */
import { IssuelocError } from '../errors.js';
import { FIELDS } from '../index/code-index.js';
import { parseNumberOption } from '../util/number-option.js';
import type { Bm25fParams } from './bm25f.js';
import type { RankingOptions } from './localize.js';
import { DEFAULT_SIGNAL_WEIGHTS, type SignalWeights } from './signals.js';

/**
 * Ranking options from option values keyed by camel-case name (`filePrior`, `titleWeight`,
 * `signals` (false = none), `signalWeights`, `k1`, `b`, `delta`, `weights`); only those given.
 * @throws IssuelocError naming the option for a malformed value (exit 2).
 */
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

function num(v: unknown, name: string, min: number): number {
  return parseNumberOption(v, name, { min });
}
