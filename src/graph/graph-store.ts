/**
 * The code graph of a commit as a checked cache file (src/util/checked-file.ts) beside the
 * commit's index: `<cacheDir>/index/<commit>.<index settings key>-graph.bin` (an entry of the
 * cache's `index` kind, so `cache prune` and the size cap count it: src/index/cache-usage.ts). The payload is a JSON
 * header (the graph's key, the node counts, the array lengths) then four Int32 arrays: the call
 * rows and the import rows. A read verifies the checksum, then every length and node id.
 */
import { join } from 'node:path';
import { isInt, isRecord, readCheckedFile, writeCheckedFile } from '../util/checked-file.js';
import { CodeGraph, type Rows } from './code-graph.js';

/** Tag of a stored graph; bump when what a graph holds changes (call or import resolution). */
export const GRAPH_TAG = 'graph.v1';

/** The cache file of the graph of `commit` under the index settings key `settingsKey`. */
export function graphFilePath(cacheDir: string, commit: string, settingsKey: string): string {
  return join(cacheDir, 'index', `${commit}.${settingsKey}-graph.bin`);
}

/** Writes `graph` (of an index of `units` units and `files` files) to `path` atomically; throws the fs error. */
export function saveGraph(path: string, graph: CodeGraph, units: number, files: number): void {
  const { calls, imports } = graph;
  const header = Buffer.from(JSON.stringify({ key: graph.key, units, files, lengths: [calls.to.length, imports.to.length] }), 'utf8');
  const pre = Buffer.alloc(4);
  pre.writeUInt32LE(header.length, 0);
  const pad = Buffer.alloc((4 - ((4 + header.length) % 4)) % 4);
  writeCheckedFile(path, GRAPH_TAG, [pre, header, pad, calls.start, calls.to, imports.start, imports.to], { fsync: false });
}

/**
 * The graph stored at `path` for an index of `units` units and `files` files whose key is `key`;
 * undefined when missing, corrupt (one warning line) or built for another index (a plain miss).
 */
export function loadGraph(path: string, key: string, units: number, files: number): CodeGraph | undefined {
  let stale = false;
  const graph = readCheckedFile(path, GRAPH_TAG, (buf) => {
    const h = buf.readUInt32LE(0);
    const header = JSON.parse(buf.toString('utf8', 4, 4 + h)) as unknown;
    if (!isRecord(header) || typeof header.key !== 'string' || !isInt(header.units) || !isInt(header.files) ||
      !Array.isArray(header.lengths) || header.lengths.length !== 2 || !header.lengths.every((n) => isInt(n))) throw new Error('bad header');
    if (header.key !== key || header.units !== units || header.files !== files) { stale = true; return null; }
    const [nCalls, nImports] = header.lengths as number[];
    const offset = 4 + h + ((4 - ((4 + h) % 4)) % 4);
    if (buf.length - offset !== 4 * (units + 1 + nCalls + files + 1 + nImports)) throw new Error('bad size');
    const body = new Uint8Array(buf.length - offset);
    body.set(buf.subarray(offset));
    let o = 0;
    const i32 = (n: number) => { const a = new Int32Array(body.buffer, o, n); o += 4 * n; return a; };
    const calls: Rows = { start: i32(units + 1), to: i32(nCalls) };
    const imports: Rows = { start: i32(files + 1), to: i32(nImports) };
    if (!validRows(calls, units) || !validRows(imports, files)) throw new Error('bad rows');
    return new CodeGraph(key, calls, imports);
  });
  return stale || graph === null ? undefined : graph;
}

/** Whether `rows` start at 0, never descend, end at its edge count and name nodes below `n` only. */
function validRows(rows: Rows, n: number): boolean {
  const { start, to } = rows;
  if (start[0] !== 0 || start[start.length - 1] !== to.length) return false;
  for (let k = 1; k < start.length; k++) if (start[k] < start[k - 1]) return false;
  for (let e = 0; e < to.length; e++) if (to[e] < 0 || to[e] >= n) return false;
  return true;
}
