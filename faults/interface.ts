/**
 * What the fault suite assumes of the CLI's interface and bounds, in one place: when an option is
 * renamed or a bound changes, change it here (docs/reliability.md states the same figures).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is compiled to dist/faults/). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The executable a user runs (it loads the compiled CLI from dist/). */
export const BIN = resolve(ROOT, 'bin/issueloc.js');
/**
 * Node options put before {@link BIN} in every run the suite starts: none when the suite runs alone;
 * test/faults adds the baseline WebAssembly compiler's (its tiny repositories' parses never pay
 * back V8's optimizing compile of the grammars).
 */
export const CLI_NODE_ARGS: string[] = [];

/** Exit codes a run may end with: 0 results, 1 nothing matched, 2 bad input (3 = internal failure, a crash). */
export const OK_EXIT_CODES: readonly number[] = [0, 1, 2];
/** A warning line on stderr. */
export const WARNING = /^issueloc: warning: /m;
/** The message of an internal failure (exit 3). */
export const INTERNAL_ERROR = /issueloc: internal error/;
/** A JavaScript stack frame or an uncaught error's name on stderr. */
export const STACK_TRACE = /^\s+at .+:\d+:\d+\)?$|^\s+at .+ \(node:|^(TypeError|RangeError|ReferenceError|SyntaxError|Error)\b.*\n\s+at /m;

/** The per-issue deadline option (issue 13), seconds. */
export const DEADLINE_OPTION = '--deadline';
/** The cap on the issue text, bytes (issue 14; `--max-issue-bytes`). */
export const MAX_ISSUE_BYTES = 1 << 20;

/** A dead or slow endpoint costs about this much by default (issue 13). */
export const ENDPOINT_BOUND_S = 30;
/** Added to every bound: node start-up, indexing the probe's tiny repository, git. */
export const STARTUP_SLACK_S = 10;
/** A run right after a kill -9 (a lock left by a dead holder) must finish within this. */
export const AFTER_KILL_BOUND_S = 15;
/** Bad or huge inputs (issue file /dev/zero, 700 KB of dotted names, 10 MB stdin, --top 1e8). */
export const INPUT_BOUND_S = 10;
/** Indexing a repository holding a 1 MB one-line minified JavaScript file (issue 8). */
export const MINIFIED_BOUND_S = 20;
/** Peak resident memory of any one run; a run above it is killed and counted as unbounded. */
export const MEMORY_BOUND_MB = 1536;
/** Size of the "huge answer" of a misbehaving endpoint (issue 13 saw 150 MB accepted and cached). */
export const HUGE_ANSWER_BYTES = 150 << 20;
/** The response cache may hold at most this much after a run against a huge-answer endpoint. */
export const RESPONSE_CACHE_LIMIT_BYTES = 1 << 20;
/** What an empty repository's error should say (issue 16: not `unknown revision 'HEAD'`). */
export const EMPTY_REPO_MESSAGE = /empty|no commits?\b|has no commit/i;

/**
 * The layout of a file of checked blocks (the index files: src/util/checked-file.ts), read only
 * to tell where its blocks lie: ends with a footer (head length, block count: uint32 LE each) and
 * a trailer ending with the magic; the head, padded to 4, is followed by the block table (block
 * count + 1 offsets from the body's start, then one CRC-32 per block) and the body of blocks.
 */
export const CHECKED_BLOCKS = { magic: 'ILCHECKB', footer: 8, trailer: 28 } as const;

/** Cache kinds whose files are files of checked blocks: a block is verified when a query first reads it. */
export const BLOCK_FILE_KINDS: readonly string[] = ['index', 'fileIndex'];

/**
 * The kinds of cache file, found by their path under the cache folder (relative, `/`-separated).
 * A kind with no file after a run is reported (the layout changed: adjust the pattern here).
 */
export const CACHE_FILE_KINDS = {
  /** Function-level index of a commit. */
  index: /(^|\/)index\/[^/]+(?<!\.files|\.generated|\.names)\.bin$/,
  /** File-level index of a commit. */
  fileIndex: /(^|\/)index\/[^/]+\.files\.bin$/,
  /** The signals' table of an index's functions by name (src/retrieve/unit-lookup.ts). */
  nameTable: /(^|\/)index\/[^/]+\.names\.bin$/,
  /** Parsed and tokenized blobs. */
  blobTerms: /(^|\/)blobs-[^/]+\/.+\.(bin|json)$/,
  /** Function vectors of an embedder. */
  vectors: /(^|\/)vectors\/.+\.f32$/,
  /** The embedder's dimension record. */
  vectorMeta: /(^|\/)vectors\/[^/]+\/model\.json$/,
  /** LLM answers. */
  responses: /(^|\/)llm\/.+\.json$/,
  /** The git-history log of `--model default` (one per repository). */
  history: /(^|\/)history\/.+\.json$/,
  /** The stored history signals of a base commit (file histories, commit-message index) under `--model default`. */
  commitHistory: /(^|\/)history\/.+\.bin$/,
  /** Candidate features of `train --features-cache`. */
  features: /\.json$/,
} as const;
export type CacheFileKind = keyof typeof CACHE_FILE_KINDS;

/** Files of the cache that are bookkeeping, never corrupted by the suite (locks, temporary files). */
export const NOT_CACHE_ENTRIES = /(^|\/)\.gitignore$|\.lock(\/|$)|\.tmp-/;
