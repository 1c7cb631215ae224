/**
 * The Tomcat set of Ye, Bunescu & Liu (2014), "Learning to rank relevant files for bug reports
 * using domain knowledge" (FSE'14), as its JSONL gives it (test/fixtures/data/tomcat.jsonl) → dataset
 * records. Each row names its fixing commit (7-character SHA in github apache/tomcat) and fixed
 * files; the a-priori state is the commit's first parent.
 */
import type { GitRepo } from '../../repo/git.js';
import { splitItemId } from '../../corpus/names.js';
import { goldForCommit } from '../gold.js';
import type { DatasetRecord } from '../record.js';
import { countCandidatePaths, benchmarkIssue, type ImportOptions, type ImportResult } from './common.js';
import { readRows, rowError, stringField, type Row } from './rows.js';

/** Options of {@link importTomcat}. */
export interface TomcatImportOptions extends Omit<ImportOptions, 'openRepo'> {
  /** The apache/tomcat repository (full history). */
  repo: GitRepo;
  /** Compute function positives from each fixing commit's diff (default true). */
  functions?: boolean;
}

/** Ye et al. prefix every summary with `Bug <id> `; the title drops it. */
function titleOf(summary: string, bugId: string): string {
  const prefix = `Bug ${bugId}`;
  return (summary.startsWith(prefix) ? summary.slice(prefix.length) : summary).trim();
}

interface TomcatRow {
  bugId: string;
  summary: string;
  description: string;
  reportTime: string;
  commit: string;
  files: string[];
  status: string;
}

function readRow(row: Row): TomcatRow {
  const v = row.value;
  const bugId = typeof v.bug_id === 'number' ? String(v.bug_id) : stringField(row, 'bug_id');
  return {
    bugId,
    summary: stringField(row, 'summary'),
    description: typeof v.description === 'string' ? v.description : '',
    reportTime: typeof v.report_time === 'string' ? v.report_time : '',
    commit: stringField(row, 'commit'),
    files: stringField(row, 'files').split(/\s+/).filter(Boolean),
    status: typeof v.status === 'string' ? v.status : '',
  };
}

/**
 * Import Ye et al.'s Tomcat JSONL (`bug_id`, `summary`, `description`, `report_time`, `commit`,
 * `files`) against the apache/tomcat repository.
 *
 * Each record: issue id = `bug_id`, title = summary without its `Bug N` prefix, body =
 * description (plain text; `''` when null), type `Bug`, created = `report_time` (UTC),
 * resolved = the fixing commit's committer date; `commits` = [the fixing commit, full SHA];
 * `aprioriCommit` = its first parent; positives = the listed files that exist at the a-priori
 * state (files the fix added are neither positive nor negative; listed in provenance
 * `addedFiles`); positive functions (unless `functions: false`) = the functions of those files
 * the commit edits ({@link goldForCommit}); `changesTests` = whether the commit changes a test
 * file; `candidates` = source files at the a-priori state, tests included (Ye et al. rank all
 * source files, and their fixed files include tests). Dropped with a reason: a
 * commit missing from the repository, a root commit, no listed file existing at the a-priori state.
 *
 * @throws IssuelocError for an unreadable file, or a corrupt line or row missing a field (named
 *   `file:line`; with `skipInvalid` listed in `invalid` instead).
 */
export async function importTomcat(path: string, options: TomcatImportOptions): Promise<ImportResult> {
  const { rows, invalid } = readRows(path, options.skipInvalid);
  const result: ImportResult = { records: [], dropped: [], invalid };
  const repo = options.repo;
  for (const [k, row] of rows.entries()) {
    options.progress?.(k, rows.length);
    let r: TomcatRow;
    let record: DatasetRecord;
    try {
      r = readRow(row);
      const issue = benchmarkIssue(
        {
          id: r.bugId, title: titleOf(r.summary, r.bugId), body: r.description, bodyFormat: 'text', type: 'Bug',
          created: r.reportTime || null, status: r.status,
        },
        row.origin,
        options,
      );
      record = {
        issue, repo: 'apache/tomcat', commits: [], aprioriCommit: '', positives: [], positiveFunctions: [],
        candidates: 0, variant: options.variant ?? 'ye2014',
        provenance: { source: 'ye2014', origin: row.origin, commit: r.commit, files: r.files },
      };
    } catch (e) {
      const err = rowError(row, e);
      if (!options.skipInvalid) throw err;
      result.invalid.push(err.message);
      continue;
    }
    const drop = (code: string, reason: string): void => {
      result.dropped.push({ id: r.bugId, origin: row.origin, reason, code });
    };
    let sha: string;
    try {
      sha = await repo.resolveCommit(r.commit);
    } catch (e) {
      drop('fix-commit-not-found', `fixing commit ${r.commit} not found: ${(e as Error).message}`);
      continue;
    }
    const info = await repo.exec(['log', '-1', '--format=%P%n%cI', sha]);
    const [parentLine, date] = info.stdout.toString('utf8').split('\n');
    const parent = parentLine.split(' ')[0];
    if (!parent) {
      drop('root-commit', `fixing commit ${sha} is a root commit`);
      continue;
    }
    const tree = new Set(await repo.listPaths(parent));
    const positives = r.files.filter((f) => tree.has(f));
    const added = r.files.filter((f) => !tree.has(f));
    if (positives.length === 0) {
      drop('no-positive', 'no listed file exists at the a-priori state');
      continue;
    }
    record.issue.resolved = date ? new Date(date).toISOString() : null;
    record.commits = [sha];
    record.aprioriCommit = parent;
    record.positives = positives;
    record.candidates = countCandidatePaths(tree, true);
    if (added.length > 0) record.provenance.addedFiles = added;
    if (options.functions !== false) {
      const gold = await goldForCommit(repo, sha, { extract: options.extract });
      const keep = new Set(positives);
      record.positiveFunctions = gold.functions.filter((f) => keep.has(splitItemId(f).path));
      record.positiveModules = gold.modules.filter((m) => keep.has(splitItemId(m).path));
      record.changesTests = gold.changesTests;
      if (gold.unreadable.length > 0) record.provenance.unreadable = gold.unreadable;
    }
    result.records.push(record);
  }
  options.progress?.(rows.length, rows.length);
  return result;
}
