/**
 * The rules that place items by what a ranking's scores cannot see, applied after every stage
 * (lexical, dense, learned model) and before a listwise rerank: peripheral and generated code kept
 * out of the top places (src/retrieve/peripheral.ts), then in the file ranking the non-source files
 * (src/retrieve/non-source.ts) and the first file's habitual partner (src/retrieve/co-changed.ts),
 * both read off the history before the base commit (src/history/co-change.ts). Each rule is
 * rank-based, so it applies to any stage's scores alike.
 */
import type { CodeIndex } from '../index/code-index.js';
import { readCoChange, type CoChange } from '../history/co-change.js';
import type { GitRepo } from '../repo/git.js';
import type { Bm25fParams, QueryTerms } from './bm25f.js';
import { DEFAULT_CO_CHANGE_PLACEMENT, placePartner, type CoChangePlacement } from './co-changed.js';
import type { Localization } from './rollup.js';
import { DEFAULT_NON_SOURCE_PLACEMENT, NonSourceRanker, placeNonSource, type NonSourcePlacement } from './non-source.js';
import { DEFAULT_PERIPHERAL_PLACEMENT, PeripheralRule, type PeripheralPlacement } from './peripheral.js';
import type { RankedItem } from './rollup.js';
import type { ParsedIssue } from '../text/parsed-issue.js';

/** Settings of the three rules; each field optional (defaults: `DEFAULT_*_PLACEMENT` of each rule's module). */
export interface PlacementOptions {
  nonSource?: Partial<NonSourcePlacement>;
  peripheral?: Partial<PeripheralPlacement>;
  coChange?: Partial<CoChangePlacement>;
}

/** Items the stages must rank beyond `top` for peripheral ones to be moved out and others to close up. */
export const DEMOTION_MARGIN = 10;

/** The placement rules of one code index at its base commit (see {@link openPlacements}). */
export class Placements {
  private readonly indexed: Set<string>;

  constructor(
    readonly codeIndex: CodeIndex,
    readonly peripheral: PeripheralRule,
    readonly nonSource: { ranker: NonSourceRanker; placement: NonSourcePlacement } | undefined,
    readonly coChange: CoChange | undefined,
    readonly partner: CoChangePlacement,
  ) {
    this.indexed = new Set(codeIndex.filePaths);
  }

  /** How many items per level the stages should rank for a result of `top` items. */
  depth(top: number): number {
    return this.peripheral.placement.place > 1 ? top + DEMOTION_MARGIN : top;
  }

  /** The rankings with the peripheral items the issue does not name moved down (every level; {@link PeripheralRule.demote}). */
  demote(loc: Localization, issue: ParsedIssue): Promise<Localization> {
    return this.peripheral.demote(loc, issue);
  }

  /**
   * The file ranking with the non-source files that join placed (when the index has them), then
   * the first source file's partner (when the history was read; a source file of the index, not
   * a peripheral one while that rule is on), cut to `limit`.
   */
  placeFiles(files: readonly RankedItem[], query: QueryTerms, limit: number): RankedItem[] {
    let out = files.slice();
    if (this.nonSource && this.coChange) {
      const { ranker, placement } = this.nonSource;
      out = placeNonSource(out, ranker.rank(query, this.coChange.rates, placement), placement.rank, Math.max(limit, out.length));
    }
    // a peripheral partner would be kept out of the top places anyway: passed over while that rule is on
    const peripheral = this.peripheral.placement.place > 1;
    const partner = (p: string) => this.indexed.has(p) && !(peripheral && this.peripheral.isPeripheral(p));
    if (this.coChange) out = placePartner(out, this.coChange, this.partner, partner, Math.max(limit, out.length));
    return out.slice(0, limit);
  }

  /** The rankings cut to `top` items per level, files placed ({@link placeFiles}). */
  finish(loc: Localization, query: QueryTerms, top: number): Localization {
    return { ...loc, files: this.placeFiles(loc.files, query, top), modules: loc.modules.slice(0, top), functions: loc.functions.slice(0, top) };
  }
}

/**
 * The placement rules of a code index at its commit: the peripheral files, the non-source
 * ranker (when the index holds non-source documents) and, when a rule needs it, the co-change
 * history read before the commit (one `git log`).
 * @param bm25 the file level's BM25F+ parameters (for the non-source documents).
 * @param cacheDir where the history read is kept per commit (see {@link readCoChange}).
 * @param onWarning told when the history cannot be read; then no file is placed by it. Without
 *   it, that error is thrown.
 */
export async function openPlacements(
  repo: GitRepo, codeIndex: CodeIndex,
  opts: PlacementOptions & { bm25?: Partial<Bm25fParams>; onWarning?: (message: string) => void; cacheDir?: string } = {},
): Promise<Placements> {
  const peripheral = new PeripheralRule(codeIndex, { ...DEFAULT_PERIPHERAL_PLACEMENT, ...opts.peripheral }, repo, opts.cacheDir);
  const partner = { ...DEFAULT_CO_CHANGE_PLACEMENT, ...opts.coChange };
  const nonSourcePlacement = { ...DEFAULT_NON_SOURCE_PLACEMENT, ...opts.nonSource };
  const nonSource = codeIndex.nonSource ? { ranker: new NonSourceRanker(codeIndex.nonSource, opts.bm25 ?? {}), placement: nonSourcePlacement } : undefined;
  let coChange: CoChange | undefined;
  if ((nonSource && nonSourcePlacement.count > 0) || partner.rank > 0) {
    try {
      coChange = await readCoChange(repo, codeIndex.commit, { cacheDir: opts.cacheDir });
    } catch (e) {
      if (!opts.onWarning) throw e;
      opts.onWarning(`files placed by the history left out of the ranking: ${(e as Error).message}`);
    }
  }
  return new Placements(codeIndex, peripheral, nonSource, coChange, partner);
}
