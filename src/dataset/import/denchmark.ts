/**
 * Denchmark (Kim et al., MSR 2021; github RosePasta/Denchmark_BRs): bug reports of deep-learning
 * projects with their fixing commit, changed files and, per hunk, the enclosing method →
 * dataset records. Read from the `JSonSet/simplejson/<owner+repo>/<issue>.json` folder.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../../errors.js';
import type { DatasetRecord } from '../record.js';
import { benchmarkIssue, type ImportOptions, type ImportResult } from './common.js';
import { excludedRepository } from './excluded.js';
import { dropOf, filesIn, goldOfFix, posixPath, readText, RowDrop, subfolders } from './fix-commit.js';

/** One Denchmark report, as this importer reads it. */
interface DenchmarkRow {
  id: string;
  title: string;
  body: string;
  opened: string;
  closed: string;
  commit: string;
  /** Base-side paths of the files the fix modifies, removes or renames (`/`-separated). */
  changed: string[];
  /** Files the fix adds. */
  added: string[];
  /** `path:method` of each hunk inside a method (Denchmark's own method data). */
  methods: string[];
}

const obj = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Denchmark's markup (`<denchmark-link:URL>`, `<denchmark-h:h2>`, `<denchmark-code>`) to plain text. */
export function denchmarkText(text: string): string {
  return text
    .replace(/<denchmark-link:([^>]*)>\s*<\/denchmark-link>/g, '$1')
    .replace(/<\/?denchmark-[a-z]+(?::[^>]*)?>/g, '')
    .trim();
}

/**
 * The report of one Denchmark JSON object, or null when the object is not a Denchmark report
 * (another format).
 */
function readReport(value: unknown): DenchmarkRow | null {
  const top = obj(value);
  const br = obj(top?.BR);
  const commit = obj(top?.commit);
  const text = obj(br?.BR_text);
  if (!br || !commit || !text || !str(commit.commit_id)) return null;
  const changed: string[] = [];
  const added: string[] = [];
  const methods: string[] = [];
  for (const f of Object.values(obj(commit.changed_files) ?? {})) {
    const file = obj(f);
    if (!file) continue;
    const kind = str(file.file_change_type);
    const oldName = posixPath(str(file.file_old_name));
    const newName = posixPath(str(file.file_new_name));
    if (kind === 'ADD' || !oldName || oldName === 'None') {
      if (newName) added.push(newName);
      continue;
    }
    changed.push(oldName);
    for (const h of Object.values(obj(file.hunks) ?? {})) {
      const hunk = obj(h);
      const name = str(obj(hunk?.method_info)?.method_name);
      if (hunk?.Ismethod === 1 && name) methods.push(`${oldName}:${name}`);
    }
  }
  return {
    id: str(br.BR_id),
    title: denchmarkText(str(text.BRsummary)),
    body: denchmarkText(str(text.BRdescription)),
    opened: str(br.BRopenT),
    closed: str(br.BRcloseT),
    commit: str(commit.commit_id),
    changed,
    added,
    methods: [...new Set(methods)],
  };
}

/** The folder of per-repository folders: `dir` itself, or its `JSonSet/simplejson`. */
function reportsFolder(dir: string): string {
  const inner = join(dir, 'JSonSet', 'simplejson');
  return existsSync(inner) ? inner : dir;
}

/**
 * Import Denchmark's `simplejson` folder (`<owner+repo>/<issue>.json`; the repository's root or
 * `JSonSet/simplejson` itself).
 *
 * Each record: issue id `owner__repo-N`, title = `BRsummary`, body = `BRdescription` (Denchmark's
 * tags removed; comments are never read: they hint at the fix), type Bug, created/resolved = the
 * report's open/close times; `commits` = [the fix], `aprioriCommit` = its first parent; positives
 * = the changed (modified, removed, or renamed: old name) non-test source files that exist there,
 * Windows separators turned to `/`; positive functions by our span rules on the commit's diff;
 * Denchmark's per-hunk method names kept as `provenance.givenFunctions` (`path:name`) for the
 * agreement check. Dropped with a code: `excluded-repository` (leakage check, `excluded.ts`),
 * `other-format` (JSON that is no Denchmark report), `empty-issue`, `repo-not-available`,
 * `fix-commit-missing`, `root-commit`, `no-positive`.
 *
 * @throws IssuelocError for an unreadable folder, a folder without any Denchmark report, or a
 *   file that is not JSON (without `skipInvalid`; with it listed in `invalid`).
 */
export async function importDenchmark(dir: string, options: ImportOptions = {}): Promise<ImportResult> {
  const root = reportsFolder(dir);
  const result: ImportResult = { records: [], dropped: [], invalid: [] };
  const files: { repo: string; path: string; name: string }[] = [];
  for (const sub of subfolders(root)) {
    for (const name of filesIn(join(root, sub))) {
      if (name.endsWith('.json')) files.push({ repo: sub, path: join(root, sub, name), name });
    }
  }
  if (files.length === 0) throw new IssuelocError(`${dir}: no Denchmark reports (<owner+repo>/<issue>.json) found`);
  let reports = 0;
  for (const [k, f] of files.entries()) {
    options.progress?.(k, files.length);
    const [owner, name] = f.repo.split('+');
    const ownerName = `${owner}/${name ?? ''}`;
    const fallbackId = `${owner}__${name ?? ''}-${f.name.replace(/\.json$/, '')}`;
    let value: unknown;
    try {
      value = JSON.parse(readText(f.path) ?? '');
    } catch (e) {
      const msg = `${f.path}: not valid JSON (${(e as Error).message})`;
      if (!options.skipInvalid) throw new IssuelocError(msg);
      result.invalid.push(msg);
      continue;
    }
    const r = readReport(value);
    if (!r) {
      result.dropped.push({ id: fallbackId, origin: f.path, reason: 'not a Denchmark report (no BR/commit)', code: 'other-format' });
      continue;
    }
    reports++;
    const id = `${owner}__${name}-${r.id || f.name.replace(/\.json$/, '')}`;
    try {
      const excluded = excludedRepository(ownerName);
      if (excluded) throw new RowDrop('excluded-repository', excluded);
      if (!r.title && !r.body) throw new RowDrop('empty-issue', 'the report has neither title nor text');
      const repo = options.openRepo ? await options.openRepo(ownerName) : null;
      if (!repo) throw new RowDrop('repo-not-available', `repository ${ownerName} not available`);
      const gold = await goldOfFix(repo, r.commit, r.changed, options);
      let issue: DatasetRecord['issue'];
      try {
        issue = benchmarkIssue(
          { id, title: r.title, body: r.body, bodyFormat: 'text', type: 'Bug', created: r.opened || null, resolved: r.closed || null },
          f.path,
          options,
        );
      } catch (e) {
        throw new RowDrop('bad-issue', (e as Error).message);
      }
      const { unreadable, notAtBase, ...fix } = gold;
      const record: DatasetRecord = {
        issue,
        repo: ownerName,
        ...fix,
        variant: options.variant ?? 'denchmark',
        provenance: {
          source: 'denchmark', origin: f.path, sourceId: `${f.repo}/${f.name}`, repoPath: repo.path,
          givenFunctions: r.methods.filter((m) => fix.positives.includes(m.slice(0, m.lastIndexOf(':')))),
        },
      };
      if (r.added.length > 0) record.provenance.addedFiles = r.added;
      if (notAtBase.length > 0) record.provenance.outsideApriori = notAtBase;
      if (unreadable.length > 0) record.provenance.unreadable = unreadable;
      result.records.push(record);
    } catch (e) {
      if (!(e instanceof RowDrop)) throw e;
      result.dropped.push(dropOf(id, f.path, e));
    }
  }
  if (reports === 0) throw new IssuelocError(`${dir}: none of its ${files.length} JSON files is a Denchmark report (another format?)`);
  options.progress?.(files.length, files.length);
  return result;
}
