/**
 * The JSON of one localisation, as `issueloc localize --json` prints it and `issueloc serve`
 * answers `POST /v1/localize`: one builder, so both say the same thing the same way.
 */
import type { EmbedderInfo, LocalizeResult } from './localizer.js';

/** The levels of a ranking. */
export const LEVELS = ['file', 'module', 'function'] as const;
export type Level = (typeof LEVELS)[number];
/** What a result shows: one level, or `all`. */
export type LevelChoice = Level | 'all';

/** The result's field of a level: `files`, `modules`, `functions`. */
export function plural(l: Level): 'files' | 'modules' | 'functions' {
  return `${l}s` as 'files' | 'modules' | 'functions';
}

/** The levels a choice shows, in order. */
export function levelsOf(choice: LevelChoice): Level[] {
  return choice === 'all' ? [...LEVELS] : [choice];
}

/** Why nothing matched when no query term occurs in the code (`matchedQueryTerms` 0). */
export const NO_WORD_IN_CODE = 'no word of the issue occurs in the indexed code';

/**
 * Why no level shown ranks anything: no issue word in the code, or only at a level not shown (as
 * far as `result` holds the other levels).
 */
export function nothingShown(result: { matchedQueryTerms?: number } & Partial<Record<'files' | 'modules' | 'functions', readonly unknown[]>>, levels: Level[]): string {
  if (result.matchedQueryTerms === 0) return NO_WORD_IN_CODE;
  const other = LEVELS.find((l) => !levels.includes(l) && (result[plural(l)]?.length ?? 0) > 0);
  return other ? `no ${levels.join(' or ')} matched; ${plural(other)} did (--level ${other})` : 'nothing matched';
}

/**
 * The JSON object of a result: `repo` (as the caller names the repository), `commit`, `level`,
 * `index` (built, millis, documents, files, skipped), `queryMillis`, `stages`, `matchedQueryTerms`
 * (distinct issue words found in the indexed code; 0: nothing could match), `embedder` (its
 * name and preset) when there is one, `rerank` when it ran, then the ranked items of each level shown (`files`, `modules`, `functions`), their
 * scores cut to 6 significant digits (float32 sums hold no more), each with its `startLine`/`endLine`
 * when known (src/retrieve/item-lines.ts); with `explain`, `issue`: what the issue text was read
 * as (stack frames, paths, dotted and scoped names, names in code), as `--explain` prints it.
 */
export function localizeJson(result: LocalizeResult, repo: string, level: LevelChoice, embedder?: EmbedderInfo, explain = false): Record<string, unknown> {
  const { index } = result;
  const out: Record<string, unknown> = {
    repo, commit: result.commit, level,
    index: { built: index.built, millis: Math.round(index.millis), documents: index.documents, files: index.files, skipped: index.skipped },
    queryMillis: Math.round(result.millis * 100) / 100,
    stages: result.stages,
    matchedQueryTerms: result.matchedQueryTerms,
    ...(embedder ? { embedder } : {}),
    ...(result.rerank ? { rerank: result.rerank } : {}),
  };
  if (explain) {
    const { frames, filePaths, dottedNames, scopedNames, calledNames, inlineCode } = result.signals;
    out.issue = { frames, paths: filePaths, dottedNames, scopedNames, namesInCode: [...new Set([...calledNames, ...inlineCode])] };
  }
  for (const l of levelsOf(level)) out[plural(l)] = result[plural(l)].map((it) => ({ ...it, score: Number(it.score.toPrecision(6)) }));
  return out;
}
