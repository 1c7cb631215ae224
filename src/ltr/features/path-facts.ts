/**
 * What a candidate's path says of its language and module, whatever the issue: its language
 * family and the name an issue would call its Go package or Rust module by. Computed once per
 * file of an index (`CandidateShapes`, src/ltr/features/shapes.ts) for the language and module
 * features.
 */
import { languageOf, type Language } from '../../corpus/languages.js';
import { fileStem } from '../../corpus/names.js';

/** Language families with a column; the others are `other`. */
export type LanguageFamily = 'python' | 'jvm' | 'web' | 'c' | 'rust' | 'go' | 'other';

const FAMILY: Partial<Record<Language, LanguageFamily>> = {
  python: 'python', cython: 'python',
  java: 'jvm', kotlin: 'jvm', scala: 'jvm', groovy: 'jvm', clojure: 'jvm',
  javascript: 'web', typescript: 'web', vue: 'web', svelte: 'web',
  c: 'c', cpp: 'c', objc: 'c',
  rust: 'rust', go: 'go',
};

/** The family of a path's language (`other` for a language without a column, or none). */
export function languageFamily(path: string): LanguageFamily {
  const lang = languageOf(path);
  return (lang && FAMILY[lang]) ?? 'other';
}

/**
 * The name an issue would call a Go file's package or a Rust file's module by (lower case; '' for
 * other languages and for a file at the root).
 */
export function moduleNameOf(path: string): string {
  const family = languageFamily(path);
  const folders = path.split('/').slice(0, -1);
  if (family === 'go') return (folders.at(-1) ?? '').toLowerCase();
  if (family !== 'rust') return '';
  const stem = fileStem(path);
  if (stem === 'mod') return (folders.at(-1) ?? '').toLowerCase();
  if (stem === 'lib' || stem === 'main') {
    const crate = folders.at(-1) === 'src' ? folders.at(-2) : folders.at(-1);
    return (crate ?? '').toLowerCase().replace(/-/g, '_');
  }
  return stem.toLowerCase();
}
