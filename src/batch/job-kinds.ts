/**
 * The work of the dataset, index and localize jobs (eval jobs: eval-shards.ts), through the same
 * entry points the `issueloc` commands use. Each writes `result.jsonl` (one JSON value a line: what `batch collect` joins) into the folder it
 * is given, and only deterministic content there: timings go to the job's `job.json`.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../errors.js';
import { buildDataset } from '../dataset/build.js';
import { addFunctionLevel } from '../dataset/build-functions.js';
import { githubPattern, jiraPattern, type LinkPattern } from '../dataset/links.js';
import { toJsonl, writeDataset } from '../dataset/output.js';
import type { Variant } from '../dataset/variants.js';
import { openIndex } from '../index/open-index.js';
import { readIssues } from '../issues/read.js';
import { levelsOf, plural } from '../pipeline/result-json.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { RESULT_FILE } from './result-file.js';
import { MAX_ISSUE_FILE_BYTES, parseIssueLine } from './issue-line.js';
import type { DatasetJob, IndexJob, LocalizeJob } from './job-spec.js';
import { withLocalizer } from './warm-localizer.js';

/** `dataset build`: result.jsonl holds the records; result.dropped.jsonl and result.meta.json beside. */
export async function runDatasetJob(spec: DatasetJob, dir: string): Promise<void> {
  const read = readIssues(spec.issues);
  const patterns: LinkPattern[] = [];
  if (spec.keys.length > 0) patterns.push(jiraPattern(spec.keys));
  if (spec.github) patterns.push(githubPattern());
  if (patterns.length === 0 && !read.issues.some((i) => i.fixCommits)) {
    throw new IssuelocError(`no way to link issues of ${spec.issues}: give keys or github`);
  }
  const built = await buildDataset({
    repo: spec.repo, issues: read.issues, issuesFile: spec.issues, invalidIssueRecords: read.invalid.length,
    revs: spec.revs, patterns, variant: spec.variant as Variant,
  });
  const result = await addFunctionLevel(built, { functions: spec.functions, onlyWithTests: false });
  writeDataset(join(dir, RESULT_FILE), result);
}

/** `index`: result.jsonl is one line, what was indexed (no timings, no cache state). */
export async function runIndexJob(spec: IndexJob, dir: string): Promise<void> {
  const opened = await openIndex(spec.repo, { rev: spec.commit, cacheDir: spec.cacheDir, settings: spec.settings });
  await opened.repo.close();
  const { stats } = opened.codeIndex;
  writeFileAtomic(join(dir, RESULT_FILE), [toJsonl([{ repo: spec.repo, commit: opened.commit, files: stats.files, documents: stats.units, skipped: stats.skipped }])]);
}

/**
 * `localize`: result.jsonl has one line per issue of the shard, in file order:
 * `{ line, id, commit, files, modules, functions }` (only the job's `level`; scores to 6 significant digits, as `localize --json`).
 * On a pool thread the localizer stays open for the thread's next job of the same repository,
 * cache folder and model (src/batch/warm-localizer.ts).
 * @returns whether the localizer was already open (warm).
 * @throws IssuelocError naming `file:line` for a line that is not a JSON object with a text.
 */
export async function runLocalizeJob(spec: LocalizeJob, dir: string): Promise<{ warm: boolean }> {
  if (statSync(spec.issues).size > MAX_ISSUE_FILE_BYTES) throw new IssuelocError(`${spec.issues}: over ${MAX_ISSUE_FILE_BYTES} bytes`);
  const text = readFileSync(spec.issues, 'utf8');
  const lines = text.split('\n');
  const levels = new Set(levelsOf(spec.level ?? 'all').map(plural));
  const { value: out, warm } = await withLocalizer(spec, async (localizer) => {
    const out: unknown[] = [];
    let n = -1;
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() === '') continue;
      n++;
      if (n % spec.shards !== spec.shard) continue;
      const line = parseIssueLine(lines[i], `${spec.issues}:${i + 1}`);
      const issueText = typeof line.text === 'string' ? line.text : `${String(line.title ?? '')}\n${String(line.body ?? '')}`;
      const r = await localizer.localize(issueText, { top: spec.top, rev: typeof line.rev === 'string' ? line.rev : spec.commit });
      const round = <T extends { score: number }>(items: T[]) => items.map((it) => ({ ...it, score: Number(it.score.toPrecision(6)) }));
      const ranked = { files: round(r.files), modules: round(r.modules), functions: round(r.functions) };
      out.push({ line: i + 1, id: line.id ?? null, commit: r.commit, ...Object.fromEntries(Object.entries(ranked).filter(([k]) => levels.has(k as 'files'))) });
    }
    return out;
  });
  writeFileAtomic(join(dir, RESULT_FILE), [toJsonl(out)]);
  return { warm };
}
