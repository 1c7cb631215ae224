import type { CodeIndex } from '../index/code-index.js';
import { Bm25fScorer, type Bm25fParams, type QueryTerms } from './bm25f.js';
import type { RankedItem } from './rollup.js';

/**
 * Where the files that are not source code (`CodeIndex.nonSource`: manifests, changelogs, docs,
 * configuration, indexed with `IndexSettings.files` = `all`) join a file ranking. A non-source
 * file joins when the repository's recent commits that change source code change it too at
 * least `minRate` of the time (its co-change rate at the base commit, src/history/co-change.ts:
 * a CHANGELOG.md kept with every fix, a readme.md that lists every option) and it holds a word
 * of the issue; the best `count` of them (highest rate first, then BM25F+ score) are placed from
 * place `rank` (1-based) on, and the source files keep their order, moved down by as many places.
 * Scale-free, so it applies after any stage (lexical, dense fusion, learned model, rerank).
 *
 * Their text alone does not place them: a project's docs match most issues' words (fmt's
 * doc/api.rst tops the non-source files of nearly every fmt issue) while fixes rarely change
 * them; on the Multi-SWE-bench dev set a placement by BM25F+ alone gained at most +0.6 file
 * Acc@5, by co-change rate +3.8 (docs/multi-language.md).
 */
export interface NonSourcePlacement {
  /** Place of the first non-source file in the file ranking (1 = first). */
  rank: number;
  /** How many non-source files join at most (0 = none). */
  count: number;
  /** Least co-change rate (0 … 1) of a joining file. */
  minRate: number;
}

/** The default placement (chosen by folds of Multi-SWE-bench repositories: docs/multi-language.md). */
export const DEFAULT_NON_SOURCE_PLACEMENT: NonSourcePlacement = { rank: 3, count: 2, minRate: 0.1 };

/**
 * Ranks the non-source documents of a code index for an issue by {@link NonSourcePlacement}'s
 * rule: BM25F+ over their own index (path, file name, whole text), whose statistics are theirs
 * alone, so the source files' scores are unchanged by their presence. Construct once per index.
 */
export class NonSourceRanker {
  private readonly scorer: Bm25fScorer;
  private readonly paths: readonly string[];

  /** @param params BM25F+ parameters (field weights in `FIELDS` order), the file level's. */
  constructor(nonSource: NonNullable<CodeIndex['nonSource']>, params: Partial<Bm25fParams>) {
    this.scorer = new Bm25fScorer(nonSource.index, params);
    this.paths = nonSource.paths;
  }

  /**
   * The non-source files that may join for `query`: co-change rate (`rates`: path → 0 … 1) at
   * least `placement.minRate` and a positive score, highest rate first (then score, then path
   * order), at most `placement.count`. Each item's `score` is its BM25F+ score; `evidence` gives its rate.
   */
  rank(query: QueryTerms, rates: ReadonlyMap<string, number>, placement: NonSourcePlacement): RankedItem[] {
    if (placement.count <= 0 || rates.size === 0) return [];
    const scores = this.scorer.scoreAll(query);
    const hits: { doc: number; rate: number }[] = [];
    for (let d = 0; d < scores.length; d++) {
      const rate = rates.get(this.paths[d]) ?? 0;
      if (scores[d] > 0 && rate > 0 && rate >= placement.minRate) hits.push({ doc: d, rate });
    }
    hits.sort((x, y) => y.rate - x.rate || scores[y.doc] - scores[x.doc] || x.doc - y.doc);
    return hits.slice(0, placement.count).map(({ doc, rate }) => ({
      id: this.paths[doc], score: scores[doc], signals: ['nonSource'],
      evidence: [`changed with ${Math.round(rate * 100)}% of recent commits to source code`],
    }));
  }
}

/**
 * `files` with `nonSource` placed from place `rank` (1-based; see {@link NonSourcePlacement}),
 * cut to `limit`; a file already in `files` is not added twice. A placed item's score is that of
 * the file it comes before (the last one's, at the end), so scores still descend.
 * @param nonSource the joining non-source files, in order (see {@link NonSourceRanker.rank}).
 */
export function placeNonSource(files: readonly RankedItem[], nonSource: readonly RankedItem[], rank: number, limit: number): RankedItem[] {
  const have = new Set(files.map((f) => f.id));
  const joining = nonSource.filter((n) => !have.has(n.id));
  if (joining.length === 0) return files.slice(0, limit);
  const at = Math.min(Math.max(0, rank - 1), files.length);
  const score = at < files.length ? files[at].score : files.length > 0 ? files[files.length - 1].score : 0;
  return [...files.slice(0, at), ...joining.map((n) => ({ ...n, score })), ...files.slice(at)].slice(0, limit);
}
