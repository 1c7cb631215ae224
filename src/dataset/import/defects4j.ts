/**
 * Defects4J (github rjust/defects4j, `framework/projects/<P>/active-bugs.csv`) with the bug
 * report texts of Quatrain (github Trustworthy-Software/Quatrain, `data/BugReport/<P>_bugreport.txt`,
 * one `<P>-<n>$$title$$text` line per bug) → dataset records under the shared gold rule
 * (`fix-commit.ts`): the fix is Defects4J's fixed revision, the base its first parent.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../../errors.js';
import { goldForPatch } from '../gold.js';
import type { GitRepo } from '../../repo/git.js';
import type { DatasetRecord } from '../record.js';
import { benchmarkIssue, type ImportOptions, type ImportResult } from './common.js';
import { excludedRepository } from './excluded.js';
import { dropOf, filesIn, goldOfFix, readText, RowDrop, subfolders } from './fix-commit.js';

/** The GitHub repository of each Defects4J project (Chart's revisions are Subversion numbers: its rows drop as `fix-commit-missing`). */
export const DEFECTS4J_REPOS: Record<string, string> = {
  Chart: 'jfree/jfreechart', Cli: 'apache/commons-cli', Closure: 'google/closure-compiler', Codec: 'apache/commons-codec',
  Collections: 'apache/commons-collections', Compress: 'apache/commons-compress', Csv: 'apache/commons-csv', Gson: 'google/gson',
  JacksonCore: 'FasterXML/jackson-core', JacksonDatabind: 'FasterXML/jackson-databind', JacksonXml: 'FasterXML/jackson-dataformat-xml',
  Jsoup: 'jhy/jsoup', JxPath: 'apache/commons-jxpath', Lang: 'apache/commons-lang', Math: 'apache/commons-math',
  Mockito: 'mockito/mockito', Time: 'JodaOrg/joda-time',
};

/** A bug report text: title and body. */
export interface BugReport {
  title: string;
  body: string;
}

/** Quatrain's `<P>_bugreport.txt` lines (`<P>-<n>$$title$$text`) by bug id; other lines are skipped. */
export function readBugReports(text: string): Map<string, BugReport> {
  const out = new Map<string, BugReport>();
  for (const line of text.split(/\r?\n/)) {
    const parts = line.split('$$');
    if (parts.length < 3 || !/^[A-Za-z]+-\d+$/.test(parts[0].trim())) continue;
    const body = parts.slice(2).join('$$').trim();
    out.set(parts[0].trim(), { title: parts[1].trim(), body: body === 'None' ? '' : body });
  }
  return out;
}

/** The first of `candidates` (under `dir`) that exists, else null. */
function firstExisting(dir: string, candidates: string[]): string | null {
  for (const c of candidates) if (existsSync(join(dir, c))) return join(dir, c);
  return null;
}

/** One row of `active-bugs.csv`: `bug.id,revision.id.buggy,revision.id.fixed,report.id,report.url`. */
interface ActiveBug {
  id: string;
  buggy: string;
  fixed: string;
  reportId: string;
  reportUrl: string;
  line: number;
}

function readActiveBugs(text: string): ActiveBug[] | null {
  const lines = text.split(/\r?\n/);
  if (!/^bug\.id,revision\.id\.buggy,revision\.id\.fixed/.test(lines[0] ?? '')) return null;
  const out: ActiveBug[] = [];
  for (const [k, line] of lines.entries()) {
    if (k === 0 || !line.trim()) continue;
    const [id = '', buggy = '', fixed = '', reportId = '', reportUrl = ''] = line.split(',').map((s) => s.trim());
    out.push({ id, buggy, fixed, reportId, reportUrl, line: k + 1 });
  }
  return out;
}

/**
 * The functions Defects4J's own minimal patch (`patches/<n>.src.patch`) edits, by our span rules,
 * among `positives`: its old side is the fixed revision (the patch turns it back into the buggy
 * one). Null when there is no patch or it cannot be read.
 */
async function patchFunctions(repo: GitRepo, fixed: string, patchFile: string, positives: string[], options: ImportOptions): Promise<string[] | null> {
  const patch = readText(patchFile);
  if (patch === null) return null;
  try {
    const gold = await goldForPatch(repo, fixed, patch, { extract: options.extract });
    return gold.functions.filter((id) => positives.includes(id.slice(0, id.lastIndexOf(':'))));
  } catch {
    return null;
  }
}

/**
 * Import Defects4J: `dir` holds `framework/projects/<P>/active-bugs.csv` (or `projects/…`) and
 * Quatrain's `data/BugReport/<P>_bugreport.txt` (or `BugReport/…`).
 *
 * Each record: issue id `<P>-<n>`, title/body = Quatrain's report text (type Bug; no dates: the
 * files have none); `commits` = [the fixed revision], `aprioriCommit` = its first parent (not
 * always Defects4J's buggy revision, kept in `provenance.buggyRevision`); positives = its changed
 * non-test source files that exist at the base; functions by our span rules on the fixing commit;
the functions of Defects4J's minimal patch (`patches/<n>.src.patch`) kept as
`provenance.givenFunctions` for the agreement check. Dropped with a
 * code: `unknown-project` (no known repository), `excluded-repository` (leakage check,
 * `excluded.ts`: Lang, Math, Mockito, Gson, Jackson*), `empty-issue` (no report text),
 * `repo-not-available`, `fix-commit-missing` (e.g. Chart's Subversion numbers), `root-commit`,
 * `no-positive`.
 *
 * @throws IssuelocError for a folder without any `active-bugs.csv` of Defects4J's header.
 */
export async function importDefects4j(dir: string, options: ImportOptions = {}): Promise<ImportResult> {
  const projectsDir = firstExisting(dir, ['framework/projects', 'projects']);
  const reportsDir = firstExisting(dir, ['data/BugReport', 'BugReport']);
  if (!projectsDir) throw new IssuelocError(`${dir}: no Defects4J projects folder (framework/projects/<P>/active-bugs.csv) found`);
  const reports = new Map<string, BugReport>();
  for (const name of reportsDir ? filesIn(reportsDir) : []) {
    if (name.endsWith('_bugreport.txt')) for (const [id, r] of readBugReports(readText(join(reportsDir as string, name)) ?? '')) reports.set(id, r);
  }
  const rows: { project: string; bug: ActiveBug; origin: string; patch: string }[] = [];
  for (const project of subfolders(projectsDir)) {
    const csv = join(projectsDir, project, 'active-bugs.csv');
    const bugs = readActiveBugs(readText(csv) ?? '');
    for (const bug of bugs ?? []) rows.push({ project, bug, origin: `${csv}:${bug.line}`, patch: join(projectsDir, project, 'patches', `${bug.id}.src.patch`) });
  }
  if (rows.length === 0) throw new IssuelocError(`${dir}: no Defects4J active-bugs.csv rows found (another format?)`);
  const result: ImportResult = { records: [], dropped: [], invalid: [] };
  for (const [k, { project, bug, origin, patch }] of rows.entries()) {
    options.progress?.(k, rows.length);
    const id = `${project}-${bug.id}`;
    try {
      const ownerName = DEFECTS4J_REPOS[project];
      if (!ownerName) throw new RowDrop('unknown-project', `no GitHub repository known for Defects4J project ${project}`);
      const excluded = excludedRepository(ownerName);
      if (excluded) throw new RowDrop('excluded-repository', excluded);
      const report = reports.get(id);
      if (!report || (!report.title && !report.body)) throw new RowDrop('empty-issue', `no bug report text for ${id}`);
      const repo = options.openRepo ? await options.openRepo(ownerName) : null;
      if (!repo) throw new RowDrop('repo-not-available', `repository ${ownerName} not available`);
      const { unreadable, notAtBase, ...fix } = await goldOfFix(repo, bug.fixed, null, options);
      let issue: DatasetRecord['issue'];
      try {
        issue = benchmarkIssue({ id, title: report.title, body: report.body, bodyFormat: 'text', type: 'Bug', created: null }, origin, options);
      } catch (e) {
        throw new RowDrop('bad-issue', (e as Error).message);
      }
      const record: DatasetRecord = {
        issue,
        repo: ownerName,
        ...fix,
        variant: options.variant ?? 'defects4j',
        provenance: {
          source: 'defects4j', origin, sourceId: id, repoPath: repo.path,
          buggyRevision: bug.buggy, reportId: bug.reportId, reportUrl: bug.reportUrl,
        },
      };
      const given = await patchFunctions(repo, fix.commits[0], patch, fix.positives, options);
      if (given) record.provenance.givenFunctions = given;
      if (notAtBase.length > 0) record.provenance.outsideApriori = notAtBase;
      if (unreadable.length > 0) record.provenance.unreadable = unreadable;
      result.records.push(record);
    } catch (e) {
      if (!(e instanceof RowDrop)) throw e;
      result.dropped.push(dropOf(id, origin, e));
    }
  }
  options.progress?.(rows.length, rows.length);
  return result;
}
