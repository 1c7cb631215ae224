/**
 * Call-link features of a candidate function: whether the best candidates use its name (it is a
 * helper of the functions the issue is about) or it uses theirs (it is a caller). Names are the
 * whole-identifier tokens of the function-level index; uses are body-field postings.
 */
import type { CodeIndex } from '../../index/code-index.js';
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

/** Candidates whose names and bodies are linked to every candidate. */
const TOP = 10;

/** The call-link group's record of a candidate. */
export interface CallRow {
  /** Best pipeline score of a top candidate using the candidate's name, and of one whose name it uses (0: none). */
  calledBy: number; calls: number;
  /** How many top candidates use its name. */
  calledByCount: number;
  /** The best candidate's pipeline score. */
  best: number;
}

const features = {
  calledByTop: {
    doc: `the best pipeline score (÷ the best candidate's) of the top ${TOP} candidates whose body uses the candidate's name (a helper of the functions the issue is about)`,
    normalise: 'none', value: (r) => (r.best > 0 ? r.calledBy / r.best : 0),
  },
  callsTop: {
    doc: `the same for the top ${TOP} candidates whose name the candidate's body uses (a caller)`,
    normalise: 'none', value: (r) => (r.best > 0 ? r.calls / r.best : 0),
  },
  calledByCount: {
    doc: `ln(1 + how many of the top ${TOP} candidates use its name) / ln ${TOP + 1} (a helper shared by several of them)`,
    normalise: 'none', value: (r) => Math.log1p(r.calledByCount) / Math.log(TOP + 1),
  },
} satisfies Record<string, FeatureSpec<CallRow>>;

export const callsGroup: FeatureGroup<CallRow, keyof typeof features> = {
  name: 'calls',
  features,
  prepare(ctx: CandidateContext) {
    const { calledBy, calls, calledByCount } = callLinks(ctx);
    const row: CallRow = { calledBy: 0, calls: 0, calledByCount: 0, best: ctx.pipelineScores[0] };
    return (i) => {
      row.calledBy = calledBy[i];
      row.calls = calls[i];
      row.calledByCount = calledByCount[i];
      return row;
    };
  },
};

/**
 * For each candidate: the best pipeline score among the top candidates whose body field holds
 * its name token (calledBy), and among the top candidates whose name token its body holds
 * (calls), and how many of the top hold its name (calledByCount). Binary searches in the name
 * tokens' postings: O(candidates × TOP × log postings).
 */
function callLinks(ctx: CandidateContext): { calledBy: Float32Array; calls: Float32Array; calledByCount: Uint8Array } {
  const { docs, pipelineScores, shapes, codeIndex } = ctx;
  const body = ctx.fieldAt.body;
  const n = docs.length;
  const calledBy = new Float32Array(n);
  const calledByCount = new Uint8Array(n);
  const calls = new Float32Array(n);
  const top = Math.min(TOP, n);
  const nameTerm = docs.map((d) => shapes.unit(d).nameTerm);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < top; k++) {
      if (k === i) continue;
      if (nameTerm[i] >= 0 && bodyHas(codeIndex, body, docs[k], nameTerm[i])) {
        calledByCount[i]++;
        if (pipelineScores[k] > calledBy[i]) calledBy[i] = pipelineScores[k];
      }
      if (nameTerm[k] >= 0 && pipelineScores[k] > calls[i] && bodyHas(codeIndex, body, docs[i], nameTerm[k])) calls[i] = pipelineScores[k];
    }
  }
  return { calledBy, calls, calledByCount };
}

/** Whether field `body` (−1: none) of function-level document `doc` holds term `t`. */
function bodyHas(codeIndex: CodeIndex, body: number, doc: number, t: number): boolean {
  const F = codeIndex.index.fieldNames.length;
  if (body < 0) return false;
  const { doc: postingDoc, tf: postingTf } = codeIndex.index.postings(t);
  let lo = 0, hi = postingDoc.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const d = postingDoc[mid];
    if (d === doc) return postingTf[mid * F + body] > 0;
    if (d < doc) lo = mid + 1; else hi = mid - 1;
  }
  return false;
}
