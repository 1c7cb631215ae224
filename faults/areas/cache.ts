/**
 * Each kind of cache file corrupted (issues 6, 9): bit flips, truncation, emptied, replaced by
 * `[]`, `{}` or random bytes. The next run must exit 0 with what a fresh cache gives and a
 * warning (a corrupt entry is rebuilt, never trusted, never an error); the run after it must be
 * clean again (no warning: the entry was rebuilt; not checked by --quick). The index files are
 * files of checked blocks, a block verified when a query first reads it: bits flipped only inside
 * blocks may give no warning (a block the query never read) but never another ranking, and a bit
 * flipped in every block must give the warning (the query reads some) and the fresh ranking.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { embedderOptions, endpoints, localizeArgs, reference, rerankOptions, shopReference } from '../common.js';
import { BLOCK_CORRUPTION, cacheFiles, changedInBlocksOnly, corruptFile, CORRUPTIONS, type Corruption } from '../corrupt.js';
import { historyRepo, SHOP_ISSUE } from '../fixtures.js';
import { BLOCK_FILE_KINDS, CACHE_FILE_KINDS, type CacheFileKind } from '../interface.js';
import { expectExit, firstLine, wrong, type Failure, type Probe, type ProbeContext } from '../probe.js';
import { expectRanking } from '../ranking.js';
import type { FaultyEndpoints } from '../endpoints.js';
import type { RunResult } from '../cli.js';

const BOUND_S = 60;

/** A cache to corrupt: how it is filled, the command that reads it, and what that command must give. */
interface Subject {
  /** Fills a fresh cache folder; returns the command line reading it (given the folder). */
  prepare(ctx: ProbeContext): Promise<{ args: (cache: string) => string[]; template: string; check: (r: RunResult, warning: boolean | undefined) => Failure | undefined }>;
  /** Run before the command on the corrupted copy (e.g. drop the indexes so the blob entries are read). */
  before?(cache: string): void;
  /** The folder of the cache files under the cache folder (`''` = the cache folder). */
  under?: string;
}

/** `--model default` on the repository with a history (its log, its stored signals). */
async function historyModel(ctx: ProbeContext): ReturnType<Subject['prepare']> {
  const h = await historyRepo(ctx.shared);
  const args = (c: string) => localizeArgs(h.dir, c, SHOP_ISSUE, ['--model', 'default']);
  const { ranking, cacheDir } = await reference(ctx, 'history-model', args);
  return { args, template: cacheDir, check: (r, warning) => expectRanking(r, ranking, { warning }) };
}

/** Lexical localize on the shop. */
function lexical(): Subject['prepare'] {
  return async (ctx) => {
    const { repo, ranking, cacheDir } = await shopReference(ctx);
    return { args: (c) => localizeArgs(repo, c), template: cacheDir, check: (r, warning) => expectRanking(r, ranking, { warning }) };
  };
}

/** localize with extra options on the shop, against the suite's endpoint server (good answers). */
function withEndpoint(key: string, extra: (server: FaultyEndpoints) => string[]): Subject['prepare'] {
  return async (ctx) => {
    const server = await endpoints(ctx.shared);
    const { repo } = await shopReference(ctx);
    const args = (c: string) => localizeArgs(repo, c, SHOP_ISSUE, extra(server));
    const { ranking, cacheDir } = await reference(ctx, key, args);
    return { args, template: cacheDir, check: (r, warning) => expectRanking(r, ranking, { warning }) };
  };
}

const SUBJECTS: Record<CacheFileKind, Subject> = {
  index: { prepare: lexical() },
  fileIndex: { prepare: lexical() },
  nameTable: { prepare: lexical() },
  blobTerms: {
    prepare: lexical(),
    before: (cache) => { for (const f of cacheFiles(cache, 'index')) rmSync(join(cache, f)); for (const f of cacheFiles(cache, 'fileIndex')) rmSync(join(cache, f)); },
  },
  vectors: { prepare: withEndpoint('shop-embedder', (s) => embedderOptions(s.url)) },
  vectorMeta: { prepare: withEndpoint('shop-embedder', (s) => embedderOptions(s.url)) },
  responses: { prepare: withEndpoint('shop-reranker', (s) => rerankOptions(s.url)) },
  history: { prepare: historyModel },
  commitHistory: { prepare: historyModel },
  features: {
    under: 'features',
    prepare: async (ctx) => {
      const h = await historyRepo(ctx.shared);
      const dataset = await ctx.shared.memo('cache:dataset', async () => {
        const out = join(ctx.shared.dir('cache-dataset'), 'ds.jsonl');
        const r = await ctx.cli(['dataset', 'build', '--repo', h.dir, '--issues', h.issuesFile, '--key', 'SHOP', '--functions', '-o', out, '--no-progress'], 120);
        if (r.code !== 0) throw new Error(`dataset build for the feature cache: ${firstLine(r.stderr)}`);
        return out;
      });
      // cache = <dir>/c: index and history under it, the features cache in <dir>/c/features, the model beside it
      const args = (c: string) => ['train', '--dataset', dataset, '--cache-dir', join(c, 'train'), '--features-cache', join(c, 'features'), '-o', join(c, '..', 'model.json'), '--no-progress'];
      const model = await ctx.shared.memo('ref:train-model', async () => {
        const c = join(ctx.shared.dir('ref-train'), 'c');
        const r = await ctx.cli(args(c), 120);
        const bad = expectExit(r, [0]);
        if (bad) throw new Error(`reference train: ${bad.detail}`);
        return { text: readFileSync(join(c, '..', 'model.json'), 'utf8'), cacheDir: c };
      });
      return {
        args,
        template: model.cacheDir,
        check: (r, warning) => {
          const bad = expectExit(r, [0]);
          if (bad) return bad;
          const out = r.args[r.args.indexOf('-o') + 1];
          if (readFileSync(out, 'utf8') !== model.text) return wrong(r, 'the model trained on the corrupted feature cache differs from one trained on a fresh cache');
          const warned = /^issueloc: warning: /m.test(r.stderr);
          if (warning === true && !warned) return wrong(r, 'same model but no warning on stderr (silent)');
          if (warning === false && warned) return wrong(r, `unexpected warning: ${firstLine(r.stderr)}`);
          return undefined;
        },
      };
    },
  },
};

/** The corruptions tried on a kind: quick = one (by seed and kind); full = all, `repeat` times. */
function corruptionsFor(ctx: ProbeContext, kind: CacheFileKind): Corruption[] {
  const all: Corruption[] = BLOCK_FILE_KINDS.includes(kind) ? [...CORRUPTIONS, BLOCK_CORRUPTION] : [...CORRUPTIONS];
  if (ctx.quick) return [all[(ctx.opts.seed + kind.length) % all.length]];
  return Array.from({ length: ctx.opts.repeat }, () => all).flat();
}

async function corruptKind(ctx: ProbeContext, kind: CacheFileKind): Promise<void> {
  const subject = SUBJECTS[kind];
  const { args, check, template } = await subject.prepare(ctx);
  const under = subject.under ? join(template, subject.under) : template;
  const files = cacheFiles(under, kind === 'features' ? 'features' : kind);
  if (files.length === 0) {
    await ctx.attempt('find the files', async () => ({ kind: 'probe', detail: `no ${kind} file (${CACHE_FILE_KINDS[kind]}) in a filled cache: the cache layout changed; adjust faults/interface.ts` }));
    return;
  }
  for (const how of corruptionsFor(ctx, kind)) {
    const file = ctx.rng.pick(files);
    await ctx.attempt(`${how} ${file}`, async () => {
      const cache = join(ctx.dir(kind), 'c');
      cpSync(template, cache, { recursive: true });
      const target = subject.under ? join(cache, subject.under, file) : join(cache, file);
      const before = readFileSync(target);
      const what = corruptFile(target, how, ctx.rng);
      // bits flipped in blocks only: a warning when the query read one of them, none else
      const warns = BLOCK_FILE_KINDS.includes(kind) && changedInBlocksOnly(before, readFileSync(target)) && how !== BLOCK_CORRUPTION ? undefined : true;
      subject.before?.(cache);
      const first = await ctx.cli(args(cache), BOUND_S);
      const f1 = check(first, warns);
      if (f1) return { ...f1, detail: `${f1.detail} [${kind} file ${file}: ${what}]` };
      if (ctx.quick) return undefined;
      const second = await ctx.cli(args(cache), BOUND_S);
      const f2 = check(second, false);
      if (f2) return { ...f2, detail: `second run after the corruption: ${f2.detail} [${file}: ${what}]` };
      return undefined;
    });
  }
}

const EXPECT: Record<CacheFileKind, string> = {
  index: 'a corrupted function index file (`index/*.bin`): exit 0, the fresh ranking, a warning (bits flipped only in blocks of terms: when the query read one); rebuilt',
  fileIndex: 'a corrupted file-level index (`index/*.files.bin`): exit 0, the fresh ranking, a warning (bits flipped only in blocks of terms: when the query read one); rebuilt',
  nameTable: 'a corrupted name table of an index (`index/*.names.bin`): exit 0, the fresh ranking, a warning; rebuilt',
  blobTerms: 'a corrupted blob entry (`blobs-*/…bin`), read by a rebuild: exit 0, the fresh ranking, a warning',
  vectors: 'a corrupted function-vector entry (`vectors/…f32`): exit 0, the fresh fused ranking, a warning',
  vectorMeta: "a corrupted embedder record (`vectors/*/model.json`): exit 0, the fresh fused ranking, a warning",
  responses: 'a corrupted LLM answer (`llm/…json`): exit 0, the fresh reranked ranking, a warning',
  history: 'a corrupted history log (`history/…log.json`) under `--model default`: exit 0, the fresh ranking, a warning',
  commitHistory: 'corrupted stored history signals of the base commit (`history/…m100.bin`: file histories, commit-message index) under `--model default`: exit 0, the fresh ranking, a warning; rebuilt',
  features: 'a corrupted feature-cache entry (`train --features-cache`): the same model as a fresh cache, a warning',
};

const QUICK: CacheFileKind[] = ['index', 'nameTable', 'blobTerms', 'responses', 'history'];

export const cacheProbes: Probe[] = (Object.keys(SUBJECTS) as CacheFileKind[]).map((kind) => ({
  area: 'cache' as const,
  name: `corrupt-${kind}`,
  quick: QUICK.includes(kind),
  expect: EXPECT[kind],
  run: (ctx: ProbeContext) => corruptKind(ctx, kind),
}));

