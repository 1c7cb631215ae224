/**
 * Lexical features of a candidate function: the pipeline's score and rank, and the function's
 * BM25F+ and per-field BM25 (src/ltr/doc-scores.ts) for the whole issue, for its code
 * identifiers alone and for its title alone.
 */
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

/** The lexical group's record of a candidate. */
export interface LexicalRow {
  /** The pipeline's score and the candidate's rank (0 = best). */
  pipeline: number; rank: number;
  /** BM25F+ and per-field BM25 for the issue. */
  bm25f: number; path: number; name: number; body: number;
  /** BM25F+ for the code identifiers; BM25F+ and per-field BM25 for the title. */
  code: number; title: number; titleName: number; titlePath: number;
}

const features = {
  pipeline: { doc: "the lexical pipeline's score (src/retrieve/localize.ts)", normalise: 'max', value: (r) => r.pipeline },
  pipelineRank: { doc: '1 / log₂(1 + the candidate\'s rank in the pipeline)', normalise: 'none', value: (r) => 1 / Math.log2(2 + r.rank) },
  bm25f: { doc: "the function's BM25F+ for the issue", normalise: 'max', value: (r) => r.bm25f },
  bm25Path: { doc: 'BM25 of the path field alone', normalise: 'max', value: (r) => r.path },
  bm25Name: { doc: 'BM25 of the name field alone', normalise: 'max', value: (r) => r.name },
  bm25Body: { doc: 'BM25 of the body field alone', normalise: 'max', value: (r) => r.body },
  bm25Code: {
    doc: "BM25F+ for the issue's code identifiers alone (words written with `_`, inner capitals or digits: `index_together`, `StatReloader`, `_verts3d`, each as its whole-identifier token), so that a few exact identifiers are not drowned by the prose",
    normalise: 'max', value: (r) => r.code,
  },
  titleBm25: {
    doc: "BM25F+ for the issue's title alone (its first non-empty line: the summary a reporter writes first, which Ye et al. 2014 and Saha et al. 2013 weigh apart from the description)",
    normalise: 'max', value: (r) => r.title,
  },
  titleName: { doc: 'BM25 of the name field alone for the title', normalise: 'max', value: (r) => r.titleName },
  titlePath: { doc: 'BM25 of the path field alone for the title', normalise: 'max', value: (r) => r.titlePath },
} satisfies Record<string, FeatureSpec<LexicalRow>>;

export const lexicalGroup: FeatureGroup<LexicalRow, keyof typeof features> = {
  name: 'lexical',
  features,
  prepare(ctx: CandidateContext) {
    const { fnScorer, fieldAt, docs, pipelineScores } = ctx;
    const code = fnScorer.prepare(ctx.codeQuery);
    const title = fnScorer.prepare(ctx.titleQuery);
    const [all, byCode, byTitle] = fnScorer.scoreDocs(docs, [fnScorer.prepare(ctx.query), code, title]);
    const W = 1 + fnScorer.fields;
    const field = (x: Float64Array, i: number, f: number) => (f >= 0 ? x[i * W + 1 + f] : 0);
    const row: LexicalRow = { pipeline: 0, rank: 0, bm25f: 0, path: 0, name: 0, body: 0, code: 0, title: 0, titleName: 0, titlePath: 0 };
    return (i) => {
      row.pipeline = pipelineScores[i];
      row.rank = i;
      row.bm25f = all[i * W];
      row.path = field(all, i, fieldAt.path);
      row.name = field(all, i, fieldAt.name);
      row.body = field(all, i, fieldAt.body);
      row.code = code.length > 0 ? byCode[i * W] : 0;
      row.title = title.length > 0 ? byTitle[i * W] : 0;
      row.titleName = title.length > 0 ? field(byTitle, i, fieldAt.name) : 0;
      row.titlePath = title.length > 0 ? field(byTitle, i, fieldAt.path) : 0;
      return row;
    };
  },
};
