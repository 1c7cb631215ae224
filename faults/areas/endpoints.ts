/**
 * Misbehaving endpoints (issues 4, 13): the embedder and the reranker against a refused port and
 * a fake OpenAI-compatible server on 127.0.0.1 that never answers, trickles, fails with 500,
 * answers 150 MB, answers garbage, or (embeddings) answers broken vectors. Each run must exit 0
 * with a warning and the order of the stage before within the endpoint bound — the lexical order
 * for the embedder (with `--embedder` the default has no model), the built-in model's for the
 * reranker —, and a broken answer must not be cached: the next run against a good server gives
 * what a fresh cache gives.
 */
import { cpSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { embedderOptions, endpoints, localizeArgs, reference, rerankOptions, shopReference } from '../common.js';
import { filesUnder } from '../corrupt.js';
import { FaultyEndpoints, TRANSPORT_FAULTS, VECTOR_FAULTS, type Behaviour } from '../endpoints.js';
import { SHOP_ISSUE } from '../fixtures.js';
import { DEADLINE_OPTION, ENDPOINT_BOUND_S, RESPONSE_CACHE_LIMIT_BYTES } from '../interface.js';
import { wrong, type Probe, type ProbeContext } from '../probe.js';
import { expectRanking } from '../ranking.js';

type Role = 'embedder' | 'reranker';
type Fault = Behaviour | 'refused';

/** The quick probes' per-issue deadline (seconds): a hanging endpoint then costs this, not the default bound. */
const QUICK_DEADLINE_S = 3;

function optionsOf(role: Role, url: string): string[] {
  return role === 'embedder' ? embedderOptions(url) : rerankOptions(url);
}

function bytesUnder(dir: string): number {
  return filesUnder(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

async function faultProbe(ctx: ProbeContext, role: Role, fault: Fault, deadlineS: number | undefined): Promise<void> {
  const server = await endpoints(ctx.shared);
  const { repo, ranking: clean, cacheDir: lexicalCache } = await shopReference(ctx);
  // the stage before: lexical retrieval for the embedder, the built-in model for the reranker
  const before = role === 'embedder' ? (await reference(ctx, 'shop-lexical', (c) => localizeArgs(repo, c, SHOP_ISSUE, ['--model', 'none']))).ranking : clean;
  const goodArgs = (c: string) => localizeArgs(repo, c, SHOP_ISSUE, optionsOf(role, server.url));
  const good = await reference(ctx, `shop-${role}`, goodArgs);
  const url = fault === 'refused' ? await FaultyEndpoints.refusedUrl() : server.url;
  const deadline = deadlineS === undefined ? [] : [DEADLINE_OPTION, String(deadlineS)];
  const bound = deadlineS ?? ENDPOINT_BOUND_S;
  await ctx.attempt(`${role} ${fault}${deadlineS ? ` ${DEADLINE_OPTION} ${deadlineS}` : ''}`, async () => {
    // the lexical cache is there already, so the bound measures the endpoint's cost
    const cache = join(ctx.dir(), 'c');
    cpSync(lexicalCache, cache, { recursive: true });
    if (role === 'embedder') server.embed = fault === 'refused' ? 'good' : fault;
    else server.chat = fault === 'refused' ? 'good' : fault;
    const r = await ctx.cli(localizeArgs(repo, cache, SHOP_ISSUE, [...optionsOf(role, url), ...deadline]), bound);
    server.embed = 'good';
    server.chat = 'good';
    server.dropConnections();
    const f = expectRanking(r, before, { scores: false, warning: true });
    if (f) return f;
    if (fault === 'huge' && role === 'reranker') {
      const held = bytesUnder(join(cache, 'llm'));
      if (held > RESPONSE_CACHE_LIMIT_BYTES) return wrong(r, `the response cache holds ${held} bytes after a huge answer`);
    }
    if (fault === 'refused' || fault === 'never-answers' || fault === 'slow' || fault === 'http-500') return undefined;
    // a broken answer is never cached: a good server now gives the fresh good ranking
    const again = await ctx.cli(goodArgs(cache), ENDPOINT_BOUND_S);
    const g = expectRanking(again, good.ranking);
    return g ? { ...g, detail: `after the ${fault} answer, a good server: ${g.detail} (the broken answer was cached)` } : undefined;
  });
}

const QUICK: Record<Role, Fault[]> = {
  embedder: ['refused', 'never-answers', 'null-vectors', 'wrong-dims'],
  reranker: ['never-answers', 'huge'],
};

function probes(role: Role, faults: readonly Fault[]): Probe[] {
  const out: Probe[] = [];
  for (const fault of faults) {
    const hangs = fault === 'never-answers' || fault === 'slow';
    out.push({
      area: 'endpoints', name: `${role}-${fault}`, quick: QUICK[role].includes(fault) && !hangs,
      expect: `${role} endpoint ${fault}: exit 0, a warning, the ${role === 'embedder' ? 'lexical' : 'model\'s'} order, within ${ENDPOINT_BOUND_S} s${fault === 'refused' || hangs || fault === 'http-500' ? '' : '; nothing of it cached'}`,
      run: (ctx) => faultProbe(ctx, role, fault, undefined),
    });
    if (hangs) {
      out.push({
        area: 'endpoints', name: `${role}-${fault}-deadline`, quick: QUICK[role].includes(fault),
        expect: `${role} endpoint ${fault} with \`${DEADLINE_OPTION} ${QUICK_DEADLINE_S}\`: exit 0, a warning, the ${role === 'embedder' ? 'lexical' : 'model\'s'} order within ${QUICK_DEADLINE_S} s`,
        run: (ctx) => faultProbe(ctx, role, fault, QUICK_DEADLINE_S),
      });
    }
  }
  return out;
}

export const endpointProbes: Probe[] = [
  ...probes('embedder', ['refused', ...TRANSPORT_FAULTS, ...VECTOR_FAULTS]),
  ...probes('reranker', ['refused', ...TRANSPORT_FAULTS]),
];

