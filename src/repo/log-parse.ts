/**
 * Incremental parser for the output of `git log -z --name-status --format=LOG_FORMAT`.
 *
 * Each commit is printed as a header `\x01<sha> <parents…>\x02<committer time>\x02<raw message>\x03`
 * followed by a NUL, then (for commits with a diff) a newline and NUL-separated pairs
 * `<status>\0<path>\0`. The parser keeps only the unfinished tail of the stream between calls to
 * {@link LogParser.push}, so its memory does not grow with the length of the history.
 */

/**
 * A copy of `s` that shares no memory with the string it was cut from. V8 represents `slice`
 * results as views into their parent, so a kept SHA or path would keep a whole 64 KiB chunk of
 * text alive (the log parser decodes each token into a string of its own instead).
 */
export function detach(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/** The `--format` string {@link LogParser} understands (pass it to `git log`). */
export const LOG_FORMAT = '%x01%H %P%x02%ct%x02%B%x03';

/** One changed path of a commit against its first parent, as `--name-status --no-renames` gives it. */
export interface PathChange {
  /** `A` added, `M` modified, `D` deleted, `T` type changed (others as git prints them). */
  status: string;
  path: string;
}

/** One commit as read from the log. */
export interface LogCommit {
  sha: string;
  /** Parent SHAs in order (first parent first); empty for a root commit. */
  parents: string[];
  /** Committer time, seconds since the Unix epoch. */
  time: number;
  /** The raw commit message (all lines). */
  message: string;
  /** Changed paths against the first parent; empty for merges (git log prints no diff for them). */
  changes: PathChange[];
}

/**
 * Streaming parser: feed it chunks of `git log` stdout with {@link push}, then call {@link end}.
 * `onCommit` is called once per commit, in the order git prints them.
 *
 * It works on the bytes: the delimiters are ASCII (never inside a UTF-8 sequence), so each
 * token is decoded alone once whole, into a string of its own (nothing a caller keeps pins a
 * chunk of output, and no chunk is decoded whole or copied into a string first).
 *
 * @throws Error on output that does not follow {@link LOG_FORMAT} (the message names the token).
 */
export class LogParser {
  /** The unparsed end of the stream (an unfinished token). */
  private tail: Buffer = Buffer.alloc(0);
  private current: LogCommit | null = null;
  private pendingStatus: string | null = null;
  /** Number of commits emitted so far. */
  count = 0;

  constructor(private readonly onCommit: (c: LogCommit) => void) {}

  /** Parses a chunk of stdout (any split, including inside a UTF-8 sequence). */
  push(chunk: Buffer): void {
    this.drain(this.tail.length === 0 ? chunk : Buffer.concat([this.tail, chunk]), false);
  }

  /** Flushes the last commit; call once after the stream ended. */
  end(): void {
    this.drain(this.tail, true);
    this.flush();
  }

  private drain(b: Buffer, final: boolean): void {
    let start = 0;
    for (;;) {
      // a header can only come where a status could (a path token may start with anything)
      const atHeader = b[start] === 0x01 || (b[start] === 0x0a && b[start + 1] === 0x01);
      if (this.pendingStatus === null && atHeader) {
        // a header: it ends at \x03 (the message may contain newlines, never \x03 in practice)
        const endHeader = b.indexOf(0x03, start);
        if (endHeader < 0) break;
        this.header(b, b.indexOf(0x01, start) + 1, endHeader);
        // the NUL after the header, if it has not arrived yet, is read later as an empty token
        start = endHeader + 1;
        if (b[start] === 0) start++;
        continue;
      }
      const nul = b.indexOf(0, start);
      if (nul < 0) {
        if (final && start < b.length && b.toString('utf8', start).trim() !== '') {
          throw new Error(`git log output ends inside a token: ${JSON.stringify(b.toString('utf8', start, start + 80))}`);
        }
        break;
      }
      this.token(b, start, nul);
      start = nul + 1;
    }
    // copied: a view would keep the whole chunk alive
    this.tail = start >= b.length ? Buffer.alloc(0) : Buffer.from(b.subarray(start));
  }

  /** The header in b[from, to): `<sha> <parents…>\x02<committer time>\x02<raw message>`. */
  private header(b: Buffer, from: number, to: number): void {
    this.flush();
    const f1 = b.indexOf(0x02, from);
    const f2 = f1 < 0 || f1 >= to ? -1 : b.indexOf(0x02, f1 + 1);
    if (f1 < 0 || f1 >= to || f2 < 0 || f2 >= to) throw new Error(`malformed git log header: ${JSON.stringify(b.toString('utf8', from, Math.min(to, from + 120)))}`);
    // the ids, space-separated: each decoded alone (a string of its own)
    const ids: string[] = [];
    for (let i = from; i < f1;) {
      let j = b.indexOf(0x20, i);
      if (j < 0 || j > f1) j = f1;
      if (j > i) ids.push(b.toString('latin1', i, j));
      i = j + 1;
    }
    const sha = ids[0] ?? '';
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha)) throw new Error(`malformed commit id in git log: ${JSON.stringify(sha)}`);
    this.current = {
      sha,
      parents: ids.slice(1),
      time: Number(b.toString('utf8', f1 + 1, f2)),
      message: b.toString('utf8', f2 + 1, to),
      changes: [],
    };
  }

  /** The token in b[from, to) (its NUL excluded). */
  private token(b: Buffer, from: number, to: number): void {
    const t = this.pendingStatus === null && b[from] === 0x0a ? from + 1 : from;
    if (this.current === null) {
      if (t === to) return;
      throw new Error(`git log output starts with ${JSON.stringify(b.toString('utf8', t, Math.min(to, t + 80)))}, not a commit header`);
    }
    if (this.pendingStatus === null) {
      if (t === to) return;
      if (!isStatus(b, t, to)) throw new Error(`unexpected status ${JSON.stringify(b.toString('utf8', t, Math.min(to, t + 40)))} in git log of ${this.current.sha}`);
      this.pendingStatus = b.toString('latin1', t, to);
    } else {
      this.current.changes.push({ status: this.pendingStatus, path: b.toString('utf8', from, to) });
      this.pendingStatus = null;
    }
  }

  private flush(): void {
    if (this.current === null) return;
    if (this.pendingStatus !== null) throw new Error(`status without path in git log of ${this.current.sha}`);
    const c = this.current;
    this.current = null;
    this.count++;
    this.onCommit(c);
  }
}

/** Whether b[from, to) is a status letter and an optional score: `[A-Z][0-9]*`. */
function isStatus(b: Buffer, from: number, to: number): boolean {
  if (!(b[from] >= 0x41 && b[from] <= 0x5a)) return false;
  for (let i = from + 1; i < to; i++) if (!(b[i] >= 0x30 && b[i] <= 0x39)) return false;
  return true;
}
