// A headless chromium for the web page's tests and its screenshot (bench/web-screenshot.ts):
// Debian's /usr/bin/chromium (or ISSUELOC_CHROMIUM) driven by playwright-core, which downloads no
// browser of its own. And `issueloc serve` started as users start it, on 127.0.0.1, any port.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');

/** The chromium binary: ISSUELOC_CHROMIUM, else Debian's. */
export const CHROMIUM = process.env.ISSUELOC_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Why the browser tests cannot run here (no chromium), or undefined when they can. Under CI
 * (`CI` set) a missing chromium is a failure, not a skip: .ci/run installs it.
 */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const why = `no chromium at ${CHROMIUM}: apt-get install -y chromium (Debian), or set ISSUELOC_CHROMIUM to a Chromium binary`;
  if (process.env.CI) throw new Error(`${why}; CI must run the browser tests (.ci/run installs chromium)`);
  return why;
}

/** Launches the headless chromium (no sandbox: CI runs as root). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'], timeout: 60_000 });
}

/** A running `issueloc serve`: its base URL, and how to stop it. */
export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts `issueloc serve <args>` on 127.0.0.1 at a free port; resolves once it prints its address (60 s at most). */
export function startServe(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => { void stop(); reject(new Error(`issueloc serve printed no address in 60 s: ${err}`)); }, 60_000);
    child.stderr!.on('data', (d: Buffer) => { err += d.toString('utf8'); });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = / on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolveUrl({ url: m[1], stop }); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`issueloc serve exited (${code}): ${err}`)); });
  });
}
