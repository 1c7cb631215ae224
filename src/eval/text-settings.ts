/**
 * The preprocessing variants of "file localisation from issues at large" (§3.5; docs/evaluation.md)
 * that apply to both sides, issue and code: lower-casing, Porter stemming and camelCase/snake_case
 * sub-token splitting. The paper's best setting, used for its reported tables, is lower-casing +
 * stemming without sub-tokens ({@link PAPER_TEXT_SETTINGS}).
 */
import { createTokenizer, type Tokenizer } from '../text/tokenize.js';

/** Token-level preprocessing of issues and files. */
export interface TextSettings {
  /** Lower-case tokens (default true). */
  readonly lowercase: boolean;
  /** Porter-stem tokens (default true). */
  readonly stem: boolean;
  /** Split identifiers into sub-tokens, keeping the whole identifier too (default false). */
  readonly splitIdentifiers: boolean;
}

/** Lower-casing and stemming, no sub-tokens: the setting of the paper's tables. */
export const PAPER_TEXT_SETTINGS: TextSettings = Object.freeze({ lowercase: true, stem: true, splitIdentifiers: false });

/** The tokenizer of a setting (stop words: NLTK English, as the replication package). */
export function tokenizerFor(s: TextSettings): Tokenizer {
  return createTokenizer({ lowercase: s.lowercase, stem: s.stem, splitIdentifiers: s.splitIdentifiers });
}

/** A short label such as `lower+stem` or `case+stem+subtokens`, for tables and file names. */
export function textSettingsLabel(s: TextSettings): string {
  return [s.lowercase ? 'lower' : 'case', ...(s.stem ? ['stem'] : []), ...(s.splitIdentifiers ? ['subtokens'] : [])].join('+');
}

/** The file-name field of a path: its last segment (`a/b/Foo.java` → `Foo.java`). */
export function fileNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
