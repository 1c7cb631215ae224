/**
 * bench/swebench-lite: accuracy, speed and memory of `localize` on SWE-bench Lite.
 *
 *   node dist/bench/swebench-lite.js [--mirrors DIR] [--repos a/b,c/d] [--limit N]
 *       [--cache-dir DIR] [--fresh] [--out per-issue.json] [--weights path=3,name=3,body=1]
 *       [--k1 X] [--b X] [--delta X] [--file-prior X] [--configs grid.json] [--json]
 *       [--model default|none|FILE] [--embedder onnx:DIR|openai:URL#MODEL] [--fusion rrf|weighted|dense|lexical]
 *       [--rerank openai:URL#MODEL|gguf:FILE] [--rerank-top 100] [--rerank-window 10]
 *       [--rerank-stride 5] [--rerank-mode first-token|permutation]
 *
 * `--configs` takes a JSON file holding a list of {"name", ...ranking options} (see RankingOptions
 * in src/retrieve/localize.ts); every configuration is evaluated on the same loaded indexes and
 * printed as one row, so settings can be compared side by side in one run.
 *
 * The ranking is `openLocalizer`'s, as `issueloc localize` runs it: with no flags the library's
 * default (the built-in model, then the placement rules); `--model none`, ranking options or
 * `--configs` rank lexically (then the placement rules), `--embedder` fuses dense retrieval.
 *
 * Protocol (the data folder's README.md): corpus = functions of non-test Python files at base_commit
 * (`--languages python`, the default here; `--languages ''` indexes every language); gold
 * functions = existing functions the gold patch edits; instances with no gold function dropped;
 * files and modules ranked by first occurrence in the function ranking; Acc@k = all gold in top k.
 * Repositories are looked up under --mirrors as OWNER+NAME/repo, then swe-bench+OWNER__NAME/repo;
 * instances whose repository is absent are skipped and counted.
 *
 * Prints: the Acc@k table next to the published BM25 row and the Python reference floor, and per
 * repository the cold index time (first base commit, empty cache), the median time to index each
 * further base commit (blob cache warm), the median warm query time, and peak RSS. With
 * --embedder/--rerank (docs/rerank.md): retrieval is fused with the bi-encoder and/or the top
 * functions are reranked by the LLM, and a cost table gives per issue the mean LLM calls,
 * input/output tokens and seconds.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchArgs } from './lib/args.js';
import { GitRepo } from '../src/repo/git.js';
import type { RankingOptions } from '../src/retrieve/localize.js';
import type { RerankStats } from '../src/llm-rerank/listwise.js';
import { accAtK } from '../src/metrics/ranking-metrics.js';
import { goldForPatch } from '../src/dataset/gold.js';
import { mirrorPath } from '../src/repo/mirrors.js';
import { parseRankingOptions } from '../src/retrieve/ranking-spec.js';
import { dataFile, MIRRORS_DIR } from './lib/data.js';
import { openLocalizer, type IssueLocalizer, type LocalizerOptions } from '../src/index.js';

const K = { file: [1, 3, 5], module: [5, 10], function: [5, 10] } as const;
type Level = keyof typeof K;
const PUBLISHED_BM25 = { file: [38.69, 51.82, 61.68], module: [45.26, 52.92], function: [31.75, 36.86] };
const REFERENCE_FLOOR = { file: [47.8, 67.5, 74.1], module: [56.2, 69.0], function: [41.6, 50.4] };

const { values: args } = benchArgs({
  options: {
    data: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    repos: { type: 'string' },
    limit: { type: 'string' },
    'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
    fresh: { type: 'boolean', default: false },
    out: { type: 'string' },
    weights: { type: 'string' },
    k1: { type: 'string' },
    b: { type: 'string' },
    delta: { type: 'string' },
    'file-prior': { type: 'string' },
    configs: { type: 'string' },
    languages: { type: 'string', default: 'python' },
    json: { type: 'boolean', default: false },
    embedder: { type: 'string' },
    model: { type: 'string' },
    fusion: { type: 'string', default: 'rrf' },
    rerank: { type: 'string' },
    'rerank-top': { type: 'string' },
    'rerank-window': { type: 'string' },
    'rerank-stride': { type: 'string' },
    'rerank-mode': { type: 'string' },
  },
});

interface Instance { instance_id: string; repo: string; base_commit: string; problem_statement: string; patch: string }
interface PerIssue {
  id: string; repo: string;
  gold: Record<Level, string[]>;
  ranks: Record<Level, (number | null)[]>;
  acc: Record<string, number>;
  queryMillis: number;
  rerank?: RerankStats;
}

const findMirror = (repo: string): string | undefined => mirrorPath(args.mirrors!, repo) ?? undefined;

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const instances: Instance[] = readFileSync(resolve(args.data!), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const wanted = args.repos ? new Set(args.repos.split(',')) : undefined;
  const byRepo = new Map<string, Instance[]>();
  for (const inst of instances) {
    if (wanted && !wanted.has(inst.repo)) continue;
    const list = byRepo.get(inst.repo) ?? [];
    list.push(inst);
    byRepo.set(inst.repo, list);
  }
  const configs: (RankingOptions & { name: string })[] = args.configs
    ? JSON.parse(readFileSync(args.configs, 'utf8'))
    : [{ name: 'issueloc', ...parseRankingOptions({ weights: args.weights, k1: args.k1, b: args.b, delta: args.delta, filePrior: args['file-prior'] }) }];
  const results: PerIssue[][] = configs.map(() => []);
  const repoRows: Record<string, unknown>[] = [];
  let missingRepo = 0, noGold = 0;
  const limit = args.limit ? Number(args.limit) : Infinity;
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const stages: Partial<LocalizerOptions> = {
    model: args.model,
    embedder: args.embedder, fusion: args.embedder ? args.fusion as LocalizerOptions['fusion'] : undefined,
    reranker: args.rerank,
    rerank: args.rerank ? {
      top: num(args['rerank-top']), window: num(args['rerank-window']), stride: num(args['rerank-stride']),
      mode: args['rerank-mode'] as 'first-token' | 'permutation' | undefined,
    } : undefined,
    onWarning: (m) => process.stderr.write(`swebench-lite: warning: ${m}\n`),
  };
  for (const [repoName, list] of byRepo) {
    const dir = findMirror(repoName);
    if (!dir) { missingRepo += list.length; continue; }
    const repo = await GitRepo.open(dir);
    const cacheDir = join(args['cache-dir']!, repoName.replace('/', '+'));
    if (args.fresh) rmSync(cacheDir, { recursive: true, force: true });
    const languages = args.languages ? args.languages.split(',') : [];
    const localizers: IssueLocalizer[] = [];
    for (const { name: _name, ...ranking } of configs) {
      localizers.push(await openLocalizer({ repo: dir, cacheDir, index: { languages }, ranking, ...stages }));
    }
    const indexMillis: number[] = [];
    const queryMillis: number[] = [];
    let cold: number | undefined;
    let evaluated = 0;
    for (const inst of list.slice(0, limit)) {
      const commit = await repo.resolveCommit(inst.base_commit);
      const { built, millis: ms } = await localizers[0].prepare(commit);
      if (built && cold === undefined) cold = ms;
      else if (built) indexMillis.push(ms);
      const gold = await goldForPatch(repo, commit, inst.patch);
      if (gold.functions.length === 0) { noGold++; continue; }
      evaluated++;
      const goldByLevel: Record<Level, string[]> = { file: gold.files, module: gold.modules, function: gold.functions };
      for (const [c, localizer] of localizers.entries()) {
        const loc = await localizer.localize(inst.problem_statement, { rev: commit, top: 100, matchedTermsPerItem: 0 });
        const { rerank } = loc;
        const qms = loc.millis; // the query alone: not indexing, nor setting up the stages at a new commit
        if (c === 0) queryMillis.push(qms);
        const ranked = { file: loc.files.map((x) => x.id), module: loc.modules.map((x) => x.id), function: loc.functions.map((x) => x.id) };
        const acc: Record<string, number> = {};
        const ranks = {} as Record<Level, (number | null)[]>;
        for (const level of Object.keys(K) as Level[]) {
          for (const k of K[level]) acc[`${level}@${k}`] = accAtK(ranked[level], goldByLevel[level], k) ?? 0;
          ranks[level] = goldByLevel[level].map((g) => { const i = ranked[level].indexOf(g); return i < 0 ? null : i + 1; });
        }
        results[c].push({ id: inst.instance_id, repo: repoName, gold: goldByLevel, ranks, acc, queryMillis: qms, rerank });
      }
    }
    for (const l of localizers) await l.close();
    await repo.close();
    repoRows.push({
      repo: repoName, instances: evaluated, documents: undefined,
      coldIndexSeconds: cold !== undefined ? +(cold / 1000).toFixed(2) : null,
      nextCommitIndexSeconds: indexMillis.length ? +(median(indexMillis) / 1000).toFixed(2) : null,
      warmQueryMillis: +median(queryMillis).toFixed(1),
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    });
    if (!args.json) process.stderr.write(`${repoName}: ${evaluated} issues, cold ${repoRows.at(-1)!.coldIndexSeconds} s, next commit ${repoRows.at(-1)!.nextCommitIndexSeconds} s, query ${repoRows.at(-1)!.warmQueryMillis} ms\n`);
  }
  const accuracy = (rs: PerIssue[]) => {
    const mean = (key: string) => (rs.length ? (100 * rs.reduce((sum, r) => sum + r.acc[key], 0)) / rs.length : NaN);
    const a: Record<Level, number[]> = { file: K.file.map((k) => mean(`file@${k}`)), module: K.module.map((k) => mean(`module@${k}`)), function: K.function.map((k) => mean(`function@${k}`)) };
    return { ...a, mean7: [...a.file, ...a.module, ...a.function].reduce((x, y) => x + y, 0) / 7 };
  };
  const n = results[0].length;
  if (args.out) writeFileSync(args.out, JSON.stringify(configs.length === 1 ? results[0] : results, null, 1));
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ evaluated: n, missingRepo, noGold, configs: configs.map((c, i) => ({ ...c, accuracy: accuracy(results[i]) })), repos: repoRows })}\n`);
    return;
  }
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');
  const mean7 = (a: Record<Level, number[]>) => ([...a.file, ...a.module, ...a.function].reduce((x, y) => x + y, 0) / 7).toFixed(1);
  process.stdout.write(`\nSWE-bench Lite: ${n} issues evaluated (${noGold} without a gold function, ${missingRepo} without a local repository)\n\n`);
  process.stdout.write('| system | file Acc@1/3/5 | module Acc@5/10 | function Acc@5/10 | mean of 7 |\n|---|---|---|---|---|\n');
  process.stdout.write(`| published BM25 (SweRank Table 1, 274 issues) | ${fmt(PUBLISHED_BM25.file)} | ${fmt(PUBLISHED_BM25.module)} | ${fmt(PUBLISHED_BM25.function)} | ${mean7(PUBLISHED_BM25)} |\n`);
  process.stdout.write(`| reference BM25 floor (ref_eval.py, 274 issues) | ${fmt(REFERENCE_FLOOR.file)} | ${fmt(REFERENCE_FLOOR.module)} | ${fmt(REFERENCE_FLOOR.function)} | ${mean7(REFERENCE_FLOOR)} |\n`);
  configs.forEach((c, i) => {
    const a = accuracy(results[i]);
    process.stdout.write(`| ${c.name} (${n} issues) | ${fmt(a.file)} | ${fmt(a.module)} | ${fmt(a.function)} | ${a.mean7.toFixed(1)} |\n`);
  });
  process.stdout.write('\n');
  process.stdout.write('| repository | issues | cold index (s) | next base commit (s, median) | warm query (ms, median) | peak RSS (MiB) |\n|---|---|---|---|---|---|\n');
  for (const r of repoRows) process.stdout.write(`| ${r.repo} | ${r.instances} | ${r.coldIndexSeconds ?? '–'} | ${r.nextCommitIndexSeconds ?? '–'} | ${r.warmQueryMillis} | ${r.peakRssMiB} |\n`);
  if (args.embedder || args.rerank) {
    const per = (rs: PerIssue[], f: (r: PerIssue) => number) => (rs.length ? rs.reduce((sum, r) => sum + f(r), 0) / rs.length : NaN);
    process.stdout.write('\n| system | LLM calls / issue | input tokens / issue | output tokens / issue | seconds / issue (retrieve + rerank) |\n|---|---|---|---|---|\n');
    configs.forEach((c, i) => process.stdout.write(`| ${c.name} | ${per(results[i], (r) => r.rerank?.calls ?? 0).toFixed(1)} | ${per(results[i], (r) => r.rerank?.inputTokens ?? 0).toFixed(0)} | ${per(results[i], (r) => r.rerank?.outputTokens ?? 0).toFixed(0)} | ${(per(results[i], (r) => r.queryMillis) / 1000).toFixed(2)} |\n`));
  }
}

main().catch((e) => {
  process.stderr.write(`swebench-lite: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
