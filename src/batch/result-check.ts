/**
 * Checksums of a job's result files: when a job finishes, its `job.json` records, for every file
 * of its result folder, the size and the SHA-256 of the job's id, the file's name and its bytes;
 * `batch collect` checks them before it uses a result, so a truncated, garbled or replaced file,
 * a file that is gone, or another job's folder copied in is reported, never joined.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultDir } from './results-folder.js';

/** The file of a result folder that records the job (and the others' checksums). */
export const JOB_FILE = 'job.json';

/** A file's recorded size and checksum. */
export interface FileSum { bytes: number; sha256: string }

/** The checksum of `bytes` as file `name` of job `id` (the id and name are part of it). */
function fileSum(id: string, name: string, bytes: Buffer): FileSum {
  return { bytes: bytes.length, sha256: createHash('sha256').update(`${id}\n${name}\n`).update(bytes).digest('hex') };
}

/** Names of the files under `dir` (relative, `/`-separated), sorted. */
function filesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const name = `${prefix}${e.name}`;
    if (e.isDirectory()) out.push(...filesUnder(join(dir, e.name), `${name}/`));
    else if (name !== JOB_FILE) out.push(name);
  }
  return out.sort();
}

/** The checksums of every file job `id` wrote in `dir` (to record in its `job.json`). */
export function resultSums(id: string, dir: string): Record<string, FileSum> {
  const sums: Record<string, FileSum> = {};
  for (const name of filesUnder(dir)) sums[name] = fileSum(id, name, readFileSync(join(dir, name)));
  return sums;
}

/** A finished job's result checked against its `job.json`: the bytes of each file, or why it is not usable. */
export type CheckedResult = { ok: true; files: Map<string, Buffer> } | { ok: false; reason: string };

/**
 * Checks the result of job `id` in `results`: `job.json` names this job, and every file it
 * records is there with its recorded size and checksum (files it does not record are ignored).
 * @returns the files' bytes as checked, or the first reason the result is not usable.
 */
export function checkResult(results: string, id: string): CheckedResult {
  const dir = resultDir(results, id);
  let rec: { id?: unknown; files?: Record<string, FileSum> };
  try {
    rec = JSON.parse(readFileSync(join(dir, JOB_FILE), 'utf8')) as typeof rec;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? 'no result' : `${JOB_FILE} unreadable (${code ?? (e as Error).message})` };
  }
  if (rec.id !== id) return { ok: false, reason: `${JOB_FILE} is another job's (${String(rec.id)})` };
  if (!rec.files || typeof rec.files !== 'object') return { ok: false, reason: `${JOB_FILE} records no checksums (a result of an older issueloc: remove the folder and enqueue again)` };
  const files = new Map<string, Buffer>();
  for (const [name, want] of Object.entries(rec.files)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, name));
    } catch {
      return { ok: false, reason: `${name} is gone` };
    }
    const got = fileSum(id, name, bytes);
    if (got.bytes !== want.bytes) return { ok: false, reason: `${name} has ${got.bytes} bytes, the job wrote ${want.bytes} (truncated or changed)` };
    if (got.sha256 !== want.sha256) return { ok: false, reason: `${name} is not what the job wrote (checksum differs)` };
    files.set(name, bytes);
  }
  return { ok: true, files };
}
