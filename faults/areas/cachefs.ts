/**
 * The cache folder and the file system under it (issue 31, F1 F10 F11):
 * - a prune or the automatic size trim never follows a symbolic link inside the cache folder
 *   (`index/`, `history/`, `llm/`, `vectors/`, `blobs-*` linked to another folder) and never
 *   removes a file issueloc did not write (its name and checked trailer say so);
 * - a blob entry copied over another blob's entry (valid checksum, another blob) is not used:
 *   a warning, and the ranking of a fresh cache;
 * - a full disk and a full standard output: one line `issueloc: …` naming the path or "standard
 *   output", exit 2 (`index`; `localize` answers from memory: one warning line naming the cache
 *   folder, exit 0). A full disk is produced as a user meets it without root: a file-size limit
 *   (`ulimit -f`, SIGXFSZ ignored as a shell user's `trap '' XFSZ` does) makes every cache write
 *   past it fail (EFBIG), as ENOSPC does; stdout is `/dev/full` (every write: ENOSPC).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localizeArgs, shopReference, snapshot, snapshotDiff } from '../common.js';
import { cacheFiles } from '../corrupt.js';
import { cliEnv, type RunResult } from '../cli.js';
import { BIN, CLI_NODE_ARGS } from '../interface.js';
import { badEnd, expectExit, firstLine, wrong, type Failure, type Probe, type ProbeContext } from '../probe.js';
import { expectRanking } from '../ranking.js';

const BOUND_S = 60;

/** A folder of someone else's files: a plain note, a JSON file shaped like an entry, and a real checked cache file. */
function foreignFolder(ctx: ProbeContext, label: string, checked: Buffer): string {
  const dir = ctx.dir(`foreign-${label}`);
  mkdirSync(join(dir, 'ab'), { recursive: true });
  writeFileSync(join(dir, 'notes.txt'), 'my own notes\n');
  writeFileSync(join(dir, 'ab', 'cdef0123.json'), '{"mine":true}\n');
  writeFileSync(join(dir, 'ab', '0123cdef.json'), checked);
  writeFileSync(join(dir, 'ab', 'cdef.f32'), Buffer.alloc(64));
  writeFileSync(join(dir, 'deadbeef.0123.bin'), checked);
  return dir;
}

/** The checks of a run that must leave `foreign` (a snapshot taken before it) as it was. */
function untouched(r: RunResult, before: Map<string, string>, dirs: string[]): Failure | undefined {
  const bad = expectExit(r, [0]);
  if (bad) return bad;
  // a build may write through a link (the user's choice); removing or changing what was there is the fault
  const diff = snapshotDiff(before, snapshot(dirs)).filter((d) => !d.startsWith('+'));
  return diff.length > 0 ? wrong(r, `files outside issueloc's own were changed: ${diff.slice(0, 5).join(' ')}${diff.length > 5 ? ' …' : ''}`) : undefined;
}

/** A build (its indexes removed first) under a 1 KiB cap: the size trim runs after it. */
function trimRun(ctx: ProbeContext, repo: string, c: string): Promise<RunResult> {
  for (const f of [...cacheFiles(c, 'index'), ...cacheFiles(c, 'fileIndex')]) rmSync(join(c, f), { force: true });
  return ctx.cli([...localizeArgs(repo, c), '--cache-max-size', '1k'], BOUND_S);
}

const KIND_FOLDERS = ['index', 'history', 'llm', 'vectors', 'blobs'] as const;

const pruneLinks: Probe = {
  area: 'cachefs', name: 'prune-links', quick: true,
  expect: '`cache prune --all` and the size trim of a build never follow a link inside the cache folder nor remove a file issueloc did not write',
  async run(ctx) {
    const { repo, cacheDir: template } = await shopReference(ctx);
    const blobDir = readdirSync(template).find((d) => d.startsWith('blobs-'));
    const checked = readFileSync(join(template, cacheFiles(template, 'blobTerms')[0]));
    for (const kind of ctx.quick ? (['history', 'blobs'] as const) : KIND_FOLDERS) {
      for (const how of ['prune', 'trim'] as const) {
        await ctx.attempt(`${kind} linked, ${how}`, async () => {
          const c = join(ctx.dir(`${kind}-${how}`), 'c');
          cpSync(template, c, { recursive: true });
          const name = kind === 'blobs' ? blobDir! : kind;
          const foreign = foreignFolder(ctx, `${kind}-${how}`, checked);
          // the folder's own entries go into the foreign folder too: a prune of them there is still a prune outside the cache
          rmSync(join(c, name), { recursive: true, force: true });
          symlinkSync(foreign, join(c, name));
          const before = snapshot([foreign]);
          const r = how === 'prune'
            ? await ctx.cli(['cache', 'prune', '--all', '--cache-dir', c], BOUND_S)
            : await trimRun(ctx, repo, c);
          return untouched(r, before, [foreign]);
        });
      }
    }
    await ctx.attempt('foreign files inside the cache folder, prune --all', async () => {
      const c = join(ctx.dir('inside'), 'c');
      cpSync(template, c, { recursive: true });
      const planted = [join(c, 'history', 'README.txt'), join(c, blobDir!, 'ab', 'user.json'), join(c, 'llm', 'ab', 'cd.json'), join(c, 'index', 'notes.bin')];
      for (const p of planted) {
        mkdirSync(join(p, '..'), { recursive: true });
        writeFileSync(p, 'my own file\n');
      }
      const r = await ctx.cli(['cache', 'prune', '--all', '--cache-dir', c], BOUND_S);
      const bad = expectExit(r, [0]);
      if (bad) return bad;
      const gone = planted.filter((p) => { try { readFileSync(p); return false; } catch { return true; } });
      if (gone.length > 0) return wrong(r, `removed files issueloc did not write: ${gone.map((p) => p.slice(c.length + 1)).join(' ')}`);
      const left = cacheFiles(c, 'blobTerms').filter((f) => !f.endsWith('user.json'));
      return left.length > 0 ? wrong(r, `--all left ${left.length} of issueloc's blob entries`) : undefined;
    });
  },
};

const foreignBlob: Probe = {
  area: 'cachefs', name: 'foreign-blob-entry', quick: true,
  expect: "a blob entry copied over another blob's (valid checksum) is refused: a warning and the ranking of a fresh cache",
  async run(ctx) {
    const { repo, ranking, cacheDir: template } = await shopReference(ctx);
    const entries = cacheFiles(template, 'blobTerms');
    const n = Math.min(ctx.quick ? 1 : 5, entries.length - 1);
    for (let i = 0; i < n; i++) {
      await ctx.attempt(`entry ${i + 1} copied over entry ${i + 2}`, async () => {
        const c = join(ctx.dir(`swap-${i}`), 'c');
        cpSync(template, c, { recursive: true });
        for (const f of [...cacheFiles(c, 'index'), ...cacheFiles(c, 'fileIndex')]) rmSync(join(c, f));
        const list = cacheFiles(c, 'blobTerms');
        // another repository's entry under this blob's name: a rename keeps a valid file
        const from = join(c, list[i]);
        const to = join(c, list[i + 1]);
        rmSync(to);
        renameSync(from, to);
        const r = await ctx.cli(localizeArgs(repo, c), BOUND_S);
        return expectRanking(r, ranking, { warning: true });
      });
    }
  },
};

/** Runs `issueloc <args>` from a shell running `setup` first (stdout: `stdoutTo`); stdout is not captured. */
async function runInShell(ctx: ProbeContext, setup: string, stdoutTo: string, args: readonly string[], boundS: number): Promise<RunResult> {
  const timeoutMs = await ctx.boundMs(boundS);
  const t0 = performance.now();
  return new Promise((done) => {
    const child = spawn('/bin/sh', ['-c', `${setup}; exec "$@" > ${stdoutTo}`, 'sh', process.execPath, ...CLI_NODE_ARGS, BIN, ...args], { env: cliEnv(ctx.home), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => { if (stderr.length < 1 << 20) stderr += d.toString('utf8'); });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ args, code, signal, stdout: '', stderr, ms: performance.now() - t0, timedOut, overMemory: false, killedOnPurpose: false, peakRssMb: 0, boundMs: timeoutMs });
    });
  });
}

/** Exit 2 with exactly one stderr line `issueloc: …` matching `names`. */
function oneLineExit2(r: RunResult, names: RegExp, what: string): Failure | undefined {
  const bad = badEnd(r);
  if (bad) return bad;
  if (r.code !== 2) return wrong(r, `exit ${r.code} (expected 2): ${firstLine(r.stderr)}`);
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  if (lines.length !== 1 || !lines[0].startsWith('issueloc: ')) return wrong(r, `expected one line 'issueloc: …', got ${lines.length}: ${firstLine(r.stderr)}`);
  return names.test(lines[0]) ? undefined : wrong(r, `the line does not name ${what}: ${lines[0]}`);
}

/** Exit 0 with exactly one stderr line `issueloc: warning: …` matching `names` (an answer not saved). */
function oneWarningExit0(r: RunResult, names: RegExp): Failure | undefined {
  const bad = expectExit(r, [0]);
  if (bad) return bad;
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  if (lines.length !== 1 || !lines[0].startsWith('issueloc: warning: ')) return wrong(r, `expected one line 'issueloc: warning: …', got ${lines.length}: ${firstLine(r.stderr)}`);
  return names.test(lines[0]) ? undefined : wrong(r, `the warning does not name the cache folder: ${lines[0]}`);
}

const fullDisk: Probe = {
  area: 'cachefs', name: 'full-disk', quick: true,
  expect: 'a full disk under the cache (a file-size limit: EFBIG) or a full stdout (/dev/full): one line naming the path or standard output, exit 2 (localize on a full cache: one warning, exit 0)',
  async run(ctx) {
    const { repo } = await shopReference(ctx);
    const limited = [['index', (c: string) => ['index', '--repo', repo, '--cache-dir', c, '--no-progress']], ['localize', (c: string) => localizeArgs(repo, c)]] as const;
    for (const [label, args] of ctx.quick ? limited.slice(0, 1) : limited) {
      await ctx.attempt(`${label}: cache writes past a 2 KiB file-size limit`, async () => {
        const c = join(ctx.dir(`limit-${label}`), 'c');
        const r = await runInShell(ctx, "trap '' XFSZ; ulimit -f 4", '/dev/null', args(c), BOUND_S);
        const names = new RegExp(c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
        return label === 'index' ? oneLineExit2(r, names, 'the cache path') : oneWarningExit0(r, names);
      });
    }
    const { cacheDir } = await shopReference(ctx);
    const full = [
      ['localize --json', localizeArgs(repo, cacheDir)],
      ['localize (table)', localizeArgs(repo, cacheDir).filter((a) => a !== '--json')],
      ['cache show', ['cache', 'show', '--cache-dir', cacheDir]],
    ] as const;
    for (const [label, args] of ctx.quick ? full.slice(0, 1) : full) {
      await ctx.attempt(`${label} > /dev/full`, async () => {
        const r = await runInShell(ctx, 'true', '/dev/full', args, BOUND_S);
        return oneLineExit2(r, /standard output/, '"standard output"');
      });
    }
  },
};

export const cachefsProbes: Probe[] = [pruneLinks, foreignBlob, fullDisk];
