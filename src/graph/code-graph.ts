/**
 * The code graph of one commit, over the documents of its code index: which function calls which
 * (resolved names) and which file imports which. Containment (file → class → method) is the
 * index's own: a unit's file is `fileOfUnit`, its class the qualified name before its last part.
 *
 * A call `name(` inside function u (the innermost function whose lines hold the call) links u to
 * the functions whose last name part is `name`, preferring, in turn: those of u's own file, those
 * of the files u's file imports, the one function of that name in the repository (a name defined
 * more than once elsewhere links nothing). Stored as compressed rows (CSR), both directions built
 * on load.
 */
import { createRequire } from 'node:module';
import { lastNamePart } from '../corpus/names.js';
import type { BlobFacts } from './blob-facts.js';
import { FileTable, resolveImports } from './resolve-imports.js';
import type { UnitTable } from '../index/unit-table.js';

/** Functions one call links to at most (a name defined in many imported files). */
export const MAX_CALL_TARGETS = 5;

/** What the graph is built over: the unit table of a code index (src/index/code-index.ts). */
export interface GraphUnits {
  units: readonly { path: string; kind: string; qualifiedName: string; startLine: number; endLine: number }[];
  /** The same units as columns (what {@link graphKey} reads). */
  table: UnitTable;
  filePaths: readonly string[];
  fileOfUnit: ArrayLike<number>;
}

/** Compressed rows: the neighbours of node k are `to[start[k] … start[k+1])`. */
export interface Rows {
  start: Int32Array;
  to: Int32Array;
}

/** The graph of one commit. Make one with {@link CodeGraph.build} or {@link decodeGraph}. */
export class CodeGraph {
  /** Callees and callers per unit; imported files and importers per file. */
  readonly calls: Rows;
  readonly callers: Rows;
  readonly imports: Rows;
  readonly importers: Rows;

  constructor(readonly key: string, calls: Rows, imports: Rows) {
    this.calls = calls;
    this.imports = imports;
    this.callers = reverse(calls);
    this.importers = reverse(imports);
  }

  /** The neighbours of node `k` in `rows`. */
  static of(rows: Rows, k: number): Int32Array {
    return rows.to.subarray(rows.start[k], rows.start[k + 1]);
  }

  /**
   * The graph of `index` from the facts of its files (`factsOf(path)`; a file without facts has
   * no edges). O(units + calls · targets).
   */
  static build(index: GraphUnits, factsOf: (path: string) => BlobFacts | undefined): CodeGraph {
    const { units, filePaths, fileOfUnit } = index;
    const files = new FileTable(filePaths);
    const importLists = filePaths.map((p) => {
      const f = factsOf(p);
      return f ? resolveImports(p, f.imports, files) : [];
    });
    const imports = rowsOf(importLists);
    // units per file (in line order) and per name
    const unitsOfFile: number[][] = filePaths.map(() => []);
    const byName = new Map<string, number[]>();
    units.forEach((u, k) => {
      unitsOfFile[fileOfUnit[k]].push(k);
      if (u.kind !== 'function') return;
      const name = lastNamePart(u.qualifiedName);
      const l = byName.get(name);
      if (l) l.push(k); else byName.set(name, [k]);
    });
    const callLists: Set<number>[] = units.map(() => new Set());
    filePaths.forEach((path, f) => {
      const facts = factsOf(path);
      const own = unitsOfFile[f].filter((k) => units[k].kind === 'function');
      if (!facts || own.length === 0) return;
      const ownerOf = lineOwners(units, own);
      const imported = new Set(importLists[f]);
      for (const [name, line] of facts.calls) {
        const caller = line < ownerOf.length ? ownerOf[line] : -1;
        if (caller < 0) continue;
        const named = byName.get(name);
        if (!named) continue;
        let targets = named.filter((k) => fileOfUnit[k] === f && k !== caller);
        if (targets.length === 0) targets = named.filter((k) => imported.has(fileOfUnit[k]));
        if (targets.length === 0 && named.length === 1 && named[0] !== caller) targets = named;
        for (const t of targets.slice(0, MAX_CALL_TARGETS)) if (t !== caller) callLists[caller].add(t);
      }
    });
    return new CodeGraph(graphKey(index), rowsOf(callLists.map((s) => [...s].sort((a, b) => a - b))), imports);
  }
}

/**
 * Per line of a file, the innermost of its functions `own` (indexes into `units`) whose lines hold
 * it (−1: none): the wider functions first, each narrower one overwriting its lines.
 */
function lineOwners(units: GraphUnits['units'], own: readonly number[]): Int32Array {
  let last = 0;
  for (const k of own) last = Math.max(last, units[k].endLine);
  const owner = new Int32Array(last + 1).fill(-1);
  const widestFirst = [...own].sort((a, b) => (units[b].endLine - units[b].startLine) - (units[a].endLine - units[a].startLine));
  for (const k of widestFirst) owner.fill(k, Math.max(0, units[k].startLine), units[k].endLine + 1);
  return owner;
}

/** Compressed rows of adjacency lists. */
export function rowsOf(lists: readonly (readonly number[])[]): Rows {
  const start = new Int32Array(lists.length + 1);
  lists.forEach((l, k) => { start[k + 1] = start[k] + l.length; });
  const to = new Int32Array(start[lists.length]);
  lists.forEach((l, k) => to.set(l, start[k]));
  return { start, to };
}

/** The rows of the reversed edges. */
function reverse(rows: Rows): Rows {
  const n = rows.start.length - 1;
  const start = new Int32Array(n + 1);
  for (const t of rows.to) start[t + 1]++;
  for (let k = 0; k < n; k++) start[k + 1] += start[k];
  const fill = start.slice(0, n);
  const to = new Int32Array(rows.to.length);
  for (let k = 0; k < n; k++) for (let e = rows.start[k]; e < rows.start[k + 1]; e++) to[fill[rows.to[e]]++] = k;
  return { start, to };
}

/**
 * Digest of the unit table a graph is built over (paths, names and lines of every unit): a graph
 * is used only with the index it was built for.
 */
export function graphKey(index: Pick<GraphUnits, 'filePaths' | 'table'>): string {
  // node:crypto loaded here: the feature registry imports this module in every call of the built-in model, which reads no graph
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const h = createHash('sha1');
  h.update(index.filePaths.join('\n'));
  h.update('\0');
  // per unit the bytes of `${path}:${qualifiedName}:${startLine}:${endLine}\n`, from the columns, one update
  const { table } = index;
  const { names, nameStart } = table.columns;
  const paths = index.filePaths.map((p) => Buffer.from(p, 'utf8'));
  let size = 0;
  for (let d = 0; d < table.length; d++) size += paths[table.fileOfUnit[d]].length + (nameStart[d + 1] - nameStart[d]) + 24;
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  const colon = 0x3a;
  const digits = (n: number) => { o += out.write(String(n), o, 'latin1'); };
  for (let d = 0; d < table.length; d++) {
    o += paths[table.fileOfUnit[d]].copy(out, o);
    out[o++] = colon;
    out.set(names.subarray(nameStart[d], nameStart[d + 1]), o);
    o += nameStart[d + 1] - nameStart[d];
    out[o++] = colon;
    digits(table.startLine(d));
    out[o++] = colon;
    digits(table.endLine(d));
    out[o++] = 0x0a;
  }
  h.update(out.subarray(0, o));
  return h.digest('hex').slice(0, 16);
}
