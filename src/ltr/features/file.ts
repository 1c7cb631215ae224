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
    const { fileScorer, docs, modules, pipelineScores } = ctx;
    const { fileOfUnit } = ctx.codeIndex;
    // the code identifiers' query only when its feature is read
    const terms = [ctx.query, ctx.computes('fileBm25Code') ? ctx.codeQuery : undefined, ctx.titleQuery].map((q) => (q ? fileScorer.prepare(q) : []));
    // the candidates' files, each once (its slot: the order of its first candidate, which is its
    // rank in the roll-up), scored together; per candidate, its rank among its file's candidates
    const slot = new Map<number, number>();
    const files: number[] = [];
    const perFile: number[] = [];
    const withinFile = new Int32Array(docs.length);
    const slotOf = new Int32Array(docs.length);
    const perModule = new Map<string, number>();
    const moduleBest = new Map<string, number>();
    for (let i = 0; i < docs.length; i++) {
      const f = fileOfUnit[docs[i]];
      let k = slot.get(f);
      if (k === undefined) { slot.set(f, (k = files.length)); files.push(f); perFile.push(0); }
      slotOf[i] = k;
      withinFile[i] = ++perFile[k];
      perModule.set(modules[i], (perModule.get(modules[i]) ?? 0) + 1);
      if (!moduleBest.has(modules[i])) moduleBest.set(modules[i], pipelineScores[i]);
    }
    const fileScores = fileScorer.scoreDocs(files, terms);
    const W = 1 + fileScorer.fields;
    const row: FileRow = { bm25f: 0, code: 0, title: 0, fileRank: 0, withinFile: 0, inFile: 0, inModule: 0, moduleBest: 0 };
    return (i) => {
      const k = slotOf[i];
      row.bm25f = fileScores[0][k * W];
      row.code = fileScores[1][k * W];
      row.title = fileScores[2][k * W];
      row.fileRank = k + 1;
      row.withinFile = withinFile[i];
      row.inFile = perFile[k];
      row.inModule = perModule.get(modules[i])!;
      row.moduleBest = moduleBest.get(modules[i])!;
      return row;
    };
  },
};
