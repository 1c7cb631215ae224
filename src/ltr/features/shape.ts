/**
 * Shape features of a candidate function: its size, its path and its kind of name
 * (src/ltr/features/shapes.ts).
 */
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';
import type { CandidateShape } from './shapes.js';

const features = {
  length: { doc: 'ln(1 + lines) / ln 1000, at most 1', normalise: 'none', value: (r) => r.unit.length },
  depth: { doc: 'path depth / 10, at most 1', normalise: 'none', value: (r) => r.file.depth },
  isTest: { doc: '1 for a test file (src/corpus/languages.ts)', normalise: 'none', value: (r) => r.file.isTest },
  isInit: { doc: '1 for `__init__.py`, `index.*`, `mod.rs` or a Rust crate root (`lib.rs`, `main.rs`)', normalise: 'none', value: (r) => r.file.isInit },
  notFunction: { doc: '1 for a class or file document', normalise: 'none', value: (r) => r.unit.notFunction },
  isPrivate: { doc: '1 for a `_name` (not a dunder), or an unexported (lower-case) Go name', normalise: 'none', value: (r) => r.unit.isPrivate },
  isDunder: { doc: '1 for a `__name__`', normalise: 'none', value: (r) => r.unit.isDunder },
} satisfies Record<string, FeatureSpec<CandidateShape>>;

export const shapeGroup: FeatureGroup<CandidateShape, keyof typeof features> = {
  name: 'shape',
  features,
  prepare(ctx: CandidateContext) {
    return (i) => ctx.shapes.of(ctx.docs[i]);
  },
};
