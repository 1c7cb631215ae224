/** The language of an issue by its gold files (bench/language-folds rows). */
import { goldLanguage } from '../../src/ltr/query-weights.js';

/** Short language names, as bench/multi-swe's data set writes them. */
const SHORT: Record<string, string> = { javascript: 'js', typescript: 'ts', csharp: 'cs' };

/** The language of an issue: the language most of its gold files are in (ties: the first gold file's), by its short name; `other` for none. */
export function issueLanguage(gold: readonly string[]): string {
  const best = goldLanguage(gold);
  return SHORT[best] ?? best;
}
