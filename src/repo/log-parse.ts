/**
 * Incremental parser for the output of `git log -z --name-status --format=LOG_FORMAT`.
 *
 * Each commit is printed as a header `\x01<sha> <parents…>\x02<committer time>\x02<raw message>\x03`
 * followed by a NUL, then (for commits with a diff) a newline and NUL-separated pairs
 * `<status>\0<path>\0`. The parser keeps only the unfinished tail of the stream between calls to
 * {@link LogParser.push}, so its memory does not grow with the length of the history.
 */
import { StringDecoder } from 'node:string_decoder';

/**
 * A copy of `s` that shares no memory with the string it was cut from. V8 represents `slice`
 * results as views into their parent, so a kept SHA or path would keep a whole 64 KiB chunk of
 * `git log` output alive; every string the parser hands out is detached with this.
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
 * @throws Error on output that does not follow {@link LOG_FORMAT} (the message names the token).
 */
export class LogParser {
  private readonly decoder = new StringDecoder('utf8');
  private tail = '';
  private current: LogCommit | null = null;
  private pendingStatus: string | null = null;
  /** Number of commits emitted so far. */
  count = 0;

  constructor(private readonly onCommit: (c: LogCommit) => void) {}

  /** Parses a chunk of stdout (any split, including inside a UTF-8 sequence). */
  push(chunk: Buffer): void {
    this.tail += this.decoder.write(chunk);
    this.drain(false);
  }

  /** Flushes the last commit; call once after the stream ended. */
  end(): void {
    this.tail += this.decoder.end();
    this.drain(true);
    this.flush();
  }

  private drain(final: boolean): void {
    let start = 0;
    for (;;) {
      // a header can only come where a status could (a path token may start with anything)
      const atHeader = this.tail.charCodeAt(start) === 0x01 || (this.tail.charCodeAt(start) === 0x0a && this.tail.charCodeAt(start + 1) === 0x01);
      if (this.pendingStatus === null && atHeader) {
        // a header: it ends at \x03 (the message may contain newlines, never \x03 in practice)
        const endHeader = this.tail.indexOf('\x03', start);
        if (endHeader < 0) break;
        this.header(this.tail.slice(this.tail.indexOf('\x01', start) + 1, endHeader));
        // the NUL after the header, if it has not arrived yet, is read later as an empty token
        start = endHeader + 1;
        if (this.tail.charCodeAt(start) === 0) start++;
        continue;
      }
      const nul = this.tail.indexOf('\0', start);
      if (nul < 0) {
        if (final && start < this.tail.length && this.tail.slice(start).trim() !== '') {
          throw new Error(`git log output ends inside a token: ${JSON.stringify(this.tail.slice(start, start + 80))}`);
        }
        break;
      }
      this.token(this.tail.slice(start, nul));
      start = nul + 1;
    }
    this.tail = this.tail.slice(start);
  }

  private header(text: string): void {
    this.flush();
    const f1 = text.indexOf('\x02');
    const f2 = f1 < 0 ? -1 : text.indexOf('\x02', f1 + 1);
    if (f1 < 0 || f2 < 0) throw new Error(`malformed git log header: ${JSON.stringify(text.slice(0, 120))}`);
    const ids = text.slice(0, f1).trim().split(' ');
    const sha = ids[0];
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha)) throw new Error(`malformed commit id in git log: ${JSON.stringify(sha)}`);
    this.current = {
      sha: detach(sha),
      parents: ids.slice(1).filter((p) => p !== '').map(detach),
      time: Number(text.slice(f1 + 1, f2)),
      message: detach(text.slice(f2 + 1)),
      changes: [],
    };
  }

  private token(raw: string): void {
    const tok = this.pendingStatus === null && raw.charCodeAt(0) === 0x0a ? raw.slice(1) : raw;
    if (this.current === null) {
      if (tok === '') return;
      throw new Error(`git log output starts with ${JSON.stringify(tok.slice(0, 80))}, not a commit header`);
    }
    if (this.pendingStatus === null) {
      if (tok === '') return;
      if (!/^[A-Z][0-9]*$/.test(tok)) throw new Error(`unexpected status ${JSON.stringify(tok.slice(0, 40))} in git log of ${this.current.sha}`);
      this.pendingStatus = detach(tok);
    } else {
      this.current.changes.push({ status: this.pendingStatus, path: detach(raw) });
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
