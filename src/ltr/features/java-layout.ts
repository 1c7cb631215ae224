/**
 * Java package/class layout: a JVM source file is named after its top-level class and sits in its
 * package's folder, so an issue naming `Parser` or `jscomp.Parser` names the file `…/jscomp/Parser.java`,
 * whichever of its methods is the candidate.
 */
import { fileStem } from '../../corpus/names.js';
import { titleOf } from '../../retrieve/query.js';
import { languageFamily } from './language.js';
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

/** The layout group's record of a candidate. */
export interface LayoutRow {
  /** 1/0: the JVM file's class named in the issue, in its title, qualified by its package's last part. */
  inText: number; inTitle: number; qualified: number;
}

const features = {
  fileClassInText: { doc: "1 when the candidate's JVM file's name (its top-level class, capitalised) is written in the issue as a word", normalise: 'none', value: (r) => r.inText },
  fileClassInTitle: { doc: 'the same in the title', normalise: 'none', value: (r) => r.inTitle },
  qualifiedClassInText: { doc: "1 when the issue writes `package.Class` for the file's folder and name (`jscomp.Parser` for `…/jscomp/Parser.java`)", normalise: 'none', value: (r) => r.qualified },
} satisfies Record<string, FeatureSpec<LayoutRow>>;

export const javaLayoutGroup: FeatureGroup<LayoutRow, keyof typeof features> = {
  name: 'java layout',
  features,
  prepare(ctx: CandidateContext) {
    const text = ctx.issue.text;
    const words = capitalisedWords(text);
    const titleWords = capitalisedWords(titleOf(text));
    const qualified = new Set<string>();
    for (const m of text.matchAll(/([a-z_][A-Za-z0-9_]*)\.([A-Z][A-Za-z0-9_]*)/g)) qualified.add(`${m[1]}.${m[2]}`);
    const memo = new Map<string, LayoutRow>();
    const none: LayoutRow = { inText: 0, inTitle: 0, qualified: 0 };
    return (i) => {
      const path = ctx.paths[i];
      let row = memo.get(path);
      if (!row) {
        row = none;
        if (languageFamily(path) === 'jvm') {
          const stem = fileStem(path);
          const folders = path.split('/');
          const pkg = folders.length > 1 ? folders[folders.length - 2] : '';
          row = { inText: words.has(stem) ? 1 : 0, inTitle: titleWords.has(stem) ? 1 : 0, qualified: qualified.has(`${pkg}.${stem}`) ? 1 : 0 };
        }
        memo.set(path, row);
      }
      return row;
    };
  },
};

/** The capitalised identifier-like words (3+ characters) of a text, case kept. */
function capitalisedWords(text: string): Set<string> {
  return new Set([...text.matchAll(/\b[A-Z][A-Za-z0-9_]{2,}/g)].map((m) => m[0]));
}
