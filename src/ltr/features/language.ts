/**
 * Language features of a candidate function: its file's language family (one column each), and
 * how much of the top of the candidate list shares that family (an issue about a C library with a
 * Python binding ranks the C files first, whatever the binding's words).
 */
import type { LanguageFamily } from './path-facts.js';
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

/** Candidates read for {@link LanguageRow.share}. */
const TOP = 20;

/** The language group's record of a candidate. */
export interface LanguageRow {
  family: LanguageFamily;
  /** Share of the top {@link TOP} candidates in the same family. */
  share: number;
}

const is = (f: LanguageFamily) => (r: LanguageRow) => (r.family === f ? 1 : 0);

const features = {
  langPython: { doc: '1 for a Python (or Cython) file', normalise: 'none', value: is('python') },
  langJvm: { doc: '1 for a Java, Kotlin, Scala, Groovy or Clojure file', normalise: 'none', value: is('jvm') },
  langWeb: { doc: '1 for a JavaScript, TypeScript, Vue or Svelte file', normalise: 'none', value: is('web') },
  langC: { doc: '1 for a C, C++ or Objective-C file (headers included)', normalise: 'none', value: is('c') },
  langRust: { doc: '1 for a Rust file', normalise: 'none', value: is('rust') },
  langGo: { doc: '1 for a Go file', normalise: 'none', value: is('go') },
  languageShare: { doc: `share of the top ${TOP} candidates whose file is of the candidate's language family`, normalise: 'none', value: (r) => r.share },
} satisfies Record<string, FeatureSpec<LanguageRow>>;

export const languageGroup: FeatureGroup<LanguageRow, keyof typeof features> = {
  name: 'language',
  features,
  prepare(ctx: CandidateContext) {
    const { docs, shapes } = ctx;
    const { fileOfUnit } = ctx.codeIndex;
    const families = docs.map((d) => shapes.file(fileOfUnit[d]).family);
    const top = Math.min(TOP, families.length);
    const count = new Map<LanguageFamily, number>();
    for (let i = 0; i < top; i++) count.set(families[i], (count.get(families[i]) ?? 0) + 1);
    const row: LanguageRow = { family: 'other', share: 0 };
    return (i) => {
      row.family = families[i];
      row.share = top > 0 ? (count.get(families[i]) ?? 0) / top : 0;
      return row;
    };
  },
};
