/**
 * Call-link features of a candidate function: whether the best candidates use its name (it is a
 * helper of the functions the issue is about) or it uses theirs (it is a caller). Names are the
 * whole-identifier tokens of the function-level index; uses are body-field postings.
 */
import type { InvertedIndex } from '../../index/inverted-index.js';
import { DocRows, firstAtLeast, passAlongPostings, rowsByDocument } from '../../util/sorted-search.js';
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
 * (calls), and how many of the top hold its name (calledByCount). Each name token's documents
 * with it in the body ({@link BodyDocs}) are searched once: for the top candidates (per distinct
 * name), and, for a top candidate's name, for every candidate (both in document order,
 * galloping): O(names × TOP × log(documents / TOP) + TOP × candidates × log(documents / candidates)).
 */
function callLinks(ctx: CandidateContext): { calledBy: Float32Array; calls: Float32Array; calledByCount: Uint8Array } {
  const { docs, pipelineScores, shapes, codeIndex } = ctx;
  const body = ctx.fieldAt.body;
  const n = docs.length;
  const calledBy = new Float32Array(n);
  const calledByCount = new Uint8Array(n);
  const calls = new Float32Array(n);
  if (body < 0) return { calledBy, calls, calledByCount };
  const bodies = BodyDocs.of(codeIndex.index, body);
  const top = Math.min(TOP, n);
  const nameTerm = docs.map((d) => shapes.unit(d).nameTerm);
  // the top candidates in document order, for one walk along a name's long documents list; by
  // document, for one pass along a short one
  const topDocs = docs.slice(0, top);
  const topRows = bodies.rows.mark(topDocs) ? bodies.rows : undefined;
  const topOrder = topRows ? topRows.order() : rowsByDocument(topDocs);
  // per name token, which top candidates' bodies hold it (bit k: the k-th)
  const heldByTop = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const t = nameTerm[i];
    if (t < 0) continue;
    let mask = heldByTop.get(t);
    if (mask === undefined) {
      mask = 0;
      const doc = bodies.of(t);
      if (topRows && passAlongPostings(doc.length, top)) {
        for (let p = 0; p < doc.length; p++) {
          const k = topRows.row(doc[p]);
          if (k >= 0) mask |= 1 << k;
        }
      } else {
        let p = 0;
        for (let j = 0; j < top && p < doc.length; j++) {
          const k = topOrder[j];
          p = firstAtLeast(doc, p, doc.length, docs[k]);
          if (p < doc.length && doc[p] === docs[k]) mask |= 1 << k;
        }
      }
      heldByTop.set(t, mask);
    }
    for (let k = 0; k < top; k++) {
      if (k === i || (mask & (1 << k)) === 0) continue;
      calledByCount[i]++;
      if (pipelineScores[k] > calledBy[i]) calledBy[i] = pipelineScores[k];
    }
  }
  // the candidates in document order, for one walk along each top name's documents
  const order = rowsByDocument(docs);
  for (let k = 0; k < top; k++) {
    const t = nameTerm[k];
    if (t < 0) continue;
    const doc = bodies.of(t);
    let p = 0;
    for (let j = 0; j < n && p < doc.length; j++) {
      const i = order[j];
      p = firstAtLeast(doc, p, doc.length, docs[i]);
      if (i !== k && p < doc.length && doc[p] === docs[i] && pipelineScores[k] > calls[i]) calls[i] = pipelineScores[k];
    }
  }
  return { calledBy, calls, calledByCount };
}

/**
 * Per name token of an index, the documents whose body field holds it (ascending): the token's
 * postings without those of the other fields only, made on the token's first query and kept
 * with the index, as its decoded postings are.
 */
class BodyDocs {
  private static readonly byIndex = new WeakMap<InvertedIndex, BodyDocs>();
  /** Per term id, its documents once made. */
  private readonly docs: (Uint32Array | undefined)[];
  /** The index's documents by row, for one list of documents at a time. */
  readonly rows: DocRows;

  private constructor(private readonly index: InvertedIndex, private readonly body: number) {
    this.rows = new DocRows(index.docCount);
    this.docs = new Array<Uint32Array | undefined>(index.termCount).fill(undefined);
  }

  /** The table of `index`, whose body is field number `body`. */
  static of(index: InvertedIndex, body: number): BodyDocs {
    let b = BodyDocs.byIndex.get(index);
    if (!b || b.body !== body) BodyDocs.byIndex.set(index, (b = new BodyDocs(index, body)));
    return b;
  }

  /** The documents of term `t` with tf > 0 in the body field. */
  of(t: number): Uint32Array {
    let out = this.docs[t];
    if (out) return out;
    const { doc, tf } = this.index.postings(t);
    const F = this.index.fieldNames.length;
    let m = 0;
    for (let p = 0; p < doc.length; p++) if (tf[p * F + this.body] > 0) m++;
    out = new Uint32Array(m);
    m = 0;
    for (let p = 0; p < doc.length; p++) if (tf[p * F + this.body] > 0) out[m++] = doc[p];
    this.docs[t] = out;
    return out;
  }
}
