/**
 * Name features of a candidate function: how much of its own name and its file's name the issue
 * holds, and whether the issue (or its title) writes its name or its class's.
 */
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';
import type { CandidateShape } from './shapes.js';

/** The name group's record of a candidate: its shapes and the issue's words. */
export interface NameRow extends CandidateShape {
  /** The name tokens the issue's query holds (`CandidateShapes.queryTokens`); the identifier-like words of its text and of its title (case kept). */
  queryTokens: { has(k: number): boolean }; words: ReadonlySet<string>; titleWords: ReadonlySet<string>;
}

/** 1 when `name` has 3+ characters and is one of `words`. */
const written = (name: string, words: ReadonlySet<string>) => (name.length >= 3 && words.has(name) ? 1 : 0);

const features = {
  nameCoverage: { doc: "share of the tokens of the function's own name found in the issue's query", normalise: 'none', value: (r) => coverage(r.unit.nameTokens, r.queryTokens) },
  fileNameCoverage: { doc: 'the same for the file name without extension', normalise: 'none', value: (r) => coverage(r.file.nameTokens, r.queryTokens) },
  nameInText: { doc: "1 when the function's own name (3+ characters) is written in the issue as a word, case kept", normalise: 'none', value: (r) => written(r.unit.name, r.words) },
  classInText: { doc: "the same for its top-level class (Ye et al. 2014's class-name feature f4)", normalise: 'none', value: (r) => written(r.unit.className, r.words) },
  nameInTitle: { doc: "1 when the function's own name is written in the title", normalise: 'none', value: (r) => written(r.unit.name, r.titleWords) },
  classInTitle: { doc: '1 when its top-level class is written in the title', normalise: 'none', value: (r) => written(r.unit.className, r.titleWords) },
} satisfies Record<string, FeatureSpec<NameRow>>;

export const namesGroup: FeatureGroup<NameRow, keyof typeof features> = {
  name: 'names',
  features,
  prepare(ctx: CandidateContext) {
    const { docs, shapes } = ctx;
    // every candidate's shapes made before the query's tokens are looked up among their names'
    for (const d of docs) shapes.of(d);
    const queryTokens = shapes.queryTokens(ctx.query.keys());
    const words = ctx.issue.wordSet;
    const titleWords = ctx.issue.titleWords;
    let row: NameRow | undefined;
    return (i) => {
      const { unit, file } = shapes.of(docs[i]);
      if (!row) return (row = { unit, file, queryTokens, words, titleWords });
      row.unit = unit;
      row.file = file;
      return row;
    };
  },
};

/** Share of `tokens` that occur in the query (0 for none). */
function coverage(tokens: Int32Array, queryTokens: { has(k: number): boolean }): number {
  if (tokens.length === 0) return 0;
  let hit = 0;
  for (let k = 0; k < tokens.length; k++) if (queryTokens.has(tokens[k])) hit++;
  return hit / tokens.length;
}
