/**
 * The code graph of an indexed commit: read from its cache file beside the index
 * (src/graph/graph-store.ts), else built from the facts of the commit's files (per blob, cached:
 * src/graph/facts-cache.ts; only blobs missing there are read from git and scanned) and stored.
 */
import { join } from 'node:path';
import { decodeSource, isBinary } from '../corpus/decode.js';
import { languageOf } from '../corpus/languages.js';
import { settingsKey, type CodeIndex } from '../index/code-index.js';
import type { GitRepo } from '../repo/git.js';
import { factsOf, type BlobFacts } from './blob-facts.js';
import { CodeGraph, graphKey } from './code-graph.js';
import { FactsCache } from './facts-cache.js';
import { graphFilePath, loadGraph, saveGraph } from './graph-store.js';
import { warnCacheNotSaved } from '../util/file-errors.js';

/** Folder of the per-blob facts under a cache folder (a `blobs-` folder: the cache's blob kind). */
export const FACTS_DIR = 'blobs-graph1';

/** What {@link openCodeGraph} did: whether it built the graph, and how many blobs it scanned. */
export interface OpenedGraph {
  graph: CodeGraph;
  built: boolean;
  scannedBlobs: number;
}

/**
 * The graph of `codeIndex` (of `codeIndex.commit` in `repo`): loaded from `cacheDir` when there
 * and built for this index, else built and saved (a folder that does not take it gives one
 * warning line; the graph still serves). Without `cacheDir` nothing is read or stored.
 * @throws IssuelocError when git cannot list the commit's tree.
 */
export async function openCodeGraph(repo: GitRepo, codeIndex: CodeIndex, cacheDir?: string): Promise<OpenedGraph> {
  const key = graphKey(codeIndex);
  const units = codeIndex.table.length;
  const files = codeIndex.filePaths.length;
  const file = cacheDir ? graphFilePath(cacheDir, codeIndex.commit, settingsKey(codeIndex.settings)) : undefined;
  const stored = file && loadGraph(file, key, units, files);
  if (stored) return { graph: stored, built: false, scannedBlobs: 0 };
  const { facts, scanned } = await factsOfCommit(repo, codeIndex, cacheDir);
  const graph = CodeGraph.build(codeIndex, (p) => facts.get(p));
  if (file) {
    try {
      saveGraph(file, graph, units, files);
    } catch (e) {
      warnCacheNotSaved(`cannot save the code graph ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); it is built again next time`, e);
    }
  }
  return { graph, built: true, scannedBlobs: scanned };
}

/** The facts of the index's files, from the per-blob cache or scanned now. */
async function factsOfCommit(repo: GitRepo, codeIndex: CodeIndex, cacheDir?: string): Promise<{ facts: Map<string, BlobFacts>; scanned: number }> {
  const wanted = new Set(codeIndex.filePaths);
  const { entries } = await repo.listTree(codeIndex.commit);
  const cache = cacheDir ? new FactsCache(join(cacheDir, FACTS_DIR)) : undefined;
  const facts = new Map<string, BlobFacts>();
  const toRead = new Map<string, string[]>();
  const keyOf = (blob: string, path: string) => `${blob}${languageOf(path) ?? ''}`;
  for (const e of entries) {
    if (!wanted.has(e.path)) continue;
    const hit = cache?.get(keyOf(e.blob, e.path));
    if (hit) { facts.set(e.path, hit); continue; }
    const l = toRead.get(e.blob);
    if (l) l.push(e.path); else toRead.set(e.blob, [e.path]);
  }
  for await (const [blob, buf] of repo.readBlobs([...toRead.keys()])) {
    if (buf === null || isBinary(buf)) continue;
    const text = decodeSource(buf);
    for (const path of toRead.get(blob) ?? []) {
      const f = factsOf(path, text);
      facts.set(path, f);
      cache?.set(keyOf(blob, path), f);
    }
  }
  return { facts, scanned: toRead.size };
}
