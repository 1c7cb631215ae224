/**
 * A real `issueloc serve` on 127.0.0.1 for the probes of the service area, and a bounded HTTP
 * client that may send any Host header (fetch may not) and keep a connection open.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { BIN, CLI_NODE_ARGS, STARTUP_SLACK_S } from './interface.js';
import { cliEnv } from './cli.js';
import type { ProbeContext } from './probe.js';

/** A running server. */
export interface Served {
  url: string;
  port: number;
  child: ChildProcess;
  stderr(): string;
  /** Resolves with the exit code (or the signal) when the server ends. */
  exited: Promise<number | string>;
  /** SIGKILL (no-op when ended). */
  kill(): void;
}

/** Starts `issueloc serve <args> --port 0`; rejects when no address is printed within 10 s plus the start-up slack (measured start-up included). */
export async function startServe(ctx: ProbeContext, args: readonly string[], cwd?: string): Promise<Served> {
  const child = spawn(process.execPath, [...CLI_NODE_ARGS, BIN, 'serve', '--port', '0', ...args], { cwd, env: cliEnv(ctx.home), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { err += d; });
  const exited = new Promise<number | string>((r) => child.on('exit', (code, signal) => r(code ?? signal ?? 'gone')));
  const kill = () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); };
  ctx.shared.onRemove(kill);
  const t0 = Date.now();
  const limitMs = await ctx.boundMs(STARTUP_SLACK_S);
  while (!/http:\/\/\S+/.test(out)) {
    if (child.exitCode !== null || Date.now() - t0 > limitMs) {
      kill();
      throw new Error(`serve did not start: ${err.split('\n')[0]}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const url = /http:\/\/\S+/.exec(out)![0];
  return { url, port: Number(new URL(url).port), child, stderr: () => err, exited, kill };
}

/** An answer of {@link send}. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

/** One HTTP request to 127.0.0.1:port (any headers, Host included), bounded by `timeoutMs`; rejects on a network error or the bound. */
export function send(port: number, method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {}): Promise<Answer> {
  const t0 = performance.now();
  const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string> = { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: opts.timeoutMs ?? 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${path} within ${opts.timeoutMs ?? 30_000} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC body of an MCP `tools/call`. */
export function mcpCall(id: number, name: string, args: Record<string, unknown>): unknown {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

/** Headers an MCP client sends on a POST. */
export const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
