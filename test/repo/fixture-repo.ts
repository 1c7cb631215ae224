/**
 * Tiny git repositories for tests, built in a temp dir with one `git fast-import` run, so any
 * commit graph (roots, merges, octopus merges) can be written down as a list:
 *
 *   await fixtureRepo([
 *     { id: 'A', message: 'init', files: { 'src/A.java': 'class A {}' } },
 *     { id: 'B', parents: ['A'], message: 'MNG-1 fix', files: { 'src/A.java': 'class A { int x; }' } },
 *   ]);
 *
 * `files` lists changes against the FIRST parent (content, or null to delete). Commit times are
 * 2020-01-01 plus one day per list position (or `day`), so runs are deterministic.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../util/baseline-wasm.js'; // tests parse tiny fixtures: WebAssembly by the baseline compiler only

/** One commit of a fixture. */
export interface FixtureCommit {
  id: string;
  parents?: string[];
  message: string;
  files?: Record<string, string | null>;
  /** Days after 2020-01-01 (default: the position in the list). */
  day?: number;
}

/** A built fixture repository. */
export interface Fixture {
  dir: string;
  /** Full SHA of a commit id. */
  sha(id: string): string;
  /** Removes the directory. */
  remove(): void;
}

const BASE = Date.UTC(2020, 0, 1) / 1000;

/** Runs git in `dir` with a fixed identity and no user config. */
export function git(dir: string, args: string[], input?: string): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'maintenance.auto=false', ...args], {
    cwd: dir,
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * Builds a repository whose HEAD (branch `main`) is `head` (default: the last commit).
 * Commits must be listed parents first.
 */
export function fixtureRepo(commits: readonly FixtureCommit[], head?: string): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-fixture-'));
  git(dir, ['init', '-q', '-b', 'main']);
  const mark = new Map<string, number>();
  let stream = '';
  commits.forEach((c, i) => {
    const m = i + 1;
    mark.set(c.id, m);
    const when = BASE + (c.day ?? i) * 86400;
    const data = Buffer.byteLength(c.message, 'utf8');
    stream += `reset refs/fixture/tmp\ncommit refs/fixture/tmp\nmark :${m}\n`;
    stream += `author t <t@t> ${when} +0000\ncommitter t <t@t> ${when} +0000\ndata ${data}\n${c.message}\n`;
    (c.parents ?? []).forEach((p, k) => {
      const pm = mark.get(p);
      if (pm === undefined) throw new Error(`fixture: parent ${p} of ${c.id} not listed before it`);
      stream += `${k === 0 ? 'from' : 'merge'} :${pm}\n`;
    });
    for (const [path, content] of Object.entries(c.files ?? {})) {
      if (content === null) stream += `D ${path}\n`;
      else stream += `M 100644 inline ${path}\ndata ${Buffer.byteLength(content, 'utf8')}\n${content}\n`;
    }
    stream += '\n';
  });
  const headId = head ?? commits[commits.length - 1].id;
  stream += `reset refs/heads/main\nfrom :${mark.get(headId)}\n\n`;
  const marksFile = join(dir, '.git', 'fixture-marks');
  git(dir, ['fast-import', '--quiet', `--export-marks=${marksFile}`], stream);
  git(dir, ['update-ref', '-d', 'refs/fixture/tmp']);
  const shaOfMark = new Map<number, string>();
  for (const line of readFileSync(marksFile, 'utf8').split('\n')) {
    const [m, sha] = line.split(' ');
    if (m && sha) shaOfMark.set(Number(m.slice(1)), sha);
  }
  return {
    dir,
    sha(id: string): string {
      const s = shaOfMark.get(mark.get(id) ?? -1);
      if (!s) throw new Error(`fixture: no commit ${id}`);
      return s;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
