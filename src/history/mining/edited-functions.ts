/**
 * The existing functions a commit edits, by the gold rule of the datasets
 * (`editedFunctionNames`, src/dataset/function-positives.ts: a removed line in a function's span
 * at the parent, or an added line in the span, in the commit, of a function the parent has),
 * from −U0 hunks, whose line numbers are exact at the parent and the commit. Function spans are
 * extracted per blob (on worker threads when there are many: ./span-pool.ts) and kept in memory by blob id, so a blob that is the new side of one commit
 * and the old side of the next one touching its file is parsed once.
 */
import type { GitRepo } from '../../repo/git.js';
import { editedFunctionsIn, type FunctionSpan } from '../../dataset/function-positives.js';
import type { SpanPool } from './span-pool.js';
import { addedNewLines, removedOldLines, type FilePatch } from '../../dataset/patch.js';

/** Blobs whose function spans are kept (a few hundred bytes each). */
const SPAN_CACHE_SIZE = 8192;

/** Function spans per blob id (parses in flight included), least recently used dropped first. */
export class SpanCache {
  private readonly spans = new Map<string, Promise<FunctionSpan[]>>();
  /** Blobs parsed so far. */
  parsed = 0;

  constructor(private readonly pool: SpanPool) {}

  /** Spans of the functions in `data` (the blob `blob` at `path`). */
  of(blob: string, path: string, data: Buffer): Promise<FunctionSpan[]> {
    const hit = this.spans.get(blob);
    if (hit) {
      this.spans.delete(blob);
      this.spans.set(blob, hit);
      return hit;
    }
    this.parsed++;
    const found = this.pool.parse(path, data);
    this.spans.set(blob, found);
    if (this.spans.size > SPAN_CACHE_SIZE) this.spans.delete(this.spans.keys().next().value!);
    return found;
  }
}

/** What {@link editedFunctions} finds in one commit. */
export interface EditedFunctions {
  /** `path:Qualified.name`, per file in patch order, in parent-file order within a file. */
  functions: string[];
  /** The module of each of `functions` (same order). */
  modules: string[];
  /** Paths whose blob at the parent or the commit is missing (no functions from them). */
  unreadable: string[];
}

/**
 * The existing functions that `files` (the commit's −U0 patches of files the parent has) edit.
 * @param sha the commit; `parent` its first parent.
 */
export async function editedFunctions(repo: GitRepo, sha: string, parent: string, files: readonly FilePatch[], spans: SpanCache): Promise<EditedFunctions> {
  const out: EditedFunctions = { functions: [], modules: [], unreadable: [] };
  const reads = files.map((f) => Promise.all([
    repo.readFileAt(parent, f.path),
    f.newPath === null ? Promise.resolve(null) : repo.readFileAt(sha, f.newPath),
  ]));
  for (let k = 0; k < files.length; k++) {
    const f = files[k];
    const [before, after] = await reads[k];
    if (!before || before.type !== 'blob' || (f.newPath !== null && (!after || after.type !== 'blob'))) {
      out.unreadable.push(f.path);
      continue;
    }
    // the commit's version is asked first: it is usually the parent's version of the newer commit
    // mined before (cached), whose parse the path's thread keeps, so the parent's version is
    // re-parsed from it, over what this commit changed (./span-pool.ts)
    const [newSpans, oldSpans] = await Promise.all([
      after ? spans.of(after.sha, f.newPath!, after.data) : Promise.resolve([]),
      spans.of(before.sha, f.path, before.data),
    ]);
    if (oldSpans.length === 0) continue;
    for (const e of editedFunctionsIn(f.path, oldSpans, newSpans, new Set(removedOldLines(f)), new Set(addedNewLines(f)))) {
      out.functions.push(e.id);
      out.modules.push(e.module);
    }
  }
  return out;
}
