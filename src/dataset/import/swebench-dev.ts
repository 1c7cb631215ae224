/**
 * The SWE-bench dev split as github yogendrahexo/swe-bench-dataset lays it out
 * (`projects/<owner__repo>/PR<n>/{bug_description.txt, changes.patch, test_changes.patch,
 * buggy/<file>}`) → dataset records. The layout has no base commit (its CSV is not in the
 * snapshot): the base is found in the repository from the `buggy/` files.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { IssuelocError } from '../../errors.js';
import type { GitRepo } from '../../repo/git.js';
import { toIsoDate } from '../../issues/dates.js';
import { readPatch } from '../patch.js';
import type { DatasetRecord } from '../record.js';
import { benchmarkIssue, type ImportOptions, type ImportResult } from './common.js';
import { excludedRepository } from './excluded.js';
import { dropOf, goldOfPatch, readText, RowDrop, subfolders } from './fix-commit.js';
import { splitProblemStatement } from './rows.js';

/** What `bug_description.txt` holds: the problem statement, then (never query input) hints. */
export interface BugDescription {
  problemStatement: string;
  created: string;
  version: string;
}

/**
 * Reads `bug_description.txt` as the layout's script writes it: `problem_statement`, a blank
 * line, optionally `Hints:` + the hints (pull-request discussion: dropped), then `Created at:` and
 * `Version:` lines.
 */
export function readBugDescription(text: string): BugDescription {
  let rest = text.replace(/\r\n/g, '\n');
  let created = '';
  let version = '';
  const tail = /\n*Created at: ([^\n]*)\nVersion: ([^\n]*)\n*$/.exec(rest);
  if (tail) {
    created = tail[1].trim();
    version = tail[2].trim();
    rest = rest.slice(0, tail.index);
  }
  const hints = rest.startsWith('Hints:\n') ? 0 : rest.indexOf('\n\nHints:\n');
  if (hints >= 0) rest = rest.slice(0, hints);
  return { problemStatement: rest.trim(), created, version };
}

/** Git's blob id of `data`. */
function blobId(data: Buffer): string {
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}

/** Whether every `path → blob` holds at `commit`. */
async function blobsMatch(repo: GitRepo, commit: string, blobs: Map<string, string>): Promise<boolean> {
  for (const [path, blob] of blobs) {
    const r = await repo.exec(['rev-parse', '--verify', '--quiet', `${commit}:${path}`]);
    if (r.code !== 0 || r.stdout.toString('utf8').trim() !== blob) return false;
  }
  return true;
}

/** How many candidate commits are checked before a row is dropped. */
const MAX_CHECKED = 50;

/**
 * Candidate bases, newest first, with their committer dates: from one `git log --raw` over the
 * commits of HEAD's history that touch the patched paths, each commit that writes one of the
 * `buggy/` blobs, and each after which (replaying the log oldest first) all of them hold. The
 * replay is exact on a linear history only, so callers check each candidate.
 */
async function candidateBases(repo: GitRepo, blobs: Map<string, string>): Promise<{ sha: string; date: string }[]> {
  const r = await repo.exec(['log', '--raw', '--no-abbrev', '--no-renames', '--format=%x00%H %cI', 'HEAD', '--', ...blobs.keys()]);
  if (r.code !== 0) return [];
  const commits = r.stdout.toString('utf8').split('\0').filter(Boolean).reverse();
  const state = new Map<string, string>();
  const out: { sha: string; date: string }[] = [];
  for (const c of commits) {
    const [head, ...raw] = c.split('\n');
    const [sha, date] = head.split(' ');
    let writes = false;
    for (const line of raw) {
      // :100644 100644 <old> <new> M<TAB>path
      const m = /^:\S+ \S+ \S+ (\S+) \S+\t(.*)$/.exec(line);
      if (!m || !blobs.has(m[2])) continue;
      state.set(m[2], m[1]);
      if (blobs.get(m[2]) === m[1]) writes = true;
    }
    if (writes || [...blobs].every(([path, blob]) => state.get(path) === blob)) out.push({ sha, date });
  }
  return out.reverse();
}

/**
 * The base commit of a pull request: the newest commit of HEAD's history at or before `created`
 * whose patched files equal the `buggy/` copies; else the newest candidate ({@link candidateBases})
 * whose files equal them, at or before `created` first, then any. Null when none does.
 */
export async function findBase(repo: GitRepo, created: string, blobs: Map<string, string>): Promise<string | null> {
  const until = created ? [`--until=${created}`] : [];
  const r = await repo.exec(['rev-list', '-n', '1', ...until, 'HEAD']);
  const newest = r.code === 0 ? r.stdout.toString('utf8').trim() : '';
  if (newest && (await blobsMatch(repo, newest, blobs))) return newest;
  if (blobs.size === 0) return newest || null;
  const candidates = await candidateBases(repo, blobs);
  const limit = created ? Date.parse(created) : Infinity;
  const ordered = [...candidates.filter((c) => Date.parse(c.date) <= limit), ...candidates.filter((c) => !(Date.parse(c.date) <= limit))];
  for (const c of ordered.slice(0, MAX_CHECKED)) if (await blobsMatch(repo, c.sha, blobs)) return c.sha;
  return null;
}

/** The `path → blob id` of each patched file whose `buggy/` copy is known by its unique base name. */
function buggyBlobs(dir: string, paths: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const names = paths.map((p) => basename(p));
  for (const p of paths) {
    const name = basename(p);
    const file = join(dir, 'buggy', name);
    if (names.filter((n) => n === name).length !== 1 || !existsSync(file)) continue;
    out.set(p, blobId(readFileSync(file)));
  }
  return out;
}

/** The `projects` folder: `dir` itself or its `projects/`. */
function projectsFolder(dir: string): string {
  const inner = join(dir, 'projects');
  return existsSync(inner) ? inner : dir;
}

/**
 * Import the SWE-bench dev layout (`projects/<owner__repo>/PR<n>/`).
 *
 * Each record: issue id `owner__repo-N`, title/body = the problem statement (the text after
 * `Hints:` is pull-request discussion and is left out), type `''`, created = `Created at`;
 * `commits` = [], `aprioriCommit` = the base found by {@link findBase}; positives = the
 * `changes.patch` files that are non-test source files at the base; functions by our span rules
 * (`goldForPatch`); `changesTests` = `test_changes.patch` is not empty. Dropped with a code:
 * `excluded-repository`, `other-format` (a folder without `bug_description.txt` and
 * `changes.patch`), `empty-issue`, `repo-not-available`, `base-commit-missing` (no commit holds
 * the `buggy/` files), `no-positive`, `bad-patch`.
 *
 * @throws IssuelocError for an unreadable folder or one without any pull-request folder.
 */
export async function importSwebenchDev(dir: string, options: ImportOptions = {}): Promise<ImportResult> {
  const root = projectsFolder(dir);
  const result: ImportResult = { records: [], dropped: [], invalid: [] };
  const prs: { project: string; pr: string; path: string }[] = [];
  for (const project of subfolders(root)) {
    for (const pr of subfolders(join(root, project))) prs.push({ project, pr, path: join(root, project, pr) });
  }
  if (prs.length === 0) throw new IssuelocError(`${dir}: no pull-request folders (projects/<owner__repo>/PR<n>/) found`);
  let read = 0;
  for (const [k, p] of prs.entries()) {
    options.progress?.(k, prs.length);
    const sep = p.project.indexOf('__');
    const ownerName = sep > 0 ? `${p.project.slice(0, sep)}/${p.project.slice(sep + 2)}` : p.project;
    const id = `${p.project}-${p.pr.replace(/^PR/, '')}`;
    const description = readText(join(p.path, 'bug_description.txt'));
    const patch = readText(join(p.path, 'changes.patch'));
    try {
      if (description === null || patch === null || sep <= 0) {
        throw new RowDrop('other-format', 'not a SWE-bench dev pull-request folder (bug_description.txt, changes.patch)');
      }
      read++;
      const excluded = excludedRepository(ownerName);
      if (excluded) throw new RowDrop('excluded-repository', excluded);
      const d = readBugDescription(description);
      if (!d.problemStatement) throw new RowDrop('empty-issue', 'the problem statement is empty');
      let files;
      try {
        files = readPatch(patch).files;
      } catch (e) {
        throw new RowDrop('bad-patch', (e as Error).message);
      }
      const { title, body } = splitProblemStatement(d.problemStatement);
      let issue: DatasetRecord['issue'];
      try {
        issue = benchmarkIssue({ id, title, body, bodyFormat: 'markdown', type: '', created: d.created || null }, p.path, options);
      } catch (e) {
        throw new RowDrop('bad-issue', (e as Error).message);
      }
      const repo = options.openRepo ? await options.openRepo(ownerName) : null;
      if (!repo) throw new RowDrop('repo-not-available', `repository ${ownerName} not available`);
      const existing = files.filter((f) => f.oldPath !== null).map((f) => f.path);
      const created = d.created ? toIsoDate(d.created) ?? '' : '';
      const base = await findBase(repo, created, buggyBlobs(p.path, existing));
      if (!base) throw new RowDrop('base-commit-missing', 'no commit of the repository holds the buggy/ files');
      const gold = await goldOfPatch(repo, base, patch, options);
      const testPatch = readText(join(p.path, 'test_changes.patch')) ?? '';
      result.records.push({
        issue,
        repo: ownerName,
        commits: [],
        aprioriCommit: base,
        ...gold,
        variant: options.variant ?? 'swebench-dev',
        changesTests: testPatch.trim() !== '',
        provenance: { source: 'swebench-dev', origin: p.path, sourceId: `${p.project}/${p.pr}`, version: d.version, repoPath: repo.path },
      });
    } catch (e) {
      if (!(e instanceof RowDrop)) throw e;
      result.dropped.push(dropOf(id, p.path, e));
    }
  }
  if (read === 0) throw new IssuelocError(`${dir}: none of its ${prs.length} folders is a SWE-bench dev pull request (another format?)`);
  options.progress?.(prs.length, prs.length);
  return result;
}
