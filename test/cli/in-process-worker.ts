// The worker thread of ./in-process.ts: runs `main(['node', 'issueloc', ...args])` for each message
// and answers with the exit code and what the run wrote to stdout and stderr.
import { parentPort } from 'node:worker_threads';
import { main } from '../../src/cli/main.js';

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

parentPort!.on('message', (args: string[]) => {
  out = '';
  err = '';
  process.exitCode = undefined;
  void main(['node', 'issueloc', ...args]).then((code) => parentPort!.postMessage({ code, out, err }));
});
