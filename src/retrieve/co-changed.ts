import type { CoChange } from '../history/co-change.js';
import type { RankedItem } from './rollup.js';

/**
 * Where the habitual partner of a file ranking's first source file joins it: the source file
 * that the repository's recent commits change most often together with it (association-rule
 * confidence, as Zimmermann et al. 2005, "Mining version histories to guide software changes",
 * mine them from version histories), when that is at least `minConfidence`. A fix that changes
 * `api/index.js` changes `src/cards/stats-card.js` with it; a Go handler, its router. All-gold
 * Acc@k counts an issue only when every file of its fix is ranked, so the partner is brought to
 * place `rank` (1-based) when it ranks lower or not at all. Scale-free, so it applies after any
 * stage.
 */
export interface CoChangePlacement {
  /** Place the partner is brought to (0 = the rule is off). */
  rank: number;
  /** Least confidence: commits changing both / commits changing the first file (0 … 1). */
  minConfidence: number;
  /** Least number of counted commits that changed the first file (fewer: no partner). */
  minSupport: number;
}

/** The default placement (chosen by folds of Multi-SWE-bench repositories: docs/multi-language.md). */
export const DEFAULT_CO_CHANGE_PLACEMENT: CoChangePlacement = { rank: 4, minConfidence: 0.3, minSupport: 3 };

/**
 * `files` with the partner of its first source file at place `placement.rank` (see
 * {@link CoChangePlacement}), cut to `limit`. The partners are tried best first; one already
 * ranked above that place is passed over for the next; the first that is an indexed source file
 * (`indexed`) is moved there, or inserted when the ranking does not hold it. Its score is that
 * of the file it comes before (the last one's, at the end), so scores still descend; it carries
 * the signal `coChange` with its evidence. Unchanged when no partner qualifies.
 * @param indexed whether a path is a source file of the index (non-source files placed before it are not the first file).
 */
export function placePartner(
  files: readonly RankedItem[], coChange: CoChange, placement: CoChangePlacement,
  indexed: (path: string) => boolean, limit: number,
): RankedItem[] {
  if (placement.rank <= 0) return files.slice(0, limit);
  const first = files.find((f) => indexed(f.id));
  if (!first) return files.slice(0, limit);
  const at = placement.rank - 1;
  const partners = coChange.partnersOf(first.id, { minSupport: placement.minSupport, minConfidence: placement.minConfidence });
  for (const p of partners) {
    if (!indexed(p.path)) continue;
    const now = files.findIndex((f) => f.id === p.path);
    if (now >= 0 && now <= at) continue;
    const rest = files.filter((f) => f.id !== p.path);
    const place = Math.min(at, rest.length);
    const score = place < rest.length ? rest[place].score : rest.length > 0 ? rest[rest.length - 1].score : 0;
    const base = now >= 0 ? files[now] : { id: p.path, score };
    const why = `changed with ${first.id} in ${p.together} of its ${p.support} recent commits`;
    const item: RankedItem = {
      ...base, score,
      signals: [...(base.signals ?? []), 'coChange'],
      evidence: [...(base.evidence ?? []), why],
    };
    return [...rest.slice(0, place), item, ...rest.slice(place)].slice(0, limit);
  }
  return files.slice(0, limit);
}
