// What the importer tests share: the built CLI run with its output (as a process or in-process), JSONL read back, a file written
// with its folders.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));

/** `issueloc ARGS… --no-progress`: its stdout, stderr and exit code. */
export function run(args: string[]): { out: string; err: string; code: number } {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, BIN, ...args, '--no-progress'], { encoding: 'utf8' });
  return { out: r.stdout, err: r.stderr, code: r.status ?? -1 };
}

/**
 * {@link run} through the CLI's main in the file's worker thread (runInProcess): the same code and
 * output without a Node start-up, for runs whose process is not under test.
 */
export async function runIn(args: string[]): Promise<{ out: string; err: string; code: number }> {
  return runInProcess([...args, '--no-progress']);
}

/** The records of a JSONL file. */
export const jsonl = (f: string): Record<string, unknown>[] => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** Writes `text` to `path`, making its folders. */
export function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
