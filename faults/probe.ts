/**
 * Probes, tries and failures. A probe runs the CLI one or more times ("tries") and judges each:
 * a failure is a silently wrong result, a crash (an exit code outside 0/1/2, a signal, a stack
 * trace or "internal error" on stderr) or a hang (a run past its stated time or memory bound).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, runCli, runThroughSlowPipe, shown, type RunOptions, type RunResult } from './cli.js';
import { INTERNAL_ERROR, OK_EXIT_CODES, STACK_TRACE, STARTUP_SLACK_S } from './interface.js';
import { Rng } from './rng.js';

/** The areas of the suite, in table order. */
export const AREAS = ['kill', 'cache', 'concurrency', 'endpoints', 'hostile', 'inputs', 'pipe', 'consistency', 'protocol', 'service', 'revisions', 'cachefs', 'batch'] as const;
export type Area = (typeof AREAS)[number];

export type FailureKind = 'wrong' | 'crash' | 'hang' | 'probe';

/** Why a try failed. `probe` = the probe itself could not run (a fixture or the suite broke). */
export interface Failure {
  kind: FailureKind;
  detail: string;
}

/** One judged try. */
export interface Try {
  area: Area;
  probe: string;
  label: string;
  ms: number;
  failure?: Failure;
  /** Things seen that are worth a look but not failures. */
  notes?: string[];
}

/** A probe: a named group of tries in one area. `quick` ones make the fast subset (and the tests). */
export interface Probe {
  area: Area;
  name: string;
  quick: boolean;
  /** What is expected, in one sentence (printed by --list and in docs/reliability.md). */
  expect: string;
  run(ctx: ProbeContext): Promise<void>;
}

/** Options of a suite run. */
export interface SuiteOptions {
  quick: boolean;
  seed: number;
  /** Repetitions of the randomised probes (kill moments, corruptions). */
  repeat: number;
  /** Told of each try as it is judged. */
  onTry?: (t: Try) => void;
}

/** Memoised values shared by the probes of one suite run (fixture repositories, reference rankings). */
export class Shared {
  private readonly values = new Map<string, Promise<unknown>>();
  private readonly cleanups: (() => void | Promise<void>)[] = [];
  readonly root: string;
  constructor() {
    this.root = mkdtempSync(join(tmpdir(), 'issueloc-faults-'));
  }

  /**
   * Seconds `issueloc --version` takes on this machine now (once per suite run): 3 × it is added to
   * every bound besides {@link STARTUP_SLACK_S}, so the bounds hold on a loaded machine.
   */
  startupS(): Promise<number> {
    return this.memo('startup-s', async () => {
      const r = await runCli(['--version'], { env: process.env, timeoutMs: 120_000 });
      return r.ms / 1000;
    });
  }

  /** `make()` once per key; later calls get the same promise. */
  memo<T>(key: string, make: () => Promise<T> | T): Promise<T> {
    let p = this.values.get(key) as Promise<T> | undefined;
    if (!p) {
      p = Promise.resolve().then(make);
      this.values.set(key, p);
    }
    return p;
  }

  /** A fresh folder under the suite's temporary root. */
  dir(prefix: string): string {
    return mkdtempSync(join(this.root, `${prefix.replace(/[^\w.-]/g, '_')}-`));
  }

  /** Runs `f` when the suite's folders are removed (fixtures made elsewhere). */
  onRemove(f: () => void | Promise<void>): void {
    this.cleanups.push(f);
  }

  /** Stops what the probes started (servers) and removes every folder. */
  async remove(): Promise<void> {
    for (const f of this.cleanups.splice(0)) await f();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** What a probe gets: a random source, a temporary folder, the shared fixtures and a way to record tries. */
export class ProbeContext {
  readonly tries: Try[] = [];
  readonly rng: Rng;
  private notes: string[] = [];
  /** A temporary HOME for the runs of this probe (its ~/.cache is the default cache root). */
  readonly home: string;

  constructor(readonly probe: Probe, readonly shared: Shared, readonly opts: SuiteOptions) {
    this.rng = new Rng(opts.seed * 7919 + hash(probe.name));
    this.home = shared.dir(`home-${probe.name}`);
  }

  get quick(): boolean { return this.opts.quick; }

  /** A fresh folder for this probe. */
  dir(prefix = 'tmp'): string {
    return this.shared.dir(`${this.probe.name}-${prefix}`);
  }

  /**
   * A time limit in ms for something that starts the CLI (a run, a server's address, an MCP
   * session's first answer): `boundS` plus the start-up slack and 3 × the start-up measured now.
   */
  async boundMs(boundS: number): Promise<number> {
    return (boundS + STARTUP_SLACK_S + 3 * await this.shared.startupS()) * 1000;
  }

  /** Runs the CLI with this probe's environment; `boundS` is the run's time bound (start-up slack added). */
  async cli(args: readonly string[], boundS: number, opts: Partial<RunOptions> = {}): Promise<RunResult> {
    return runCli(args, { env: cliEnv(this.home), ...opts, timeoutMs: await this.boundMs(boundS) });
  }

  /** Notes something worth a look (not a failure) on the current try. */
  note(message: string): void {
    this.notes.push(message);
  }

  /** Runs the CLI with stdout into a pipe whose reader sleeps `sleepS` seconds before reading. */
  async slowPipe(args: readonly string[], boundS: number, sleepS = 2): Promise<RunResult> {
    return runThroughSlowPipe(args, { env: cliEnv(this.home), timeoutMs: await this.boundMs(boundS), sleepS });
  }

  /** Records one try: `check` returns a failure or undefined (passed); a throw is a probe failure. */
  async attempt(label: string, check: () => Promise<Failure | undefined>): Promise<Failure | undefined> {
    const t0 = performance.now();
    let failure: Failure | undefined;
    try {
      failure = await check();
    } catch (e) {
      failure = brokeProbe(e);
    }
    this.record(label, failure, performance.now() - t0);
    return failure;
  }

  /** Records a judged try. */
  record(label: string, failure: Failure | undefined, ms = 0): void {
    const t: Try = { area: this.probe.area, probe: this.probe.name, label, ms: Math.round(ms), failure };
    if (this.notes.length > 0) t.notes = this.notes.splice(0);
    this.tries.push(t);
    this.opts.onTry?.(t);
  }
}

/** The failure of a probe that threw (its set-up broke, or the suite has a bug). */
export function brokeProbe(e: unknown): Failure {
  return { kind: 'probe', detail: `the probe broke: ${(e as Error)?.stack ?? String(e)}` };
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * The failure every run is checked for first: past its bound (hang), killed for memory
 * (unbounded), ended by a signal or an exit code outside 0/1/2, or a stack trace / "internal
 * error" on stderr (crash). undefined when none.
 */
export function badEnd(r: RunResult): Failure | undefined {
  const cmd = shown(r);
  if (r.timedOut) return { kind: 'hang', detail: `${cmd}: no exit within ${Math.round(r.boundMs / 1000)} s` };
  if (r.overMemory) return { kind: 'hang', detail: `${cmd}: killed above the memory bound (peak ${r.peakRssMb} MB)` };
  const firstErr = firstLine(r.stderr);
  if (r.code === null) return { kind: 'crash', detail: `${cmd}: ended by ${r.signal}${firstErr ? `: ${firstErr}` : ''}` };
  if (!OK_EXIT_CODES.includes(r.code)) return { kind: 'crash', detail: `${cmd}: exit ${r.code}: ${firstErr}` };
  if (INTERNAL_ERROR.test(r.stderr) || STACK_TRACE.test(r.stderr)) return { kind: 'crash', detail: `${cmd}: exit ${r.code}, stack trace or internal error: ${firstErr}` };
  return undefined;
}

/** The first non-empty line of a text, cut to 200 characters. */
export function firstLine(s: string): string {
  const l = s.split('\n').map((x) => x.replace(/^.*\r/, '').trim()).find((x) => x !== '') ?? '';
  return l.length > 200 ? `${l.slice(0, 200)}…` : l;
}

/** A wrong-result failure naming the command. */
export function wrong(r: RunResult | undefined, what: string): Failure {
  return { kind: 'wrong', detail: r ? `${shown(r)}: ${what}` : what };
}

/** `badEnd`, then exit `code` expected. */
export function expectExit(r: RunResult, codes: readonly number[]): Failure | undefined {
  const bad = badEnd(r);
  if (bad) return bad;
  if (!codes.includes(r.code!)) return wrong(r, `exit ${r.code} (expected ${codes.join(' or ')}): ${firstLine(r.stderr)}`);
  return undefined;
}

/** The first failure of a list of checks (run in order, lazily). */
export function firstFailure(...checks: (() => Failure | undefined)[]): Failure | undefined {
  for (const c of checks) {
    const f = c();
    if (f) return f;
  }
  return undefined;
}
