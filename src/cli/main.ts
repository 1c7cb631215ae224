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

/** A command module's registration of its commands on the program. */
type Register = (program: Command) => void;

/**
 * The command modules, in `--help` order, with the top-level commands each registers. A module is
 * imported only when its command runs (or for `--help`): a command pays the start-up of the
 * libraries it uses, not of every command's (tree-sitter, ONNX, BullMQ, the HTTP server, charts …).
 */
const COMMAND_MODULES: ReadonlyArray<{ names: readonly string[]; load: () => Promise<Register> }> = [
  { names: ['localize'], load: async () => (await import('./localize.js')).registerLocalizeCommand },
  { names: ['index'], load: async () => (await import('./index-cmd.js')).registerIndexCommand },
  { names: ['dataset'], load: async () => (await import('./dataset.js')).registerDatasetCommands },
  { names: ['eval', 'stats', 'report'], load: async () => (await import('./eval.js')).registerEvalCommands },
  { names: ['train'], load: async () => (await import('./train.js')).registerTrainCommand },
  { names: ['adapt'], load: async () => (await import('./adapt.js')).registerAdaptCommand },
  { names: ['export-training'], load: async () => (await import('./export-training.js')).registerExportTrainingCommand },
  { names: ['cache'], load: async () => (await import('./cache-cmd.js')).registerCacheCommand },
  { names: ['batch'], load: async () => (await import('./batch.js')).registerBatchCommands },
  { names: ['serve'], load: async () => (await import('./serve.js')).registerServeCommand },
  { names: ['mcp'], load: async () => (await import('./mcp.js')).registerMcpCommand },
  { names: ['comment'], load: async () => (await import('./comment.js')).registerCommentCommand },
];

/** The exit codes, as `--help` lists them. */
export const EXIT_CODES_HELP = 'Exit codes: 0 results, 1 nothing matched, 2 bad input or usage, 3 internal failure (a bug;\n' +
  'ISSUELOC_DEBUG=1 prints its stack trace).';

/** Where the input goes for the commands that take none as arguments (their usual slip: `localize "text"`, `index ~/src/x`). */
const ARGUMENT_HINTS: Readonly<Record<string, string>> = {
  localize: 'the issue goes in --issue TEXT, --issue-file PATH or stdin, the repository in --repo PATH',
  index: 'the repository goes in --repo PATH, the commit in --rev REV',
  adapt: 'the repository goes in --repo PATH, the commit in --rev REV',
  serve: 'repositories go in --repo PATH or --repo NAME=PATH, or a --config FILE',
  mcp: 'repositories go in --repo PATH or --repo NAME=PATH, or a --config FILE',
};

/**
 * A usage error of commander as issueloc prints it: `issueloc: …` (commander says `error: …`),
 * and for a command given an argument it takes none of, where its input goes instead.
 */
export function usageErrorLine(text: string): string {
  const line = text.replace(/^error: /, 'issueloc: ');
  const excess = /^(issueloc: too many arguments for '([\w-]+)'\..*?)\.?\n?$/.exec(line);
  const hint = excess ? ARGUMENT_HINTS[excess[2]] : undefined;
  return hint && excess ? `${excess[1]} (${hint})\n` : line;
}

/** `--repo`'s default as the refusal of a folder outside any repository names it. */
const NOT_A_REPOSITORY_HERE = 'not a git repository: .';

/**
 * An error's message with what to do next where the input at fault was not given but defaulted:
 * issueloc run outside a repository without `--repo`.
 */
export function withNextStep(message: string): string {
  return message === NOT_A_REPOSITORY_HERE ? `${message} (the current folder: run issueloc inside a repository or give --repo PATH)` : message;
}

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

/**
 * The `issueloc` program (commander; errors thrown, not exited): with `argv` (as process.argv)
 * naming a command, that command alone (its module is the only one imported); with `--version`,
 * none; else, as for `--help` or an unknown command, every command.
 */
export async function buildProgram(argv?: readonly string[]): Promise<Command> {
  const program = new Command();
  program
    .name('issueloc')
    .description('Rank the files, modules and functions of a git repository that an issue needs changed.')
    .version(packageVersion())
    .showHelpAfterError(false)
    .addHelpText('after', `\n${EXIT_CODES_HELP}`)
    // usage errors read as every other error (usageErrorLine); inherited by the commands
    .configureOutput({ outputError: (text, write) => write(usageErrorLine(text)) })
    .exitOverride();
  const named = argv?.[2];
  // `issueloc --version` prints the version alone: no command module is needed
  if (named === '--version' || named === '-V') return program;
  const one = COMMAND_MODULES.find((m) => named !== undefined && m.names.includes(named));
  for (const register of await Promise.all((one ? [one] : COMMAND_MODULES).map((m) => m.load()))) register(program);
  return program;
}

/**
 * Runs the CLI with `argv` (as process.argv) and returns the exit code (see the file comment);
 * `program` is {@link buildProgram}'s unless given (tests).
 */
export async function main(argv: string[], program?: Command): Promise<number> {
  try {
    await (program ?? (await buildProgram(argv))).parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander already printed its message (help, version or usage error).
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof IssuelocError) {
      process.stderr.write(`issueloc: ${withNextStep(e.message)}\n`);
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
