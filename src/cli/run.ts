/**
 * One run of the `issueloc` program in this process, as the executable makes it (src/cli/bin.ts,
 * and the localize script of the CLI bundle, build/cli-bundle.mjs): the handlers of output errors
 * and stray exceptions, then the command, its code left on process.exitCode.
 */
import { internalErrorLine, main, stdoutErrorMessage } from './main.js';

/**
 * Runs the CLI with `argv` (as process.argv) and sets process.exitCode. No process.exit(): it
 * would drop what stdout still holds for a slow reader (a pipe takes 64 KiB at a time), so Node
 * leaves once every write has drained.
 */
export async function runCli(argv: string[]): Promise<void> {
  let outputFailed = false;
  /**
   * A reader that went away (`issueloc … | head -1`): stop writing, quietly, as Unix tools do.
   * Any other failure (`> /dev/full`, a full disk, a file-size limit): one line naming standard
   * output, exit 2 (a bad output, not a bug); later writes fail the same way and say nothing more.
   */
  const onOutputError = (e: NodeJS.ErrnoException): void => {
    if (e.code === 'EPIPE' || outputFailed) return;
    outputFailed = true;
    process.stderr.write(`issueloc: ${stdoutErrorMessage(e)}\n`);
    process.exitCode = 2;
  };
  process.stdout.on('error', onOutputError);
  // a file-size limit (`ulimit -f`) would kill the process at the write past it (SIGXFSZ): handled,
  // that write fails with EFBIG and is told as a full disk is
  process.on('SIGXFSZ', () => undefined);
  // stderr gone: nowhere left to tell anything
  process.stderr.on('error', () => undefined);

  // An error outside the command's promise (an event handler of a library; a rejection nobody
  // awaited): one line and exit 3, not Node's stack trace and exit 1 ("nothing matched"). The
  // command is stuck half-way, so this is the one place that leaves at once: after stdout drained.
  process.on('uncaughtException', (e) => {
    process.stderr.write(internalErrorLine(e));
    process.stdout.write('', () => process.exit(3));
  });

  const code = await main(argv);
  process.exitCode = outputFailed ? 2 : code;
}
