/** The `issueloc` executable as a child process, for the batch tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

export const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));

/** A started `issueloc` process and its collected output. */
export interface CliProcess { child: ChildProcess; out: () => string; err: () => string; done: Promise<number | null> }

/** Starts `issueloc ...args`; killed with SIGKILL after `timeoutMs` (default 60 s). */
export function startCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): CliProcess {
  const child = spawn(process.execPath, [...BASELINE_WASM_ARGS, BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise<number | null>((resolve) => child.once('close', (code) => {
    clearTimeout(timer);
    resolve(code);
  }));
  return { child, out: () => out, err: () => err, done };
}

/** Runs `issueloc ...args` to the end. */
export async function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<{ code: number | null; out: string; err: string }> {
  const p = startCli(args, env, timeoutMs);
  const code = await p.done;
  return { code, out: p.out(), err: p.err() };
}
