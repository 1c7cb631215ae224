/**
 * `batch collect`: one output from the finished jobs of a batch, the `result.jsonl` of each job
 * joined in enqueue order (a dataset's records, index summaries; the rankings of localize shards
 * in the order of the issue file), written atomically. Eval shards are merged per dataset into
 * the results folder `issueloc eval` writes (eval-shards.ts), beside the output, and the output
 * holds their metric lines. Refuses while a job has no result, unless `partial`; then the
 * missing jobs are listed in `<out>.missing.jsonl`.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { jobLabel, type JobKind } from './job-spec.js';
import { evalFolderPath, mergeEvalShards } from './eval-shards.js';
import { RESULT_FILE } from './result-file.js';
import { isDone, readManifest, resultDir } from './results-folder.js';

/** What {@link collectResults} wrote (for eval jobs also `resultsFolder`: the merged `issueloc eval` results folders). */
export interface Collected { kind: JobKind; jobs: number; collected: number; lines: number; missing: { id: string; label: string }[]; missingFile?: string; resultsFolder?: string }

/** The missing-jobs file beside an output: `x.jsonl` → `x.missing.jsonl`. */
export function missingPath(out: string): string {
  return `${out.replace(/\.jsonl$/i, '')}.missing.jsonl`;
}

/**
 * Joins the results of the batch in `results` into `out`.
 * @param opts.kind which jobs, when the batch holds several kinds.
 * @throws IssuelocError (exit 2) for an empty batch or mixed kinds without `kind`; (exit 1)
 *   when jobs are missing and `partial` is not set (nothing is written then).
 */
export function collectResults(results: string, out: string, opts: { partial?: boolean; kind?: JobKind } = {}): Collected {
  const all = readManifest(results);
  if (all.length === 0) throw new IssuelocError(`${results}: no batch here (no batch.json; run issueloc batch enqueue first)`);
  const kinds = [...new Set(all.map((j) => j.spec.kind))];
  if (!opts.kind && kinds.length > 1) throw new IssuelocError(`${results} holds ${kinds.join(', ')} jobs: pick one with --kind`);
  const kind = opts.kind ?? kinds[0];
  const jobs = all.filter((j) => j.spec.kind === kind);
  if (jobs.length === 0) throw new IssuelocError(`${results}: no ${kind} jobs`);
  const missing = jobs.filter((j) => !isDone(results, j.id)).map((j) => ({ id: j.id, label: jobLabel(j.spec) }));
  if (missing.length > 0 && !opts.partial) {
    const some = missing.slice(0, 3).map((m) => m.label).join('; ');
    throw new IssuelocError(`${missing.length} of ${jobs.length} ${kind} jobs have no result yet (${some}${missing.length > 3 ? '; …' : ''}); issueloc batch status shows why, --partial collects the others`, 1);
  }
  const parts: string[] = [];
  const folder = kind === 'eval' ? evalFolderPath(out) : undefined;
  if (folder) parts.push(mergeEvalShards(results, jobs, folder));
  else {
    for (const j of jobs) {
      if (!isDone(results, j.id)) continue;
      const path = join(resultDir(results, j.id), RESULT_FILE);
      parts.push(existsSync(path) ? readFileSync(path, 'utf8') : '');
    }
  }
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
