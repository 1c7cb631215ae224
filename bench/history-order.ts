/**
 * bench/history-order: is a `localize --model default` ranking a function of (repository, base
 * commit, issue) alone, whatever the history cache holds?
 *
 *   node dist/bench/history-order.js [--data swebench_lite.jsonl] [--mirrors DIR]
 *       [--repos psf/requests,pallets/flask] [--limit N] [--cache-per-repo] [--work DIR] [--json]
 *
 * Ranks every issue (SWE-bench Lite: issue text at its base commit) with the built-in model three
 * ways: each issue with a fresh cache folder of its own; all issues with one shared cache folder,
 * oldest report first; all with another shared folder, newest first. Issues of the repositories
 * are interleaved by report time, so the shared folders hold several repositories, as a
 * multi-repository run with one `--cache-dir` does (`--cache-per-repo`: one shared folder per
 * repository instead, as the benchmark scripts' `<cache>/owner+name`). Repositories are looked up under --mirrors as
 * OWNER+NAME/repo, then swe-bench+OWNER__NAME/repo.
 *
 * Prints per way: issues that failed (with the first error), rankings (top 10 files, modules
 * and functions, scores included) that differ from the fresh-cache ranking of the same issue,
 * and median milliseconds of opening the index, of the history step (reading or loading the
 * history log and the base commit's statistics) and of the model query; then how many issues
 * ranked differently between the two orders.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs } from './lib/args.js';
import { openLocalizer, type IssueLocalizer } from '../src/index.js';
import { median } from './lib/stats.js';
import { mirrorPath } from '../src/repo/mirrors.js';
import { MIRRORS_DIR, dataFile } from './lib/data.js';

const { values: args } = benchArgs({
  options: {
    data: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    repos: { type: 'string', default: 'psf/requests,pallets/flask' },
    limit: { type: 'string' },
    work: { type: 'string' },
    'cache-per-repo': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

interface Instance { instance_id: string; repo: string; base_commit: string; problem_statement: string; created_at: string }
interface Run { ranking?: string; error?: string; indexMillis: number; historyMillis: number; queryMillis: number }

const findMirror = (repo: string): string | undefined => mirrorPath(args.mirrors!, repo) ?? undefined;

async function rank(inst: Instance, repoPath: string, cacheDir: string): Promise<Run> {
  const t0 = performance.now();
  let localizer: IssueLocalizer;
  try {
    localizer = await openLocalizer({ repo: repoPath, rev: inst.base_commit, cacheDir, model: 'default' });
    await localizer.prepare();
  } catch (e) {
    return { error: (e as Error).message, indexMillis: performance.now() - t0, historyMillis: NaN, queryMillis: NaN };
  }
  const indexMillis = performance.now() - t0;
  try {
    const { files, modules, functions, matchedQueryTerms, setupMillis, millis } = await localizer.localize(inst.problem_statement, { top: 10 });
    return { ranking: JSON.stringify({ files, modules, functions, matchedQueryTerms }), indexMillis, historyMillis: setupMillis, queryMillis: millis };
  } catch (e) {
    return { error: (e as Error).message, indexMillis, historyMillis: NaN, queryMillis: NaN };
  } finally {
    await localizer.close();
  }
}

async function main() {
  const wanted = new Set(args.repos!.split(','));
  const all: Instance[] = readFileSync(resolve(args.data!), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Instance);
  const paths = new Map<string, string>();
  const missing = new Set<string>();
  let issues = all.filter((i) => wanted.has(i.repo)).filter((i) => {
    const p = paths.get(i.repo) ?? findMirror(i.repo);
    if (!p) missing.add(i.repo);
    else paths.set(i.repo, p);
    return p !== undefined;
  });
  issues.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.instance_id < b.instance_id ? -1 : 1));
  if (args.limit) issues = issues.slice(0, Number(args.limit));
  if (missing.size > 0) process.stderr.write(`history-order: no mirror for ${[...missing].join(', ')}\n`);
  const work = args.work ?? mkdtempSync(join(tmpdir(), 'issueloc-history-order-'));
  const shared = (name: string) => (inst: Instance) => join(work, name, args['cache-per-repo'] ? inst.repo.replace('/', '+') : '');
  const ways: [string, Instance[], (inst: Instance, k: number) => string][] = [
    ['fresh cache per issue', issues, (_, k) => join(work, `fresh-${k}`)],
    ['shared cache, oldest first', issues, shared('shared-forward')],
    ['shared cache, newest first', [...issues].reverse(), shared('shared-reverse')],
  ];
  const results = new Map<string, Map<string, Run>>();
  try {
    for (const [name, order, cacheOf] of ways) {
      const runs = new Map<string, Run>();
      for (let k = 0; k < order.length; k++) {
        const inst = order[k];
        runs.set(inst.instance_id, await rank(inst, paths.get(inst.repo)!, cacheOf(inst, k)));
        process.stderr.write(`\rhistory-order: ${name}: ${k + 1}/${order.length}`);
      }
      process.stderr.write('\n');
      results.set(name, runs);
    }
  } finally {
    if (!args.work) rmSync(work, { recursive: true, force: true });
  }
  const fresh = results.get(ways[0][0])!;
  const rows = ways.map(([name]) => {
    const runs = [...results.get(name)!.values()];
    const failed = runs.filter((r) => r.error !== undefined);
    const differ = issues.filter((i) => {
      const r = results.get(name)!.get(i.instance_id)!;
      const f = fresh.get(i.instance_id)!;
      return r.ranking === undefined || f.ranking === undefined || r.ranking !== f.ranking;
    }).length;
    const ok = runs.filter((r) => r.error === undefined);
    return {
      way: name, issues: runs.length, failed: failed.length, firstError: failed[0]?.error,
      differFromFresh: differ,
      indexMs: median(runs.map((r) => r.indexMillis)), historyMs: median(ok.map((r) => r.historyMillis)), queryMs: median(ok.map((r) => r.queryMillis)),
    };
  });
  const [fwd, rev] = [results.get(ways[1][0])!, results.get(ways[2][0])!];
  const byOrder = issues.filter((i) => {
    const a = fwd.get(i.instance_id)!.ranking;
    const b = rev.get(i.instance_id)!.ranking;
    return a === undefined || b === undefined || a !== b;
  }).length;
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ rows, changedByOrder: byOrder, issues: issues.length })}\n`);
    return;
  }
  console.log(`${issues.length} issues of ${[...paths.keys()].join(', ')}; built-in model, top 10 per level; shared caches ${args['cache-per-repo'] ? 'one per repository' : 'across repositories'}\n`);
  console.log('| way | failed | ranking differs from fresh cache | index ms | history ms | query ms |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.way} | ${r.failed} of ${r.issues} | ${r.differFromFresh} of ${r.issues} | ${r.indexMs.toFixed(0)} | ${r.historyMs.toFixed(0)} | ${r.queryMs.toFixed(0)} |`);
  }
  console.log(`\nrankings changed by order (oldest first vs newest first): ${byOrder} of ${issues.length}`);
  for (const r of rows) if (r.firstError) console.log(`first error (${r.way}): ${r.firstError}`);
}

main().catch((e) => {
  process.stderr.write(`history-order: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 3;
});
