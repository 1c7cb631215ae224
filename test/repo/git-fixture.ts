// Tiny git repositories built by the tests themselves (no network, no fetched code).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import '../util/baseline-wasm.js'; // tests parse tiny fixtures: WebAssembly by the baseline compiler only

const ENV = {
  ...process.env,
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};
delete (ENV as Record<string, string | undefined>).GIT_DIR;

/**
 * Runs git in `cwd`; returns trimmed stdout. No `git maintenance run --auto` after each commit: a
 * process per commit that the tiny repositories never need.
 */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'maintenance.auto=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** A fresh temporary folder; remove it with {@link cleanup}. */
export function tempDir(prefix = 'issueloc-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** File content, or `{ symlink: target }` for a symbolic link. */
export type FixtureFile = string | Buffer | { symlink: string };

/** Whether `dir` or a folder above it holds `.git` or is a git folder itself (then git decides what `dir` is). */
function maybeInRepository(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git')) || (existsSync(join(d, 'HEAD')) && existsSync(join(d, 'objects')))) return true;
    if (dirname(d) === d) return false;
  }
}

/**
 * The commit HEAD names, read from `dir/.git` (HEAD, then its loose ref) without a git process;
 * `git rev-parse HEAD` where that is not a plain file (a packed ref, `.git` a file or elsewhere).
 */
function headCommit(dir: string): string {
  try {
    const gitDir = join(dir, '.git');
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref: (refs\/[^\s]+)$/.exec(head);
    const sha = ref ? readFileSync(join(gitDir, ref[1]), 'utf8').trim() : head;
    if (/^[0-9a-f]{40}$/.test(sha)) return sha;
  } catch {
    // not plain files: git knows
  }
  return git(dir, 'rev-parse', 'HEAD');
}

/** Writes `files` into the work tree `dir` (created as a repo when needed) and commits them (only them). */
export function commitFiles(dir: string, files: Record<string, FixtureFile>, message = 'commit'): string {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, '.git'))) {
    // a folder under no repository is made one without asking git first (a process per fixture)
    let inside = maybeInRepository(dir);
    if (inside) {
      try {
        git(dir, 'rev-parse', '--git-dir');
      } catch {
        inside = false;
      }
    }
    if (!inside) git(dir, 'init', '-q');
  }
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    if (typeof content === 'object' && !Buffer.isBuffer(content)) symlinkSync(content.symlink, full);
    else writeFileSync(full, content);
  }
  const paths = Object.keys(files);
  if (paths.length > 0) git(dir, 'add', '--', ...paths);
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return headCommit(dir);
}
