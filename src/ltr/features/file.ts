/**
 * File and module features of a candidate function: its whole file's lexical scores (the
 * file-level index), the file's place in the pipeline's file roll-up, and how many candidates
 * share its file and module.
 */
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

/** The file group's record of a candidate. */
export interface FileRow {
  /** The whole file's BM25F+ for the issue, its code identifiers and its title. */
  bm25f: number; code: number; title: number;
  /** Rank of the file in the roll-up (1 = best) and of the candidate among its file's candidates (1 = first). */
  fileRank: number; withinFile: number;
  /** Candidates in the file and in the module; the module's best pipeline score. */
  inFile: number; inModule: number; moduleBest: number;
}

const features = {
  fileBm25f: { doc: "the whole file's BM25F+ for the issue (file-level index)", normalise: 'max', value: (r) => r.bm25f },
  fileBm25Code: { doc: "the whole file's BM25F+ for the issue's code identifiers alone", normalise: 'max', value: (r) => r.code },
  fileTitleBm25: { doc: "the whole file's BM25F+ for the issue's title alone", normalise: 'max', value: (r) => r.title },
  fileRank: { doc: "1 / log₂(1 + rank of the candidate's file in the pipeline's file roll-up)", normalise: 'none', value: (r) => 1 / Math.log2(1 + r.fileRank) },
  fileCandidates: { doc: 'ln(1 + candidates in the same file)', normalise: 'max', value: (r) => Math.log1p(r.inFile) },
  withinFileRank: { doc: "1 / log₂(1 + the candidate's rank among the candidates of its file)", normalise: 'none', value: (r) => 1 / Math.log2(1 + r.withinFile) },
  moduleBest: { doc: "the best pipeline score in the candidate's module (`path:TopLevelName`)", normalise: 'max', value: (r) => r.moduleBest },
  moduleCandidates: { doc: 'ln(1 + candidates in the same module)', normalise: 'max', value: (r) => Math.log1p(r.inModule) },
} satisfies Record<string, FeatureSpec<FileRow>>;

export const fileGroup: FeatureGroup<FileRow, keyof typeof features> = {
  name: 'file',
  features,
  prepare(ctx: CandidateContext) {
    const { fileScorer, docs, fileSlot, files, moduleSlot, pipelineScores } = ctx;
    // the code identifiers' query only when its feature is read
    const terms = [ctx.query, ctx.computes('fileBm25Code') ? ctx.codeQuery : undefined, ctx.titleQuery].map((q) => (q ? fileScorer.prepare(q) : []));
    // the candidates' files, each once (in slot order: the rank in the roll-up), scored together;
    // per candidate, its rank among its file's candidates; per module, its candidates and its
    // first (best) candidate's pipeline score
    const perFile = new Int32Array(files.length);
    const withinFile = new Int32Array(docs.length);
    const perModule = new Int32Array(ctx.moduleCount);
    const moduleBest = new Float64Array(ctx.moduleCount);
    for (let i = 0; i < docs.length; i++) {
      withinFile[i] = ++perFile[fileSlot[i]];
      const m = moduleSlot[i];
      if (perModule[m]++ === 0) moduleBest[m] = pipelineScores[i];
    }
    const fileScores = fileScorer.scoreDocs(files, terms);
    const W = 1 + fileScorer.fields;
    const row: FileRow = { bm25f: 0, code: 0, title: 0, fileRank: 0, withinFile: 0, inFile: 0, inModule: 0, moduleBest: 0 };
    return (i) => {
      const k = fileSlot[i];
      row.bm25f = fileScores[0][k * W];
      row.code = fileScores[1][k * W];
      row.title = fileScores[2][k * W];
      row.fileRank = k + 1;
      row.withinFile = withinFile[i];
      row.inFile = perFile[k];
      row.inModule = perModule[moduleSlot[i]];
      row.moduleBest = moduleBest[moduleSlot[i]];
      return row;
    };
  },
};
