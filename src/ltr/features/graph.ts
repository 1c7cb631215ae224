/**
 * Code-graph features of a candidate function (src/graph/): the calls linking it to the best
 * candidates, resolved to functions (not names), the imports linking its file to a file the issue
 * names, and whether its class holds a method the issue names. 0 when no graph was opened for the
 * index (`FeatureOptions.graph`).
 */
import { lastNamePart } from '../../corpus/names.js';
import { CodeGraph } from '../../graph/code-graph.js';
import { FileTable } from '../../graph/resolve-imports.js';
import type { CodeIndex } from '../../index/code-index.js';
import type { UnitTable } from '../../index/unit-table.js';
import { docsByNameOf, type DocsByName } from '../../retrieve/unit-lookup.js';
import type { IssueSignals } from '../../text/issue-signals.js';
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

/** Candidates whose calls are linked to every candidate. */
const TOP = 10;
/** A method name defined in more functions than this names no class (`get`, `__init__`). */
const MAX_NAME_DEFINITIONS = 20;

/** The graph group's record of a candidate. */
export interface GraphRow {
  /** Best pipeline score of a top candidate calling the candidate, and of one it calls (0: none). */
  calledBy: number; calls: number;
  /** How many top candidates call it. */
  calledByCount: number;
  best: number;
  /** Whether its file imports, or is imported by, a file the issue names; whether its class holds a method the issue names. */
  importsNamed: boolean; importedByNamed: boolean; sameClass: boolean;
}

const features = {
  graphCalledByTop: {
    doc: `the best pipeline score (÷ the best candidate's) of the top ${TOP} candidates that call the candidate (calls resolved to functions: same file, imported files, a name defined once)`,
    normalise: 'none', value: (r) => (r.best > 0 ? r.calledBy / r.best : 0),
  },
  graphCallsTop: {
    doc: `the same for the top ${TOP} candidates the candidate calls`,
    normalise: 'none', value: (r) => (r.best > 0 ? r.calls / r.best : 0),
  },
  graphCalledByCount: {
    doc: `ln(1 + how many of the top ${TOP} candidates call it) / ln ${TOP + 1}`,
    normalise: 'none', value: (r) => Math.log1p(r.calledByCount) / Math.log(TOP + 1),
  },
  importsNamedFile: {
    doc: 'whether the candidate\'s file imports (includes, uses) a file the issue names (a path, a stack frame\'s file, a dotted module or class name)',
    normalise: 'none', value: (r) => (r.importsNamed ? 1 : 0),
  },
  importedByNamedFile: {
    doc: 'whether a file the issue names imports the candidate\'s file',
    normalise: 'none', value: (r) => (r.importedByNamed ? 1 : 0),
  },
  sameClassAsNamed: {
    doc: 'whether the candidate\'s class holds another method the issue names (`name(`, `Class.name`, `Class::name`)',
    normalise: 'none', value: (r) => (r.sameClass ? 1 : 0),
  },
} satisfies Record<string, FeatureSpec<GraphRow>>;

export const graphGroup: FeatureGroup<GraphRow, keyof typeof features> = {
  name: 'graph',
  features,
  prepare(ctx: CandidateContext) {
    const { docs, pipelineScores, graph } = ctx;
    const n = docs.length;
    const row: GraphRow = { calledBy: 0, calls: 0, calledByCount: 0, best: pipelineScores[0], importsNamed: false, importedByNamed: false, sameClass: false };
    if (!graph) {
      return () => row;
    }
    const { calledBy, calls, calledByCount } = callLinks(graph, docs, pipelineScores);
    const memo = memoOf(ctx.codeIndex);
    const named = namedFiles(memo, ctx.issue.signals);
    const imports = new Uint8Array(n);
    const importedBy = new Uint8Array(n);
    if (named.size > 0) {
      const fileOf = ctx.codeIndex.fileOfUnit;
      docs.forEach((d, i) => {
        const f = fileOf[d];
        imports[i] = CodeGraph.of(graph.imports, f).some((t) => named.has(t)) ? 1 : 0;
        importedBy[i] = CodeGraph.of(graph.importers, f).some((t) => named.has(t)) ? 1 : 0;
      });
    }
    const classes = namedClasses(memo, ctx.codeIndex, ctx.issue.signals);
    return (i) => {
      row.calledBy = calledBy[i];
      row.calls = calls[i];
      row.calledByCount = calledByCount[i];
      row.importsNamed = imports[i] === 1;
      row.importedByNamed = importedBy[i] === 1;
      const cls = classOf(ctx.codeIndex.table, docs[i]);
      const holders = cls === undefined ? undefined : classes.get(cls);
      row.sameClass = holders !== undefined && (holders.size > 1 || !holders.has(docs[i]));
      return row;
    };
  },
};

/** Per candidate: the best score of a top candidate calling it / called by it, and how many top candidates call it. */
function callLinks(graph: CodeGraph, docs: readonly number[], scores: readonly number[]): { calledBy: Float32Array; calls: Float32Array; calledByCount: Uint8Array } {
  const n = docs.length;
  const calledBy = new Float32Array(n);
  const calls = new Float32Array(n);
  const calledByCount = new Uint8Array(n);
  const top = Math.min(TOP, n);
  const rankOf = new Map<number, number>();
  for (let k = 0; k < top; k++) rankOf.set(docs[k], k);
  for (let i = 0; i < n; i++) {
    for (const c of CodeGraph.of(graph.callers, docs[i])) {
      const k = rankOf.get(c);
      if (k === undefined || k === i) continue;
      calledByCount[i]++;
      if (scores[k] > calledBy[i]) calledBy[i] = scores[k];
    }
    for (const c of CodeGraph.of(graph.calls, docs[i])) {
      const k = rankOf.get(c);
      if (k !== undefined && k !== i && scores[k] > calls[i]) calls[i] = scores[k];
    }
  }
  return { calledBy, calls, calledByCount };
}

/** Per index: its file table and its documents by last name part. */
interface IndexMemo { files: FileTable; byName: DocsByName }
const memos = new WeakMap<CodeIndex, IndexMemo>();

function memoOf(codeIndex: CodeIndex): IndexMemo {
  let m = memos.get(codeIndex);
  if (!m) {
    m = { files: new FileTable(codeIndex.filePaths), byName: docsByNameOf(codeIndex.table) };
    memos.set(codeIndex, m);
  }
  return m;
}

/** The file-level documents the issue names: paths, stack frames' files, dotted module or class names. */
function namedFiles(memo: IndexMemo, signals: IssueSignals): Set<number> {
  const out = new Set<number>();
  const add = (suffix: string) => { if (suffix) for (const f of memo.files.endingWith(suffix)) out.add(f); };
  for (const p of signals.filePaths) add(p.replace(/^(\.?\/)+/, ''));
  for (const fr of signals.frames) if (fr.file) add(fr.file.replace(/^(\.?\/)+/, ''));
  for (const d of signals.dottedNames) {
    const stem = d.split('.').join('/');
    for (const ext of ['.py', '/__init__.py', '.java', '.kt', '.scala']) add(stem + ext);
  }
  return out;
}

/** The class key (`path:Qualified.Class`) of a method (document `d`); undefined for a function outside any class. */
function classOf(table: UnitTable, d: number): string | undefined {
  const q = table.qualifiedName(d);
  const dot = q.lastIndexOf('.');
  return dot < 0 ? undefined : `${table.path(d)}:${q.slice(0, dot)}`;
}

/** Class key → the functions of that class whose names the issue writes (called, dotted or scoped). */
function namedClasses(memo: IndexMemo, codeIndex: CodeIndex, signals: IssueSignals): Map<string, Set<number>> {
  const names = new Set<string>();
  for (const c of signals.calledNames) names.add(lastNamePart(c));
  for (const d of signals.dottedNames) names.add(lastNamePart(d));
  for (const s of signals.scopedNames) names.add(s.split(/::|#/).pop() ?? '');
  const out = new Map<string, Set<number>>();
  for (const name of names) {
    const defs = memo.byName.get(name)?.filter((k) => codeIndex.table.kind(k) === 'function');
    if (!defs || defs.length === 0 || defs.length > MAX_NAME_DEFINITIONS) continue;
    for (const k of defs) {
      const cls = classOf(codeIndex.table, k);
      if (cls === undefined) continue;
      const s = out.get(cls);
      if (s) s.add(k); else out.set(cls, new Set([k]));
    }
  }
  return out;
}
