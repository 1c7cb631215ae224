import { IssuelocError } from '../errors.js';
import { gitReason, spawnGit, type GitProcess } from './git-process.js';

/** One object read from the repository: its id, its git type (`blob`, `tree`, `commit`, `tag`) and bytes. */
export interface GitObject {
  /** Full hex object id (of the object answered: for `HEAD^{tree}`, the tree's). */
  sha: string;
  type: string;
  data: Buffer;
}

interface Waiting {
  resolve: (obj: GitObject | null) => void;
  reject: (err: Error) => void;
}

/** How many requests {@link CatFileBatch.readMany} keeps in flight (written, not yet answered). */
const WINDOW = 512;

/**
 * One long-lived `git cat-file --batch` process answering object reads in order.
 *
 * Protocol (git-cat-file(1), BATCH OUTPUT): for each request line `<name>\n` git prints either
 * `<sha> <type> <size>\n<size bytes>\n` or `<name> missing\n` (also `<name> ambiguous\n`). The
 * output is parsed as a byte stream: headers and contents may be split across any chunk boundary.
 *
 * Missing objects (fetched snapshots lack blobs of 4 MiB or more; partial clones lack more)
 * answer `null` and never stop the process. If git itself dies, every waiting read is rejected
 * with an {@link IssuelocError} and the next read starts a fresh process.
 *
 * The process holds the Node event loop open only while reads are waiting, so a forgotten
 * {@link close} does not keep a CLI alive.
 */
export class CatFileBatch {
  private session: BatchSession | undefined;

  /**
   * @param gitDir absolute git directory (`--git-dir`).
   * @param label how errors name the repository (the path the user gave).
   */
  constructor(private readonly gitDir: string, private readonly label: string) {}

  /**
   * Reads one object by name (a SHA, or any `git cat-file` name such as `HEAD:README.md`).
   * @returns the object, or null when git answers `missing` or `ambiguous`.
   * @throws IssuelocError for a name containing a newline, or when git stops unexpectedly.
   */
  read(name: string): Promise<GitObject | null> {
    return this.request([name])[0];
  }

  /**
   * Reads several objects with one write to git (all in flight at once: for a bounded set, such
   * as one level of a tree; {@link readMany} streams any number).
   * @returns one answer per name, in order, as {@link read}.
   * @throws IssuelocError as {@link read}.
   */
  readAll(names: readonly string[]): Promise<(GitObject | null)[]> {
    return names.length === 0 ? Promise.resolve([]) : Promise.all(this.request(names));
  }

  /**
   * Reads many objects, pipelined: up to {@link WINDOW} requests are written before the first
   * answer is awaited. Yields `[name, object | null]` in the order of `names`.
   * @throws IssuelocError as {@link read} does (when the failing answer is reached).
   */
  async *readMany(names: readonly string[]): AsyncGenerator<[string, GitObject | null]> {
    const answers: (Promise<GitObject | null> | undefined)[] = new Array(names.length);
    let sent = 0;
    for (let i = 0; i < names.length; i++) {
      if (sent < names.length && sent - i < WINDOW / 2) {
        const batch = names.slice(sent, Math.min(names.length, i + WINDOW));
        for (const p of this.request(batch)) {
          p.catch(() => undefined); // a rejection is seen by the await below, or never wanted
          answers[sent++] = p;
        }
      }
      const obj = await answers[i]!;
      answers[i] = undefined;
      yield [names[i], obj];
    }
  }

  /**
   * Ends the process (closes its stdin); reads already asked are still answered.
   * @returns a promise settled when git has exited (awaiting it is optional).
   */
  close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    return session ? session.end() : Promise.resolve();
  }

  private request(names: readonly string[]): Promise<GitObject | null>[] {
    for (const name of names) {
      if (name.length === 0 || name.includes('\n')) {
        throw new IssuelocError(`invalid object name ${JSON.stringify(name)} for ${this.label}`);
      }
    }
    if (!this.session || this.session.dead) this.session = new BatchSession(this.gitDir, this.label);
    return this.session.request(names);
  }
}

/** One git process with its queue of waiting reads and its output parser. */
class BatchSession {
  dead = false;
  private readonly proc: GitProcess;
  private waiting: Waiting[] = [];
  private head = 0;
  private readonly parser: BatchParser;
  private stderr = '';

  constructor(gitDir: string, private readonly label: string) {
    const proc = spawnGit([`--git-dir=${gitDir}`, 'cat-file', '--batch'], 'pipe');
    this.proc = proc;
    this.parser = new BatchParser((obj) => this.answer(obj), (reason) => {
      this.fail(reason);
      proc.kill();
    });
    proc.stdout.on('data', (chunk: Buffer) => {
      if (!this.dead) this.parser.push(chunk);
    });
    proc.stderr.on('data', (chunk: Buffer) => {
      if (this.stderr.length < 2000) this.stderr = (this.stderr + chunk.toString('utf8')).slice(0, 2000);
    });
    proc.stdin.on('error', () => undefined); // EPIPE when git died: reported on 'close' below
    proc.on('error', (err) => this.fail(err.message));
    proc.on('close', (code) => this.fail(gitReason(this.stderr) || `exit code ${code}`));
  }

  request(names: readonly string[]): Promise<GitObject | null>[] {
    const promises = names.map(() => new Promise<GitObject | null>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
    }));
    this.setHeld(true);
    this.proc.stdin.write(names.join('\n') + '\n');
    return promises;
  }

  end(): Promise<void> {
    if (this.dead) return Promise.resolve();
    this.setHeld(true);
    return new Promise((resolve) => {
      this.proc.once('close', () => resolve());
      this.proc.stdin.end();
    });
  }

  /** Holds the event loop open while answers are awaited, releases it when idle. */
  private setHeld(held: boolean): void {
    const handles = [this.proc, this.proc.stdin, this.proc.stdout, this.proc.stderr] as { ref(): void; unref(): void }[];
    for (const handle of handles) {
      if (held) handle.ref();
      else handle.unref();
    }
  }

  /** Marks the session dead and rejects every read still waiting. */
  private fail(reason: string): void {
    this.dead = true;
    const left = this.waiting.slice(this.head);
    this.waiting = [];
    this.head = 0;
    if (left.length === 0) return;
    const err = new IssuelocError(`git cat-file --batch stopped in ${this.label}: ${reason}`);
    for (const w of left) w.reject(err);
  }

  private answer(obj: GitObject | null): void {
    const w = this.waiting[this.head++];
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
      this.setHeld(false);
    }
    w?.resolve(obj);
  }
}

/**
 * Incremental parser of `git cat-file --batch` output: answers one object (or null for
 * `missing` / `ambiguous`) per request, whatever the chunk boundaries. After malformed output it
 * reports once through `onError` and ignores the rest.
 */
export class BatchParser {
  private headerParts: Buffer[] = [];
  private body: Buffer | undefined;
  private bodySha = '';
  private bodyType = '';
  private filled = 0;
  private broken = false;

  constructor(
    private readonly onAnswer: (obj: GitObject | null) => void,
    private readonly onError: (reason: string) => void,
  ) {}

  /** Feeds the next bytes of git's stdout. */
  push(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length && !this.broken) {
      if (this.body) {
        // Content bytes, then one LF that is not part of the object.
        const size = this.body.length;
        const take = Math.min(size + 1 - this.filled, chunk.length - pos);
        const copy = Math.min(take, size - this.filled);
        if (copy > 0) chunk.copy(this.body, this.filled, pos, pos + copy);
        this.filled += take;
        pos += take;
        if (this.filled === size + 1) {
          const obj = { sha: this.bodySha, type: this.bodyType, data: this.body };
          this.body = undefined;
          this.onAnswer(obj);
        }
        continue;
      }
      const nl = chunk.indexOf(10, pos);
      if (nl < 0) {
        this.headerParts.push(chunk.subarray(pos));
        return;
      }
      this.headerParts.push(chunk.subarray(pos, nl));
      const header = Buffer.concat(this.headerParts).toString('utf8');
      this.headerParts = [];
      pos = nl + 1;
      this.onHeader(header);
    }
  }

  private onHeader(header: string): void {
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      this.onAnswer(null);
      return;
    }
    const parts = header.split(' ');
    const size = Number(parts[2]);
    if (parts.length !== 3 || !Number.isInteger(size) || size < 0) {
      this.broken = true;
      this.onError(`unexpected output ${JSON.stringify(header.slice(0, 80))}`);
      return;
    }
    this.bodySha = parts[0];
    this.bodyType = parts[1];
    this.body = Buffer.allocUnsafe(size);
    this.filled = 0;
  }
}
