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
    const { fileScorer, docs, paths, modules, pipelineScores } = ctx;
    const { fileOfUnit } = ctx.codeIndex;
    const terms = [ctx.query, ctx.codeQuery, ctx.titleQuery].map((q) => fileScorer.prepare(q));
    // the candidates' files, each once, scored together
    const slot = new Map<number, number>();
    const files: number[] = [];
    for (const d of docs) {
      const f = fileOfUnit[d];
      if (!slot.has(f)) { slot.set(f, files.length); files.push(f); }
    }
    const fileScores = fileScorer.scoreDocs(files, terms);
    const W = 1 + fileScorer.fields;
    const fileRank = new Map<string, number>();
    const perFile = new Map<string, number>();
    const perModule = new Map<string, number>();
    const moduleBest = new Map<string, number>();
    const withinFile: number[] = [];
    for (let i = 0; i < docs.length; i++) {
      if (!fileRank.has(paths[i])) fileRank.set(paths[i], fileRank.size + 1);
      const inFile = (perFile.get(paths[i]) ?? 0) + 1;
      perFile.set(paths[i], inFile);
      withinFile.push(inFile);
      perModule.set(modules[i], (perModule.get(modules[i]) ?? 0) + 1);
      if (!moduleBest.has(modules[i])) moduleBest.set(modules[i], pipelineScores[i]);
    }
    const row: FileRow = { bm25f: 0, code: 0, title: 0, fileRank: 0, withinFile: 0, inFile: 0, inModule: 0, moduleBest: 0 };
    return (i) => {
      const k = slot.get(fileOfUnit[docs[i]])! * W;
      row.bm25f = fileScores[0][k];
      row.code = fileScores[1][k];
      row.title = fileScores[2][k];
      row.fileRank = fileRank.get(paths[i])!;
      row.withinFile = withinFile[i];
      row.inFile = perFile.get(paths[i])!;
      row.inModule = perModule.get(modules[i])!;
      row.moduleBest = moduleBest.get(modules[i])!;
      return row;
    };
  },
};
