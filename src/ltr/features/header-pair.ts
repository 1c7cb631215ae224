/**
 * C/C++ header/implementation pairing: a candidate in `x.c`/`x.cc`/`x.cpp` whose `x.h`/`x.hpp`
 * matches the issue well (and vice versa) is likelier the fix's file — a declaration in the header
 * and its definition in the implementation file share the words between them.
 */
import type { CodeIndex } from '../../index/code-index.js';
import { extensionOf } from '../../corpus/languages.js';
import { fileStem } from '../../corpus/names.js';
import type { PreparedTerm } from '../doc-scores.js';
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

const HEADER = new Set(['h', 'hpp', 'hh', 'hxx', 'h++']);
const SOURCE = new Set(['c', 'cc', 'cpp', 'cxx', 'c++']);

/** Per index: file-level document → its pair's (−1: none). */
const pairsOf = new WeakMap<CodeIndex, Int32Array>();

/**
 * The paired file of each file-level document of a C/C++ index: the file of the same stem with
 * the other role (header ↔ implementation), the one sharing the longest folder prefix (ties: the
 * first in path order); −1 for none and for every other file.
 */
export function headerPairs(codeIndex: CodeIndex): Int32Array {
  let pairs = pairsOf.get(codeIndex);
  if (pairs) return pairs;
  const { filePaths } = codeIndex;
  pairs = new Int32Array(filePaths.length).fill(-1);
  const role = filePaths.map((p) => {
    const ext = extensionOf(p);
    return HEADER.has(ext) ? 'h' : SOURCE.has(ext) ? 'c' : '';
  });
  const byStem = new Map<string, number[]>();
  filePaths.forEach((p, f) => {
    if (!role[f]) return;
    const stem = fileStem(p);
    byStem.set(stem, [...(byStem.get(stem) ?? []), f]);
  });
  for (const files of byStem.values()) {
    for (const f of files) {
      let best = -1;
      let bestShared = -1;
      for (const g of files) {
        if (role[g] === role[f]) continue;
        const shared = sharedFolders(filePaths[f], filePaths[g]);
        if (shared > bestShared) [best, bestShared] = [g, shared];
      }
      pairs[f] = best;
    }
  }
  pairsOf.set(codeIndex, pairs);
  return pairs;
}

/** Leading folders two paths share. */
function sharedFolders(a: string, b: string): number {
  const x = a.split('/').slice(0, -1);
  const y = b.split('/').slice(0, -1);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/** The pairing group's record of a candidate. */
export interface PairRow {
  /** The paired file's whole-file BM25F+ for the issue, and its best candidate's pipeline score (0: no pair, or no candidate there). */
  pairBm25f: number; pairBest: number;
}

const features = {
  pairFileBm25f: { doc: "the whole-file BM25F+ of the C/C++ file's header or implementation (`x.h` ↔ `x.c`/`x.cc`/`x.cpp`; 0 without one)", normalise: 'max', value: (r) => r.pairBm25f },
  pairBest: { doc: 'the best pipeline score of a candidate in that paired file (0: none)', normalise: 'max', value: (r) => r.pairBest },
} satisfies Record<string, FeatureSpec<PairRow>>;

export const headerPairGroup: FeatureGroup<PairRow, keyof typeof features> = {
  name: 'header pair',
  features,
  prepare(ctx: CandidateContext) {
    const { codeIndex, docs, pipelineScores, fileScorer } = ctx;
    const { fileOfUnit } = codeIndex;
    const pairs = headerPairs(codeIndex);
    const best = new Map<number, number>();
    docs.forEach((d, i) => { if (!best.has(fileOfUnit[d])) best.set(fileOfUnit[d], pipelineScores[i]); });
    let terms: readonly PreparedTerm[] | undefined;
    const buf = new Float64Array(1 + fileScorer.fields);
    const scores = new Map<number, number>();
    const scoreOf = (f: number) => {
      let s = scores.get(f);
      if (s === undefined) {
        terms ??= fileScorer.prepare(ctx.query);
        if (terms.length === 0) s = 0;
        else {
          fileScorer.score(f, terms, buf);
          s = buf[0];
        }
        scores.set(f, s);
      }
      return s;
    };
    const row: PairRow = { pairBm25f: 0, pairBest: 0 };
    return (i) => {
      const pair = pairs[fileOfUnit[docs[i]]];
      row.pairBm25f = pair < 0 ? 0 : scoreOf(pair);
      row.pairBest = pair < 0 ? 0 : best.get(pair) ?? 0;
      return row;
    };
  },
};
