// The worker thread of ./in-process.ts: runs `main(['node', 'issueloc', ...args])` for each message
// (with its environment variables set for the run) and answers with the exit code and what the run
// wrote to stdout and stderr. A worker's process.env is its own copy.
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

/** The CLI's main: this checkout's, or the one at workerData.mainFile (e.g. an installed package's). */
const { mainFile } = (workerData ?? {}) as { mainFile?: string };
const { main } = (mainFile
  ? await import(isAbsolute(mainFile) ? pathToFileURL(mainFile).href : mainFile)
  : await import('../../src/cli/main.js')) as typeof import('../../src/cli/main.js');

let out = '';
let err = '';
const capture = (append: (s: string) => void) => ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
  if (done) queueMicrotask(done);
  return true;
}) as typeof process.stdout.write;
process.stdout.write = capture((s) => { out += s; });
process.stderr.write = capture((s) => { err += s; });

/** Sets `env` in process.env; returns how to put back what was there. */
function setEnv(env: Record<string, string | undefined>): () => void {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const apply = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(env);
  return () => apply(before);
}

parentPort!.on('message', ({ args, env }: { args: string[]; env: Record<string, string | undefined> }) => {
  out = '';
  err = '';
  process.exitCode = undefined;
  const restore = setEnv(env);
  void main(['node', 'issueloc', ...args]).finally(restore).then(
    (code) => parentPort!.postMessage({ code, out, err }),
    (e: unknown) => parentPort!.postMessage({ code: -1, out, err: `${err}main threw: ${e instanceof Error ? e.stack : String(e)}\n` }),
  );
});
