/**
 * `issueloc`: the command-line entry point. Commands live one per file in this folder; this
 * file only registers them and turns errors into one-line messages with meaningful exit codes:
 *
 * - 0: results (a ranking, a dataset, a report);
 * - 1: nothing matched (no word of the issue in the code, no linked issue, nothing exported);
 * - 2: bad input or usage (an {@link IssuelocError}: the message names the input at fault; also
 *   a file-system error on a path, such as an output folder that cannot be made or written:
 *   `issueloc: cannot open /root/x.jsonl: permission denied (EACCES)`);
 * - 3: internal failure, a bug: `issueloc: internal error: <message>` (the stack trace with
 *   `ISSUELOC_DEBUG=1`).
 */
import { Command, CommanderError } from 'commander';
import { IssuelocError } from '../errors.js';
import { packageVersion } from '../version.js';
import { registerLocalizeCommand } from './localize.js';
import { registerIndexCommand } from './index-cmd.js';
import { registerDatasetCommands } from './dataset.js';
import { registerEvalCommands } from './eval.js';
import { registerTrainCommand } from './train.js';
import { registerAdaptCommand } from './adapt.js';
import { registerExportTrainingCommand } from './export-training.js';
import { registerCacheCommand } from './cache-cmd.js';
import { registerBatchCommands } from './batch.js';
import { registerServeCommand } from './serve.js';
import { registerMcpCommand } from './mcp.js';
import { registerCommentCommand } from './comment.js';

/** The exit codes, as `--help` lists them. */
export const EXIT_CODES_HELP = 'Exit codes: 0 results, 1 nothing matched, 2 bad input or usage, 3 internal failure (a bug;\n' +
  'ISSUELOC_DEBUG=1 prints its stack trace).';

/** Codes of file-system errors that are about the path (permissions, a missing or full disk), not a bug. */
const PATH_ERRORS = new Set(['ENOENT', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EFBIG', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENAMETOOLONG', 'ELOOP']);

/**
 * The one-line message of a file-system error on a path (`cannot mkdir /proc/x: no such file
 * or directory (ENOENT)`), or undefined for any other error.
 */
export function pathErrorMessage(e: unknown): string | undefined {
  const err = e as NodeJS.ErrnoException;
  if (!(e instanceof Error) || !PATH_ERRORS.has(err.code ?? '') || typeof err.syscall !== 'string' || typeof err.path !== 'string') return undefined;
  const what = /^[A-Z]+: ([^,]+),/.exec(err.message)?.[1];
  const op = err.syscall.endsWith(err.path) ? err.syscall : `${err.syscall} ${err.path}`;
  return `cannot ${op}: ${what ? `${what} (${err.code})` : err.code}`;
}

/**
 * The one-line message of a failed write to standard output that is not a reader gone away (EPIPE):
 * a full disk under `> file`, `> /dev/full` (ENOSPC), a file-size limit (EFBIG), an I/O error.
 */
export function stdoutErrorMessage(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const what = /^[A-Z]+: ([^,]+),/.exec(err?.message ?? '')?.[1];
  return `cannot write standard output: ${what && err.code ? `${what} (${err.code})` : err?.code ?? String(err?.message ?? e)}`;
}

/** The one stderr line (with a stack trace when ISSUELOC_DEBUG is set) of an unexpected error. */
export function internalErrorLine(e: unknown): string {
  const err = e instanceof Error ? e : undefined;
  const line = `issueloc: internal error: ${(err?.message ?? String(e)).split('\n')[0]}\n`;
  return process.env.ISSUELOC_DEBUG && err?.stack ? `${line}${err.stack}\n` : line;
}

/** The `issueloc` program with every command registered (commander; errors thrown, not exited). */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('issueloc')
    .description('Rank the files, modules and functions of a git repository that an issue needs changed.')
    .version(packageVersion())
    .showHelpAfterError(false)
    .addHelpText('after', `\n${EXIT_CODES_HELP}`)
    // usage errors read as every other error: `issueloc: …` (commander says `error: …`); inherited by the commands
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'issueloc: ')) })
    .exitOverride();
  registerLocalizeCommand(program);
  registerIndexCommand(program);
  registerDatasetCommands(program);
  registerEvalCommands(program);
  registerTrainCommand(program);
  registerAdaptCommand(program);
  registerExportTrainingCommand(program);
  registerCacheCommand(program);
  registerBatchCommands(program);
  registerServeCommand(program);
  registerMcpCommand(program);
  registerCommentCommand(program);
  return program;
}

/**
 * Runs the CLI with `argv` (as process.argv) and returns the exit code (see the file comment);
 * `program` is {@link buildProgram}'s unless given (tests).
 */
export async function main(argv: string[], program: Command = buildProgram()): Promise<number> {
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander already printed its message (help, version or usage error).
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof IssuelocError) {
      process.stderr.write(`issueloc: ${e.message}\n`);
      return e.exitCode;
    }
    const pathError = pathErrorMessage(e);
    if (pathError) {
      process.stderr.write(`issueloc: ${pathError}\n`);
      return 2;
    }
    process.stderr.write(internalErrorLine(e));
    return 3;
  }
}
