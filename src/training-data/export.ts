/**
 * Training data for a bi-encoder and a listwise reranker from a mined dataset, the way SweLoc
 * (Reddy et al. 2025, SweRank §3) is made: the issue text is the query, the functions the fix
 * changes are the positives, hard negatives are the retriever's top-ranked non-positives from
 * the same repository at the a-priori commit, and a consistency filter keeps an issue only when
 * a positive ranks within the retriever's top 20 (dropping issues whose text does not point at
 * the fix well enough to learn from).
 */
import type { GitRepo } from '../repo/git.js';
import { withCodeIndex } from '../index/index-commit.js';
import type { IndexedUnit, IndexSettings } from '../index/code-index.js';
import type { Embedder } from '../embed/embedder.js';
import { UnitSourceReader } from '../embed/unit-source.js';
import { documentText } from '../embed/vector-index.js';
import type { FusionOptions } from '../retrieve/fusion.js';
import type { RankingOptions } from '../retrieve/localize.js';
import { unitId } from '../retrieve/unit-ids.js';
import { CommitChain } from '../pipeline/commit-chain.js';
import { identifierOf, type IdentifierStyle } from '../llm-rerank/candidate-labels.js';
import { windowPrompt, type RerankCandidate } from '../llm-rerank/prompt.js';
import type { DatasetRecord } from '../dataset/record.js';
import { wellFormed } from './formats.js';
import type { ContrastiveExample, DroppedIssue, ListwiseExample } from './examples.js';
import { parseIssue } from '../text/parsed-issue.js';

/** Options of {@link exportTraining}. */
export interface TrainingExportOptions {
  /** Index cache folder of the repository. */
  cacheDir: string;
  /** Size cap of the cache folder (bytes; see indexCommit). */
  maxCacheBytes?: number;
  settings?: Partial<IndexSettings>;
  ranking?: RankingOptions;
  /** Retriever for negatives and the filter: BM25F+ when absent, else fused with this bi-encoder. */
  embedder?: Embedder;
  fusion?: Partial<FusionOptions>;
  /** Hard negatives per issue (default 10). */
  negatives?: number;
  /** Consistency filter: keep an issue only when a positive ranks within this many (default 20; 0 = no filter). */
  filterTop?: number;
  /** Candidates of a listwise example (default 10, the reranker's window). */
  listwiseSize?: number;
  /** Identifiers of listwise examples (default `alpha`, matching first-token reranking). */
  identifiers?: IdentifierStyle;
  /** Characters of each function's text (default 8 000). */
  maxDocumentChars?: number;
  onProgress?: (done: number, total: number) => void;
}

/** The issue text used as the query: title, a blank line, the cleaned body. */
export function issueQuery(r: DatasetRecord): string {
  return [r.issue.title, r.issue.body].filter((s) => s && s.trim()).join('\n\n');
}

/**
 * Examples for every record of `records` (all of one repository), in record order.
 * Records are grouped by a-priori commit so each commit is indexed (and embedded) once.
 *
 * @throws IssuelocError from indexing (an a-priori commit missing from the repository) or the embedder.
 */
export async function exportTraining(
  records: readonly DatasetRecord[],
  repo: GitRepo,
  opts: TrainingExportOptions,
): Promise<{ contrastive: ContrastiveExample[]; listwise: ListwiseExample[]; dropped: DroppedIssue[] }> {
  const negatives = opts.negatives ?? 10;
  const filterTop = opts.filterTop ?? 20;
  const size = opts.listwiseSize ?? 10;
  const style = opts.identifiers ?? 'alpha';
  const contrastive: ContrastiveExample[] = [];
  const listwise: ListwiseExample[] = [];
  const dropped: DroppedIssue[] = [];
  const byCommit = new Map<string, number[]>();
  records.forEach((r, i) => byCommit.set(r.aprioriCommit, [...(byCommit.get(r.aprioriCommit) ?? []), i]));
  const results = new Map<number, { c?: ContrastiveExample; l?: ListwiseExample; d?: DroppedIssue }>();
  let done = 0;
  for (const [rev, indexes] of byCommit) {
    const commit = await repo.resolveCommit(rev);
    const doneBefore = done;
    // run once more on the rebuilt index when a block of a loaded one is corrupt (the results are set per issue)
    await withCodeIndex(repo, commit, { cacheDir: opts.cacheDir, settings: opts.settings, maxCacheBytes: opts.maxCacheBytes }, async ({ codeIndex }) => {
      done = doneBefore;
      const pipeline = await CommitChain.open(repo, codeIndex, { ranking: opts.ranking, embedder: opts.embedder, fusion: opts.fusion, cacheDir: opts.cacheDir });
      const unitOf = new Map<string, IndexedUnit>();
      for (const u of codeIndex.units) if (!unitOf.has(unitId(u))) unitOf.set(unitId(u), u);
      const reader = new UnitSourceReader(repo, commit);
      const depth = Math.max(filterTop, negatives + 50, size);
      for (const i of indexes) {
        const r = records[i];
        const query = issueQuery(r);
        const positives = r.positiveFunctions.filter((f) => unitOf.has(f));
        done++;
        if (query === '') {
          results.set(i, { d: { issue_id: r.issue.id, reason: 'empty issue text (no title and no body)' } });
          opts.onProgress?.(done, records.length);
          continue;
        }
        if (positives.length === 0) {
          results.set(i, { d: { issue_id: r.issue.id, reason: r.positiveFunctions.length ? 'no positive function is in the index at the a-priori commit' : 'no positive function' } });
          opts.onProgress?.(done, records.length);
          continue;
        }
        const { localization } = await pipeline.localize(parseIssue(query), { top: depth, matchedTermsPerItem: 0, signals: false });
        const ranked = localization.functions.map((f) => f.id);
        const isPositive = new Set(positives);
        const best = ranked.findIndex((id) => isPositive.has(id));
        if (best < 0 || (filterTop > 0 && best >= filterTop)) {
          const reason = filterTop > 0
            ? `consistency filter: no positive in the retriever's top ${filterTop}${best >= 0 ? ` (best at ${best + 1})` : ''}`
            : `no positive in the retriever's top ${depth}`;
          results.set(i, { d: { issue_id: r.issue.id, reason } });
          opts.onProgress?.(done, records.length);
          continue;
        }
        const negIds = ranked.filter((id) => !isPositive.has(id)).slice(0, negatives);
        // ranked[0..best) are negatives: a positive below the window takes the window's last place.
        const window = best < size ? ranked.slice(0, size) : [...ranked.slice(0, size - 1), ranked[best]];
        const need = [...new Set([...positives, ...negIds, ...window])];
        const texts = new Map<string, string>();
        const codes = await reader.texts(need.map((id) => unitOf.get(id)!));
        need.forEach((id, k) => texts.set(id, wellFormed(documentText(unitOf.get(id)!.path, codes[k], opts.maxDocumentChars))));
        const text = wellFormed(query);
        const c: ContrastiveExample = {
          query: text, pos: positives.map((id) => texts.get(id)!), neg: negIds.map((id) => texts.get(id)!),
          pos_ids: positives, neg_ids: negIds, issue_id: r.issue.id, ...(r.repo ? { repo: r.repo } : {}), commit,
          positive_rank: best + 1,
        };
        const candidates: RerankCandidate[] = window.map((id) => ({ id, path: unitOf.get(id)!.path, qualifiedName: unitOf.get(id)!.qualifiedName, code: codes[need.indexOf(id)] ?? '' }));
        const order = [...window.keys()].sort((a, b) => Number(isPositive.has(window[b])) - Number(isPositive.has(window[a])) || a - b);
        const ids = window.map((_, k) => identifierOf(k, style));
        const target = ids[window.findIndex((id) => isPositive.has(id))];
        const l: ListwiseExample = {
          issue_id: r.issue.id, query: text,
          candidates: window.map((id, k) => ({ identifier: ids[k], id, text: texts.get(id)! })),
          positive_ids: window.filter((id) => isPositive.has(id)),
          target,
          permutation: order.map((k) => `[${ids[k]}]`).join(' > '),
          messages: [...windowPrompt(query, candidates, 'first-token', style).map((m) => ({ ...m, content: wellFormed(m.content) })), { role: 'assistant', content: target }],
        };
        results.set(i, { c, l });
        reader.forget();
        opts.onProgress?.(done, records.length);
      }
    });
  }
  for (let i = 0; i < records.length; i++) {
    const x = results.get(i)!;
    if (x.c) contrastive.push(x.c);
    if (x.l) listwise.push(x.l);
    if (x.d) dropped.push(x.d);
  }
  return { contrastive, listwise, dropped };
}
