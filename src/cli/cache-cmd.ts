import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import Table from 'cli-table3';
import { IssuelocError } from '../errors.js';
import { GitRepo } from '../repo/git.js';
import { cacheDirFor } from '../index/cache-dir.js';
import { withBuildLock } from '../index/build-lock.js';
import { cacheMaxBytes, evictToSize, listCacheEntries, noteCacheSize, parseSize, removeEmptyFolders, summariseCache } from '../index/cache-usage.js';

/** `issueloc cache show|prune`: what a repository's cache folder holds, and trimming it. */
export function registerCacheCommand(program: Command): void {
  const cache = program.command('cache').description("show or prune a repository's cache folder (indexes, parsed blobs, vectors, LLM answers, history)");
  const where = (cmd: Command) => cmd
    .option('--repo <path>', 'the repository whose cache this is (work tree or bare)', '.')
    .option('--cache-dir <path>', 'the cache folder itself (default: that of --repo, or ISSUELOC_CACHE_DIR)')
    .option('--json', 'machine output');
  where(cache.command('show').description('entries, size and last use per kind of cache entry')).action(async (o) => {
    const dir = await cacheFolder(o);
    const summary = summariseCache(listCacheEntries(dir));
    const total = summary.reduce((s, k) => s + k.bytes, 0);
    const maxBytes = cacheMaxBytes();
    if (o.json) {
      process.stdout.write(`${JSON.stringify({
        cacheDir: dir, bytes: total, maxBytes,
        kinds: summary.map((k) => ({ ...k, lastUsed: k.lastUsed > 0 ? new Date(k.lastUsed).toISOString() : null })),
      })}\n`);
      return;
    }
    const table = new Table({ head: ['kind', 'entries', 'size', 'last used'], style: { head: [], border: [], compact: true }, colAligns: ['left', 'right', 'right', 'left'] });
    for (const k of summary) table.push([k.kind, k.entries, formatSize(k.bytes), k.lastUsed > 0 ? formatTime(k.lastUsed) : '–']);
    process.stdout.write(`${dir}\n${table.toString()}\ntotal ${formatSize(total)} of a ${formatSize(maxBytes)} cap\n`);
  });
  where(cache.command('prune').description('remove least recently used entries down to a size (the cap by default), or all of them'))
    .option('--max-size <size>', 'keep at most this much, e.g. 500M (default: the cap, ISSUELOC_CACHE_MAX_SIZE or 2G)')
    .option('--all', 'remove every entry')
    .action(async (o) => {
      const dir = await cacheFolder(o);
      const maxBytes = o.all ? 0 : o.maxSize !== undefined ? parseSize(o.maxSize, '--max-size') : cacheMaxBytes();
      // under the build lock: never removes what a running build writes or is about to load
      const { removed, bytesLeft } = await withBuildLock(ensureIndexFolder(dir), { what: 'a prune' }, async () => {
        const r = evictToSize(dir, maxBytes);
        removeEmptyFolders(dir);
        noteCacheSize(dir, r.bytesLeft);
        return r;
      });
      const freed = removed.reduce((s, e) => s + e.bytes, 0);
      if (o.json) process.stdout.write(`${JSON.stringify({ cacheDir: dir, removed: removed.length, bytesRemoved: freed, bytesLeft })}\n`);
      else process.stdout.write(`removed ${removed.length} entries (${formatSize(freed)}); ${formatSize(bytesLeft)} left in ${dir}\n`);
    });
}

/**
 * The cache folder named by `--cache-dir` (it must exist), else that of `--repo`.
 * @throws IssuelocError for a missing folder or a path that is not a repository.
 */
async function cacheFolder(o: { repo: string; cacheDir?: string }): Promise<string> {
  if (o.cacheDir !== undefined) {
    if (!existsSync(o.cacheDir) || !statSync(o.cacheDir).isDirectory()) throw new IssuelocError(`--cache-dir ${o.cacheDir}: no such folder`);
    return resolve(o.cacheDir);
  }
  const repo = await GitRepo.open(o.repo);
  try {
    return cacheDirFor(repo);
  } finally {
    await repo.close();
  }
}

/** `<dir>/index`, the folder the build lock is taken on, created when missing. */
function ensureIndexFolder(dir: string): string {
  const index = join(dir, 'index');
  try {
    mkdirSync(index, { recursive: true });
  } catch (e) {
    throw new IssuelocError(`cache folder ${dir} is not writable (${(e as NodeJS.ErrnoException).code}): cannot prune it`);
  }
  return index;
}

/** Bytes as `512 B`, `12.3 KiB`, `4.0 GiB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${v.toFixed(1)} ${units[u]}`;
}

function formatTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
