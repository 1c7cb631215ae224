/**
 * Roll-up from a function ranking to module and file rankings, first occurrence kept
 * (the SweRank / LocAgent protocol: a file's or module's rank is that of its best function).
 */
import { moduleIdOf } from '../corpus/names.js';
import type { SignalName } from './signals.js';

/** One ranked item at any level. `id` is `path` (file), `path:Top` (module) or `path:Q.name`. */
export interface RankedItem {
  id: string;
  score: number;
  /** Issue terms found in the item: a file's whole text, a module's best function. */
  matchedTerms?: string[];
  /** Issue-text signals that raised the item (its best function's), e.g. `frameFunction`. */
  signals?: string[];
  /** What in the issue fired each of `signals` (same order): a frame's line, a path, a name. */
  evidence?: string[];
  /**
   * The item's lines at the base commit (1-based, inclusive): a function's or module's own, a
   * file's best-ranked function's (src/retrieve/item-lines.ts).
   */
  startLine?: number;
  endLine?: number;
}

/** Rankings at the three levels, best first. */
export interface Localization {
  /** Files rolled up from `functions`, merged by score with function-less files ({@link Localizer}). */
  files: RankedItem[];
  modules: RankedItem[];
  functions: RankedItem[];
  /** Distinct issue terms that occur in the function- or file-level index (0 means nothing could match). */
  matchedQueryTerms: number;
  /**
   * Per file-level document, the function-level document of the file's best function by the
   * ranking stage's scores (−1: none), when asked for (`fileLines`): where a file's lines come
   * from (src/retrieve/item-lines.ts, which drops this field).
   */
  bestOfFile?: (file: number) => number;
  /**
   * The function-level document each function item was scored as, when asked for (`fileLines`):
   * whose lines it shows (an id several units share, e.g. sympy's `@X.register def _`, shows the
   * scored unit's); undefined for an `@overload` stub, whose id shows the implementation's
   * (`shownUnit`). src/retrieve/item-lines.ts reads it ({@link scoredDocsOf}) and drops it.
   */
  docOfFunction?: (id: string) => number | undefined;
  /**
   * Sets `matchedTerms`, `signals` and `evidence` on items of this ranking (each found by its id,
   * as moved or cut since), when the ranker was asked to leave them for later
   * (`LocalizeOptions.matchedTermsLater`); src/retrieve/item-lines.ts drops it.
   */
  annotate?: (shown: ShownItems) => void;
}

/** The items of a {@link Localization} at its three levels. */
export type ShownItems = Pick<Localization, 'files' | 'modules' | 'functions'>;

/** A file-level document that has no function-level document, with its score (the lexical `Localizer` ranks them at the file level). */
export interface ScoredFile {
  /** File-level document (index into `CodeIndex.filePaths`). */
  file: number;
  score: number;
  /** File-level signals that raised it (`frameFile`, `mentionedFile`). */
  signals?: SignalName[];
  /** What in the issue fired each of `signals` (same order). */
  evidence?: string[];
}

/**
 * What roll-up needs to know of each ranked function: its path, and its module id
 * (`moduleIdOf`), or what makes it.
 */
export type RollupSource = RankedItem & { path: string } & (
  | { module: string }
  | {
    qualifiedName: string;
    /** Namespace qualifiers leading the qualified name (`CodeUnit.namespaceParts`). */
    namespaceParts?: number;
  }
);

/**
 * Files and modules ranked by first occurrence in `functions` (best first).
 * @param functions a function ranking, best first.
 * @param limit the most items to keep per level (default: all).
 */
export function rollUp(functions: readonly RollupSource[], limit = Infinity): { files: RankedItem[]; modules: RankedItem[] } {
  const files: RankedItem[] = [];
  const modules: RankedItem[] = [];
  const seenFiles = new Set<string>();
  const seenModules = new Set<string>();
  for (const f of functions) {
    if (files.length < limit && !seenFiles.has(f.path)) {
      seenFiles.add(f.path);
      files.push({ id: f.path, score: f.score, matchedTerms: f.matchedTerms });
    }
    const m = 'module' in f ? f.module : moduleIdOf(f);
    if (modules.length < limit && !seenModules.has(m)) {
      seenModules.add(m);
      modules.push({ id: m, score: f.score, matchedTerms: f.matchedTerms });
    }
    if (files.length >= limit && modules.length >= limit) break;
  }
  return { files, modules };
}

/**
 * File-level documents that have no function-level document (files of top-level code only,
 * classes without methods: src/index/code-index.ts), ascending. Roll-up can never rank them;
 * `Localizer` ranks them from their own file score (see {@link mergeByScore}).
 * @param fileOfUnit the file-level document of each function-level document.
 * @param fileCount the number of file-level documents.
 */
export function functionlessFiles(fileOfUnit: Uint32Array, fileCount: number): Uint32Array {
  const has = new Uint8Array(fileCount);
  for (let d = 0; d < fileOfUnit.length; d++) has[fileOfUnit[d]] = 1;
  const out: number[] = [];
  for (let f = 0; f < fileCount; f++) if (!has[f]) out.push(f);
  return Uint32Array.from(out);
}

/**
 * Two rankings, each best first, merged by score and cut to `limit`; at equal scores the items
 * of `first` come first (a rolled-up file keeps its place against a function-less one).
 */
export function mergeByScore(first: readonly RankedItem[], second: readonly RankedItem[], limit: number): RankedItem[] {
  const out: RankedItem[] = [];
  let i = 0, j = 0;
  while (out.length < limit && (i < first.length || j < second.length)) {
    if (j >= second.length || (i < first.length && first[i].score >= second[j].score)) out.push(first[i++]);
    else out.push(second[j++]);
  }
  return out;
}

/**
 * A learned model's file ranking with the files it could not score (no candidate of theirs)
 * inserted at their lexical rank: an extra item (score on the lexical pipeline's scale) goes after
 * k ranked items, k = how many ranked items have a pipeline score (`pipelineScore`) ≥ its score,
 * and after the extra items before it; the ranked items keep their order; cut to `limit`.
 * @param ranked the model's files, best first (every one, so that the cut comes last).
 * @param extra the other files with their pipeline scores, best first.
 */
export function insertAtLexicalRank(ranked: readonly RankedItem[], extra: readonly RankedItem[], pipelineScore: (it: RankedItem) => number, limit: number): RankedItem[] {
  const scores = ranked.map(pipelineScore);
  const after = extra.map((e) => scores.reduce((k, s) => k + (s >= e.score ? 1 : 0), 0));
  const out: RankedItem[] = [];
  let j = 0;
  for (let k = 0; k <= ranked.length && out.length < limit; k++) {
    while (j < extra.length && after[j] <= k && out.length < limit) out.push(extra[j++]);
    if (k < ranked.length && out.length < limit) out.push(ranked[k]);
  }
  return out;
}
