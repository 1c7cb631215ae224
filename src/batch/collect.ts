/**
 * `batch collect`: one output from the finished jobs of a batch, the `result.jsonl` of each job
 * joined in enqueue order (a dataset's records, index summaries; the rankings of localize shards
 * in the order of the issue file), written atomically. Eval shards are merged per dataset into
 * the results folder `issueloc eval` writes (eval-shards.ts), beside the output, and the output
 * holds their metric lines. Every result is checked against the checksums its job recorded
 * (result-check.ts): a job whose result is gone, truncated or changed counts as missing. Refuses
 * while a job is missing, unless `partial`; then the missing jobs are listed in
 * `<out>.missing.jsonl` with the reason.
 */
import { rmSync } from 'node:fs';
import { IssuelocError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { jobLabel, type JobKind } from './job-spec.js';
import { evalFolderPath, mergeEvalShards } from './eval-shards.js';
import { RESULT_FILE } from './result-file.js';
import { checkResult } from './result-check.js';
import { readManifest } from './results-folder.js';

/** A job without a usable result, and why (`no result`, or what is wrong with it). */
export interface MissingJob { id: string; label: string; reason: string }

/** What {@link collectResults} wrote (for eval jobs also `resultsFolder`: the merged `issueloc eval` results folders). */
export interface Collected { kind: JobKind; jobs: number; collected: number; lines: number; missing: MissingJob[]; missingFile?: string; resultsFolder?: string }

/** The missing-jobs file beside an output: `x.jsonl` → `x.missing.jsonl`. */
export function missingPath(out: string): string {
  return `${out.replace(/\.jsonl$/i, '')}.missing.jsonl`;
}

/**
 * Joins the results of the batch in `results` into `out`.
 * @param opts.kind which jobs, when the batch holds several kinds.
 * @throws IssuelocError (exit 2) for an empty batch or mixed kinds without `kind`; (exit 1)
 *   when jobs are missing (no result, or one that fails its checksums) and `partial` is not set
 *   (nothing is written then), naming each such job's id and reason.
 */
export function collectResults(results: string, out: string, opts: { partial?: boolean; kind?: JobKind } = {}): Collected {
  const all = readManifest(results);
  if (all.length === 0) throw new IssuelocError(`${results}: no batch here (no batch.json; run issueloc batch enqueue first)`);
  const kinds = [...new Set(all.map((j) => j.spec.kind))];
  if (!opts.kind && kinds.length > 1) throw new IssuelocError(`${results} holds ${kinds.join(', ')} jobs: pick one with --kind`);
  const kind = opts.kind ?? kinds[0];
  const jobs = all.filter((j) => j.spec.kind === kind);
  if (jobs.length === 0) throw new IssuelocError(`${results}: no ${kind} jobs`);
  const good = new Map<string, Map<string, Buffer>>();
  const missing: MissingJob[] = [];
  for (const j of jobs) {
    const c = checkResult(results, j.id);
    if (c.ok && (kind === 'eval' || c.files.has(RESULT_FILE))) good.set(j.id, c.files);
    else missing.push({ id: j.id, label: jobLabel(j.spec), reason: c.ok ? `its job.json records no ${RESULT_FILE}` : c.reason });
  }
  if (missing.length > 0 && !opts.partial) {
    const some = missing.slice(0, 3).map((m) => `${m.label} (${m.id}): ${m.reason}`).join('; ');
    throw new IssuelocError(`${missing.length} of ${jobs.length} ${kind} jobs have no usable result: ${some}${missing.length > 3 ? '; …' : ''}; issueloc batch status shows why, --partial collects the others`, 1);
  }
  const parts: string[] = [];
  const folder = kind === 'eval' ? evalFolderPath(out) : undefined;
  if (folder) parts.push(mergeEvalShards(results, jobs, folder, (id) => good.has(id)));
  else for (const j of jobs) parts.push(good.get(j.id)?.get(RESULT_FILE)?.toString('utf8') ?? '');
  const lines = parts.reduce((n, text) => n + (text === '' ? 0 : text.split('\n').length - 1), 0);
  writeFileAtomic(out, kind === 'localize' ? [byIssueLine(parts)] : parts);
  const mp = missingPath(out);
  if (missing.length > 0) writeFileAtomic(mp, missing.map((m) => `${JSON.stringify(m)}\n`));
  else rmSync(mp, { force: true });
  return { kind, jobs: jobs.length, collected: jobs.length - missing.length, lines, missing, ...(missing.length > 0 ? { missingFile: mp } : {}), ...(folder ? { resultsFolder: folder } : {}) };
}

/** The rankings of localize shards back in the order of the issue file (their `line`). */
function byIssueLine(parts: readonly string[]): string {
  const rows = parts.flatMap((p) => p.split('\n').filter((l) => l !== '')).map((l) => ({ l, n: (JSON.parse(l) as { line: number }).line }));
  rows.sort((a, b) => a.n - b.n);
  return rows.map((r) => `${r.l}\n`).join('');
}
