/**
 * A CommonJS script of the CLI bundle (build/cli-bundle.mjs: the `localize` command in one file)
 * run with a V8 code cache: the bytecode of the functions the last run compiled, stored in the
 * user's cache folder, so that a call deserializes what it runs instead of parsing and compiling
 * it (Node 20 has no compile cache of its own for ES modules; `module.enableCompileCache` came in
 * Node 22.1).
 *
 * The cache file is named by what its bytecode was compiled from: the script's build (a digest of
 * its text that the build wrote), its size and modification time (V8 checks a cached script's
 * length, not its text), the Node version and the architecture; V8 refuses data made under other
 * V8 flags. It is a checked file (src/util/checked-file.ts: a trailer with a CRC-32 of the
 * payload; V8 checks the version and flags of cached data, not its bytes): a file cut short,
 * corrupt or of another program is passed over, as is data V8 refuses (`cachedDataRejected`), and the run
 * compiles from the source and writes a new one (into a temporary file renamed over it: a reader
 * never sees half a file). A temporary file left by a writer that was killed is removed by the next
 * run that answers ({@link removeStaleTemporaries}). A folder that cannot be made or written means no
 * cache, never an error.
 */
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, extname, isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import * as zlib from 'node:zlib';
import { checkedPayload, checkedTrailer, writeCheckedFile } from '../util/checked-file.js';
import { processAlive } from '../util/process-alive.js';

/** How a script is loaded and where its code cache lives. */
export interface ScriptOptions {
  /** The folder of the code cache (made when missing); undefined: no code cache. */
  cacheDir?: string;
  /** A digest of the script's text, written by the build (part of the cache file's name). */
  buildHash: string;
  /**
   * Which of the script's paths this run takes (a word: part of the cache file's name, default
   * `all`): runs of one variant keep a cache of their own, of the functions they run.
   */
  variant?: string;
  /** `import(specifier)` for the script's dynamic imports (of packages by name and of `node:` modules). */
  importModule: (specifier: string) => Promise<unknown>;
  /** `import.meta.resolve(specifier)` for the script. */
  resolveModule: (specifier: string) => string;
}

/** A script run in this process. */
export interface LoadedScript {
  /** What the script put on `module.exports`. */
  exports: Record<string, unknown>;
  /** Whether V8 took the code cache (else the script was compiled from its text). */
  cacheUsed: boolean;
  /** The cache file of this script's build, or undefined when there is no cache folder. */
  cacheFile: string | undefined;
  /**
   * Writes the code cache (of every function compiled so far) when none was used, and removes the
   * temporary files killed writers left in its folder; never throws.
   */
  saveCache(): void;
}

/** The tag of a code cache file (src/util/checked-file.ts: its trailer's kind and format). */
const TAG = 'code.v1';

/**
 * The function the script's text is wrapped in, as Node wraps a CommonJS module, with the two names
 * the build gave `import.meta` and `import()` (an ES module's; a script has neither) and strict
 * mode (the script was made of ES modules).
 */
const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname, __issuelocMeta, __issuelocImport) {"use strict";';
const WRAP_TAIL = '\n})';

/**
 * The text of `file` inside the wrapper function, as one flat string: the file read into a buffer
 * between the wrapper's two parts and decoded once (a sum of strings would be a rope, which V8
 * copies whole into a flat string before compiling: ≈ 0.65 MB more of fresh memory per call).
 */
function wrappedText(file: string): string {
  const head = Buffer.from(WRAP_HEAD, 'latin1'), tail = Buffer.from(WRAP_TAIL, 'latin1');
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(head.length + size + tail.length);
    head.copy(buf, 0);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, head.length + got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    tail.copy(buf, head.length + got);
    return buf.toString('utf8', 0, head.length + got + tail.length);
  } finally {
    closeSync(fd);
  }
}

/** `$XDG_CACHE_HOME/issueloc/code` (an absolute XDG_CACHE_HOME only), else `~/.cache/issueloc/code`. */
export function defaultCodeCacheDir(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'issueloc', 'code');
}

/** The part of a cache file's name after the build: the Node version (V8's) and the architecture. */
function runtimeKey(): string {
  return `${process.version}-${process.arch}`;
}

/**
 * The code cache file of `file` (a script of `size` bytes modified at `mtimeMs`, built as
 * `buildHash`) in `dir` for this Node, for the runs of `variant`.
 */
export function codeCacheFile(dir: string, file: string, buildHash: string, size: number, mtimeMs: number, variant = 'all'): string {
  const build = `${buildHash.replace(/[^\w]/g, '').slice(0, 32)}-${size.toString(36)}-${Math.trunc(mtimeMs).toString(36)}`;
  return join(dir, `${basename(file, extname(file))}-${build}-${variant.replace(/[^\w]/g, '')}-${runtimeKey()}.bin`);
}

/**
 * The variant of a `localize` call for its code cache: `lexical` with `--model none` (the model's
 * features and trees are never run), else `model`. A cache written by one pipeline holds few of
 * the other's functions: a call of the other compiles them each time (measured: no faster than
 * no cache).
 */
export function localizeVariant(argv: readonly string[]): string {
  let model: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--model') model = argv[i + 1];
    else if (argv[i].startsWith('--model=')) model = argv[i].slice('--model='.length);
  }
  return model === 'none' ? 'lexical' : 'model';
}

/** The payload of a code cache file's bytes, or undefined when they are not a whole, intact one. */
export function cachePayload(bytes: Buffer): Buffer | undefined {
  return checkedPayload(bytes, TAG) ?? undefined;
}

/** A code cache file's bytes: `payload`, then the trailer of a checked file. */
export function cacheFileBytes(payload: Buffer): Buffer {
  return Buffer.concat([payload, checkedTrailer(TAG, [payload])]);
}

/** The file's bytes, or undefined when it cannot be read (missing, a folder, no permission). */
function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes `payload` as the checked file `file` (src/util/checked-file.ts: atomic, a CRC-32), then removes
 * the cache files of other builds of the same script for this variant and runtime. Never throws.
 */
function writeCacheFile(file: string, payload: Buffer, variant: string): void {
  const dir = dirname(file);
  try {
    writeCheckedFile(file, TAG, [payload], { fsync: false });
  } catch {
    return;
  }
  const own = basename(file);
  const name = own.slice(0, own.indexOf('-') + 1);
  const tail = `-${variant}-${runtimeKey()}.bin`;
  try {
    for (const other of readdirSync(dir)) {
      if (other !== own && other.startsWith(name) && other.endsWith(tail)) unlinkSync(join(dir, other));
    }
  } catch {
    // another process removed it first, or the folder is not ours to list: left as it is
  }
}

/** A temporary file of src/util/atomic-write.ts for a cache file: `<name>.bin.tmp-<pid>-<random>`. */
const TEMPORARY = /\.bin\.tmp-(\d+)-[0-9a-z]+$/;
/** A temporary file this old is left over (a cache file is written in well under a second), whatever its pid. */
const TEMPORARY_AGE_MS = 600_000;

/**
 * Removes the temporary cache files of `dir` that no live writer holds: their writer's pid names no
 * process, or they are older than {@link TEMPORARY_AGE_MS} (a pid reused since). A live writer's file
 * is left alone (were it removed, its rename would fail: no cache that time, never an error). Never
 * throws.
 */
export function removeStaleTemporaries(dir: string, now = Date.now()): void {
  try {
    for (const name of readdirSync(dir)) {
      const pid = TEMPORARY.exec(name)?.[1];
      if (pid === undefined) continue;
      const file = join(dir, name);
      try {
        if (processAlive(Number(pid)) && now - statSync(file).mtimeMs <= TEMPORARY_AGE_MS) continue;
        unlinkSync(file);
      } catch {
        // removed by another process meanwhile
      }
    }
  } catch {
    // no folder, or not ours to list
  }
}

/**
 * Runs the CommonJS script `file` in this process (its `require` is the script's own), with the
 * code cache of {@link ScriptOptions.cacheDir} when it holds one for this build and runtime.
 */
export function loadScript(file: string, options: ScriptOptions): LoadedScript {
  const source = wrappedText(file);
  const variant = (options.variant ?? 'all').replace(/[^\w]/g, '');
  const cacheFile = options.cacheDir !== undefined && typeof zlib.crc32 === 'function'
    ? (() => {
        const st = statSync(file);
        return codeCacheFile(options.cacheDir!, file, options.buildHash, st.size, st.mtimeMs, variant);
      })()
    : undefined;
  const stored = cacheFile === undefined ? undefined : readIfThere(cacheFile);
  const cachedData = stored === undefined ? undefined : cachePayload(stored);
  const script = new Script(source, { filename: file, cachedData });
  const cacheUsed = cachedData !== undefined && script.cachedDataRejected === false;
  const module = { exports: {} as Record<string, unknown> };
  const url = pathToFileURL(file).href;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file),
    { url, resolve: options.resolveModule }, options.importModule);
  return {
    exports: module.exports,
    cacheUsed,
    cacheFile,
    saveCache() {
      if (cacheFile === undefined) return;
      removeStaleTemporaries(dirname(cacheFile));
      if (cacheUsed) return;
      try {
        writeCacheFile(cacheFile, script.createCachedData(), variant);
      } catch {
        // no cache this time: the next run compiles again
      }
    },
  };
}

/**
 * Runs the CLI of the script `file` (its `runCli` export, src/cli/run.ts) with process.argv, then
 * writes its code cache when none was used and the command ran to an answer (exit code 0 or 1,
 * not `--help`: the functions of a whole call are compiled; a usage error or the help compiled few
 * of them, and a cache V8 takes is kept until the build or Node changes).
 */
export async function runScriptCli(file: string, options: ScriptOptions): Promise<void> {
  const loaded = loadScript(file, { ...options, variant: options.variant ?? localizeVariant(process.argv) });
  await (loaded.exports.runCli as (argv: string[]) => Promise<void>)(process.argv);
  const answered = process.exitCode === undefined || process.exitCode === 0 || process.exitCode === 1;
  if (answered && !process.argv.includes('--help') && !process.argv.includes('-h')) loaded.saveCache();
}
