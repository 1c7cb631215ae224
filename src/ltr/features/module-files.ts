/**
 * Rust and Go module files: a Go package is its folder (`doc.go` holds only its documentation), a
 * Rust module is its file (`mod.rs` its folder's, `lib.rs`/`main.rs` its crate's); an issue naming
 * the package or module (`http.Server`, `format::write`) points at its files. And, for every
 * language, how well the candidate's folder (its package) does among the candidates.
 */
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

/** The module group's record of a candidate. */
export interface ModuleRow {
  /** 1/0: the Go package or Rust module named in the issue; the file is a `doc.go`. */
  named: number; docGo: number;
  /** The best pipeline score of a candidate in the same folder. */
  folderBest: number;
}

const features = {
  moduleNamed: { doc: "1 when the issue writes the Go file's package (its folder's name) or the Rust file's module (file name; folder for `mod.rs`; crate folder for `lib.rs`/`main.rs`) as a word", normalise: 'none', value: (r) => r.named },
  isDocGo: { doc: '1 for a Go `doc.go` (package documentation only)', normalise: 'none', value: (r) => r.docGo },
  folderBest: { doc: "the best pipeline score of a candidate in the candidate's folder (its Go package, Java package, …)", normalise: 'max', value: (r) => r.folderBest },
} satisfies Record<string, FeatureSpec<ModuleRow>>;

export const moduleFilesGroup: FeatureGroup<ModuleRow, keyof typeof features> = {
  name: 'module files',
  features,
  prepare(ctx: CandidateContext) {
    const { docs, shapes } = ctx;
    const { fileOfUnit } = ctx.codeIndex;
    // the issue's words, read only when a candidate's file has a module name (Go, Rust)
    let words: Set<string> | undefined;
    const wordsOf = () => (words ??= new Set([...ctx.issue.text.matchAll(/[A-Za-z_][A-Za-z0-9_]+/g)].map((m) => m[0].toLowerCase())));
    const best = new Map<string, number>();
    docs.forEach((d, i) => {
      const { folder } = shapes.file(fileOfUnit[d]);
      if (!best.has(folder)) best.set(folder, ctx.pipelineScores[i]);
    });
    const row: ModuleRow = { named: 0, docGo: 0, folderBest: 0 };
    return (i) => {
      const file = shapes.file(fileOfUnit[docs[i]]);
      const name = file.moduleName;
      row.named = name.length >= 2 && wordsOf().has(name) ? 1 : 0;
      row.docGo = file.isDocGo;
      row.folderBest = best.get(file.folder)!;
      return row;
    };
  },
};
