import type { CodeIndex, IndexedUnit } from '../index/code-index.js';
import { UnitSourceReader } from '../embed/unit-source.js';
import { unitId } from '../retrieve/unit-ids.js';
import type { Localization } from '../retrieve/rollup.js';
import { rollUp, type RankedItem } from '../retrieve/rollup.js';
import type { ListwiseReranker, RerankStats } from './listwise.js';
import type { ParsedIssue } from '../text/parsed-issue.js';

/**
 * Reranks the function ranking of a {@link Localization} with a listwise LLM reranker and rolls
 * the new order up to modules and files (first occurrence, SweRank protocol).
 *
 * The first `reranker.options.top` functions of `loc.functions` are the candidates (so localize
 * with `top` ≥ that); their code is read from git by line span. Functions below keep their
 * place; files and modules first met among the reranked functions come first, then the rest of
 * the retriever's file and module rankings in their order. Scores become 1/rank (the reranker
 * gives an order, not scores). Each level is cut to `top` items. `signal` (a per-issue deadline)
 * is handed to the reranker, and the issue's text is its query.
 */
export async function rerankLocalization(
  loc: Localization,
  codeIndex: CodeIndex,
  reader: UnitSourceReader,
  reranker: ListwiseReranker,
  issue: ParsedIssue,
  top: number,
  signal?: AbortSignal,
): Promise<{ localization: Localization; stats: RerankStats }> {
  const unitOf = new Map<string, IndexedUnit>();
  for (const u of codeIndex.units) {
    const id = unitId(u);
    if (!unitOf.has(id)) unitOf.set(id, u);
  }
  const k = Math.min(reranker.options.top, loc.functions.length);
  const head = loc.functions.slice(0, k);
  const units = head.map((f) => unitOf.get(f.id)!);
  const codes = await reader.texts(units);
  const byId = new Map(head.map((f) => [f.id, f]));
  const { ranking, stats } = await reranker.rerank(issue.text, head.map((f, i) => ({
    id: f.id, path: units[i].path, qualifiedName: units[i].qualifiedName, code: codes[i],
  })), { signal });
  const functions: RankedItem[] = [...ranking.map((c) => byId.get(c.id)!), ...loc.functions.slice(k)]
    .map((f, i) => ({ ...f, score: 1 / (i + 1) }));
  const rolled = rollUp(ranking.map((c, i) => ({ ...functions[i], path: c.path, qualifiedName: c.qualifiedName, namespaceParts: unitOf.get(c.id)?.namespaceParts })));
  const merge = (first: RankedItem[], rest: RankedItem[]) => {
    const seen = new Set(first.map((x) => x.id));
    return [...first, ...rest.filter((x) => !seen.has(x.id))].slice(0, top).map((x, i) => ({ ...x, score: 1 / (i + 1) }));
  };
  return {
    localization: {
      functions: functions.slice(0, top),
      files: merge(rolled.files, loc.files),
      modules: merge(rolled.modules, loc.modules),
      matchedQueryTerms: loc.matchedQueryTerms,
    },
    stats,
  };
}
