/**
 * `issueloc`: the command-line entry point. Commands live one per file in this folder; this
 * file only registers them and turns errors into one-line messages with meaningful exit codes:
 *
 * - 0: results (a ranking, a dataset, a report);
 * - 1: nothing matched (no word of the issue in the code, no linked issue, nothing exported);
 * - 2: bad input or usage (an {@link IssuelocError}: the message names the input at fault);
 * - 3: internal failure, a bug: `issueloc: internal error: <message>` (the stack trace with
 *   `ISSUELOC_DEBUG=1`).
 */
import { Command, CommanderError } from 'commander';
import { IssuelocError } from '../errors.js';
import { registerLocalizeCommand } from './localize.js';
import { registerIndexCommand } from './index-cmd.js';
import { registerDatasetCommands } from './dataset.js';
import { registerEvalCommands } from './eval.js';
import { registerTrainCommand } from './train.js';
import { registerExportTrainingCommand } from './export-training.js';

/** The exit codes, as `--help` lists them. */
export const EXIT_CODES_HELP = 'Exit codes: 0 results, 1 nothing matched, 2 bad input or usage, 3 internal failure (a bug;\n' +
  'ISSUELOC_DEBUG=1 prints its stack trace).';

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
    .version('0.1.0')
    .showHelpAfterError(false)
    .addHelpText('after', `\n${EXIT_CODES_HELP}`)
    .exitOverride();
  registerLocalizeCommand(program);
  registerIndexCommand(program);
  registerDatasetCommands(program);
  registerEvalCommands(program);
  registerTrainCommand(program);
  registerExportTrainingCommand(program);
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
    process.stderr.write(internalErrorLine(e));
    return 3;
  }
}
