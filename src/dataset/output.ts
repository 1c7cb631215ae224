/**
 * Writing a built dataset: the records as JSONL at the output path, and beside it
 * `<name>.dropped.jsonl` (one dropped issue a line, with its reason) and `<name>.meta.json`
 * (counts, settings). Every file is written atomically (temporary file + rename), the records
 * last, and only after the whole build succeeded; a failed build leaves earlier files untouched.
 */
import { writeFileAtomic } from '../util/atomic-write.js';
import type { BuildResult } from './build.js';

/** The sidecar paths of a dataset file: `x.jsonl` → `x.dropped.jsonl`, `x.meta.json`. */
export function sidecarPaths(out: string): { dropped: string; meta: string } {
  const base = out.replace(/\.jsonl$/i, '');
  return { dropped: `${base}.dropped.jsonl`, meta: `${base}.meta.json` };
}

/** JSONL text of a list of values (one per line, final newline; empty list → empty text). */
export function toJsonl(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join('\n') + (values.length > 0 ? '\n' : '');
}

/**
 * Writes a build's records, dropped issues and meta.
 *
 * @throws the fs error of a failed write (the file it was writing is left as it was).
 */
export function writeDataset(out: string, result: BuildResult): void {
  writeDatasetFiles(out, result.records, result.dropped, result.meta);
}

/**
 * Writes any dataset (mined or imported): `records` to `out`, `dropped` to `<name>.dropped.jsonl`,
 * `meta` to `<name>.meta.json`, each atomically, the records last.
 *
 * @throws the fs error of a failed write (the file it was writing is left as it was).
 */
export function writeDatasetFiles(out: string, records: readonly unknown[], dropped: readonly unknown[], meta: unknown): void {
  const side = sidecarPaths(out);
  const text = toJsonl(records);
  writeFileAtomic(side.dropped, [toJsonl(dropped)]);
  writeFileAtomic(side.meta, [`${JSON.stringify(meta, null, 2)}\n`]);
  writeFileAtomic(out, [text]);
}
