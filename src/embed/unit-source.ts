import { isBinary, decodeSource, sourceLines } from '../corpus/decode.js';
import type { GitRepo } from '../repo/git.js';

/** Where a unit is: the file and its 1-based inclusive line span (an IndexedUnit fits). */
export interface UnitSpan {
  path: string;
  startLine: number;
  endLine: number;
}

/**
 * The source text of code units at one commit, read again from git by line span (the index keeps
 * spans, not text). Blobs are read once each through `git cat-file --batch`.
 */
export class UnitSourceReader {
  private blobs: Map<string, string> | undefined;
  private readonly lines = new Map<string, string[]>();

  constructor(readonly repo: GitRepo, readonly commit: string) {}

  /** Blob SHA of every file of the commit (listed once). */
  async blobOf(): Promise<Map<string, string>> {
    if (!this.blobs) {
      const { entries } = await this.repo.listFiles(this.commit);
      this.blobs = new Map(entries.map((e) => [e.path, e.blob]));
    }
    return this.blobs;
  }

  /**
   * The text of each unit (its lines joined with `\n`), in order; `''` for a unit whose file is
   * missing from the commit, unreadable or binary. Files stay in memory: use one reader per task.
   */
  async texts(units: readonly UnitSpan[]): Promise<string[]> {
    const blobs = await this.blobOf();
    const wanted = new Map<string, string[]>();
    for (const u of units) {
      const blob = blobs.get(u.path);
      if (blob === undefined || this.lines.has(u.path)) continue;
      const paths = wanted.get(blob) ?? [];
      if (!paths.includes(u.path)) paths.push(u.path);
      wanted.set(blob, paths);
    }
    if (wanted.size > 0) {
      for await (const [blob, buf] of this.repo.readBlobs([...wanted.keys()])) {
        const lines = buf === null || isBinary(buf) ? [] : sourceLines(decodeSource(buf));
        for (const p of wanted.get(blob) ?? []) this.lines.set(p, lines);
      }
    }
    return units.map((u) => (this.lines.get(u.path) ?? []).slice(u.startLine - 1, u.endLine).join('\n'));
  }

  /** Forgets the files read so far (the blob listing is kept). */
  forget(): void {
    this.lines.clear();
  }
}
