/** What several areas share: the shop's command lines, reference rankings, the endpoint server, snapshots. */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FaultyEndpoints } from './endpoints.js';
import { shopRepo, SHOP_ISSUE } from './fixtures.js';
import type { ProbeContext, Shared } from './probe.js';
import { referenceRanking, type Ranking } from './ranking.js';

/** `localize --json --level all` of an issue on a repository with an explicit cache folder. */
export function localizeArgs(repo: string, cacheDir: string | undefined, issue = SHOP_ISSUE, extra: readonly string[] = []): string[] {
  return ['localize', '--repo', repo, '--issue', issue, '--json', '--level', 'all', '--no-progress', ...(cacheDir ? ['--cache-dir', cacheDir] : []), ...extra];
}

/** A clean run's ranking and the cache folder it filled (a template: copy it, never change it). */
export interface Reference {
  ranking: Ranking;
  cacheDir: string;
  /** How long the clean run took (ms). */
  ms: number;
}

/**
 * The ranking a clean run gives (a fresh cache folder), memoised per suite under `key`.
 * @param args the command line, given a fresh cache folder.
 */
export function reference(ctx: ProbeContext, key: string, args: (freshCache: string) => string[], boundS = 60): Promise<Reference> {
  return ctx.shared.memo(`ref:${key}`, async () => {
    const cacheDir = join(ctx.shared.dir(`ref-${key}`), 'c');
    const r = await ctx.cli(args(cacheDir), boundS);
    return { ranking: referenceRanking(r), cacheDir, ms: r.ms };
  });
}

/** The shop repository and its clean lexical ranking of {@link SHOP_ISSUE}. */
export async function shopReference(ctx: ProbeContext): Promise<Reference & { repo: string }> {
  const repo = await shopRepo(ctx.shared);
  return { repo, ...(await reference(ctx, 'shop', (c) => localizeArgs(repo, c))) };
}

/** The suite's endpoint server (started once, stopped with the suite), reset to good answers. */
export async function endpoints(shared: Shared): Promise<FaultyEndpoints> {
  const server = await shared.memo('endpoints', async () => {
    const s = await FaultyEndpoints.start();
    shared.onRemove(() => s.close());
    return s;
  });
  server.embed = 'good';
  server.chat = 'good';
  server.dropConnections();
  return server;
}

/** `--embedder` of an OpenAI-compatible server at `url` (ending in /v1). */
export const embedderOptions = (url: string) => ['--embedder', `openai:${url}#faulty-embed`];
/** `--rerank` of an OpenAI-compatible server at `url`, on the top 10 functions. */
export const rerankOptions = (url: string) => ['--rerank', `openai:${url}#faulty-chat`, '--rerank-top', '10'];

/** Path → size, mtime and link target of every entry under the folders (the folders themselves included). */
export type Snapshot = Map<string, string>;

export function snapshot(dirs: readonly string[], skip: (path: string) => boolean = () => false): Snapshot {
  const out: Snapshot = new Map();
  const walk = (p: string) => {
    if (skip(p)) return;
    let st;
    try { st = lstatSync(p); } catch { return; }
    const link = st.isSymbolicLink() ? `->${readlinkSync(p)}` : '';
    out.set(p, `${st.isDirectory() ? 'd' : st.size}:${st.isDirectory() ? '' : st.mtimeMs}${link}`);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  for (const d of dirs) walk(d);
  return out;
}

/** Entries added, removed or changed between two snapshots (paths relative to `base` when under it). */
export function snapshotDiff(before: Snapshot, after: Snapshot, base?: string): string[] {
  const show = (p: string) => (base && p.startsWith(base) ? relative(base, p) || '.' : p);
  const out: string[] = [];
  for (const [p, v] of after) {
    const was = before.get(p);
    if (was === undefined) out.push(`+${show(p)}`);
    else if (was !== v && !v.startsWith('d')) out.push(`~${show(p)}`);
  }
  for (const p of before.keys()) if (!after.has(p)) out.push(`-${show(p)}`);
  return out.sort();
}
