// `issueloc ARGS…` without a process per run: the CLI's `main` (as bin.js runs it) in one worker
// thread kept for the test file, for the cases where the process is not what is under test (an
// option refused, a usage error, a build or ranking whose output is checked). The same exit code
// and lines as the executable, without a Node start-up and module load per case. Keep at least one
// case of each behaviour running the executable itself. Runs one at a time; no stdin, and the
// current folder is the test's (a worker thread cannot change it).
import { Worker } from 'node:worker_threads';
import '../util/baseline-wasm.js'; // the worker shares this process's V8 flags: WebAssembly by the baseline compiler only

/** What a run wrote and the code the executable would exit with. */
export interface InProcessRun { code: number; out: string; err: string }

/** Runs `issueloc ...args` in a worker thread of its own; `env` is set for the run only (`undefined` unsets). */
export type InProcessCli = (args: readonly string[], env?: Record<string, string | undefined>) => Promise<InProcessRun>;

/**
 * A CLI runner on one worker thread running the `main` exported by the module at `mainFile` (a
 * path or file URL; default: this checkout's src/cli/main.js, e.g. an installed package's instead).
 */
export function inProcessCli(mainFile?: string): InProcessCli {
  let worker: Worker | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const cliWorker = (): Worker => {
    if (!worker) {
      worker = new Worker(new URL('./in-process-worker.js', import.meta.url), { stdout: true, stderr: true, workerData: { mainFile } });
      worker.unref(); // the test file ends when its tests do
      worker.once('exit', () => { worker = undefined; });
    }
    return worker;
  };
  return (args, env = {}) => {
    const run = queue.then(() => new Promise<InProcessRun>((resolve, reject) => {
      const w = cliWorker();
      const onError = (e: Error) => reject(e);
      w.once('error', onError);
      w.once('message', (m: InProcessRun) => {
        w.off('error', onError);
        resolve(m);
      });
      w.postMessage({ args: [...args], env });
    }));
    queue = run.catch(() => undefined);
    return run;
  };
}

/**
 * Runs `issueloc ...args` in the file's CLI worker (one run at a time); its code, stdout and stderr.
 * `env` is set in the worker's environment for this run only (a value `undefined` unsets it).
 */
export const runInProcess: InProcessCli = inProcessCli();

/** What execFile resolves with, or rejects with (plus `code`) when the exit code is not 0. */
export interface ExecLikeRun { stdout: string; stderr: string }

/**
 * {@link runInProcess} shaped as `promisify(execFile)` is: resolves with stdout and stderr on exit
 * 0, else rejects with an Error carrying `code`, `stdout` and `stderr`. For a file whose checks read
 * execFile's results and only some of its runs need the executable.
 */
export async function execInProcess(args: readonly string[], env?: Record<string, string | undefined>): Promise<ExecLikeRun> {
  const r = await runInProcess(args, env);
  if (r.code !== 0) throw Object.assign(new Error(`issueloc exited ${r.code}: ${r.err}`), { code: r.code, stdout: r.out, stderr: r.err });
  return { stdout: r.out, stderr: r.err };
}
