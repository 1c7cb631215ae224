/** The language of an issue by its gold files (bench/language-folds rows). */
import { languageOf } from '../../src/corpus/languages.js';

/** Short language names, as bench/multi-swe's data set writes them. */
const SHORT: Record<string, string> = { javascript: 'js', typescript: 'ts', csharp: 'cs' };

/** The language of an issue: the language most of its gold files are in (ties: the first gold file's); `other` for none. */
export function issueLanguage(gold: readonly string[]): string {
  const count = new Map<string, number>();
  for (const g of gold) {
    const lang = languageOf(g);
    if (lang) count.set(lang, (count.get(lang) ?? 0) + 1);
  }
  let best = 'other';
  for (const [lang, n] of count) if (n > (count.get(best) ?? 0)) best = lang;
  return SHORT[best] ?? best;
}
