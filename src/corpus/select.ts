import type { TreeEntry } from '../repo/git.js';
import { isTestPath, isVendoredPath, languageOf, type Language } from './languages.js';

/** Which files of a tree make the corpus. */
export interface SelectOptions {
  /** Keep test files (see `isTestPath`). Default false, as in the SWE-bench protocol. */
  includeTests?: boolean;
  /** Files larger than this many bytes are left out. Default 1 MiB. */
  maxFileBytes?: number;
  /** Keep only these languages; empty or absent = every language. */
  languages?: readonly string[];
}

/** Files left out by {@link selectSources}, by reason (counts). */
export interface SelectionSkipped {
  /** Not code by extension (docs, configuration, data). */
  nonSource: number;
  /** Code in a language not asked for. */
  otherLanguages: number;
  /** In a vendored folder (`vendor/`, `third_party/`, `node_modules/` …). */
  vendored: number;
  /** Test files, when `includeTests` is false. */
  tests: number;
  /** Larger than `maxFileBytes`. */
  tooLarge: number;
}

/** Default cap on file size: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1 << 20;

/**
 * The source files of a tree listing, in listing order, with their language; everything left
 * out is counted by reason, in this order of checks: not code, other language, vendored, test,
 * too large.
 */
export function selectSources(entries: readonly TreeEntry[], opts: SelectOptions = {}): {
  sources: { entry: TreeEntry; language: Language }[];
  skipped: SelectionSkipped;
} {
  const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const languages = opts.languages && opts.languages.length > 0 ? new Set(opts.languages) : undefined;
  const skipped: SelectionSkipped = { nonSource: 0, otherLanguages: 0, vendored: 0, tests: 0, tooLarge: 0 };
  const sources: { entry: TreeEntry; language: Language }[] = [];
  for (const entry of entries) {
    const language = languageOf(entry.path);
    if (!language) skipped.nonSource++;
    else if (languages && !languages.has(language)) skipped.otherLanguages++;
    else if (isVendoredPath(entry.path)) skipped.vendored++;
    else if (!opts.includeTests && isTestPath(entry.path)) skipped.tests++;
    else if (entry.size > maxBytes) skipped.tooLarge++;
    else sources.push({ entry, language });
  }
  return { sources, skipped };
}
