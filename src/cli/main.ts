/**
 * `issueloc`: the command-line entry point. Commands live one per file in this folder; this
 * file only registers them and turns errors into one-line messages with meaningful exit codes
 * (0 results found, 1 nothing found, 2 bad input or usage).
 */
import { Command, CommanderError } from 'commander';
import { IssuelocError } from '../errors.js';
import { packageVersion } from '../version.js';
import { registerLocalizeCommand } from './localize.js';
import { registerIndexCommand } from './index-cmd.js';
import { registerDatasetCommands } from './dataset.js';
import { registerEvalCommands } from './eval.js';
import { registerTrainCommand } from './train.js';
import { registerExportTrainingCommand } from './export-training.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('issueloc')
    .description('Rank the files, modules and functions of a git repository that an issue needs changed.')
    .version(packageVersion())
    .showHelpAfterError(false)
    .exitOverride();
  registerLocalizeCommand(program);
  registerIndexCommand(program);
  registerDatasetCommands(program);
  registerEvalCommands(program);
  registerTrainCommand(program);
  registerExportTrainingCommand(program);
  return program;
}

/** Runs the CLI with `argv` (as process.argv) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
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
    const err = e as Error;
    process.stderr.write(`issueloc: ${err?.message ?? String(e)}\n`);
    if (process.env.ISSUELOC_DEBUG) process.stderr.write(`${err?.stack ?? ''}\n`);
    return 1;
  }
}
