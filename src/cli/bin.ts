#!/usr/bin/env node
// The `issueloc` executable: runs the CLI and leaves with its code. No process.exit(): it would
// drop what stdout still holds for a slow reader (a pipe takes 64 KiB at a time), so the code is
// set on process.exitCode and Node leaves once every write has drained.
import { internalErrorLine, main } from './main.js';

/** A reader that went away (`issueloc … | head -1`): stop writing, quietly, as Unix tools do. */
function onOutputError(e: NodeJS.ErrnoException): void {
  if (e.code === 'EPIPE') return;
  process.stderr.write(internalErrorLine(e));
  process.exitCode = 3;
}
process.stdout.on('error', onOutputError);
// stderr gone: nowhere left to tell anything
process.stderr.on('error', () => undefined);

// An error outside the command's promise (an event handler of a library; a rejection nobody
// awaited): one line and exit 3, not Node's stack trace and exit 1 ("nothing matched"). The
// command is stuck half-way, so this is the one place that leaves at once: after stdout drained.
process.on('uncaughtException', (e) => {
  process.stderr.write(internalErrorLine(e));
  process.stdout.write('', () => process.exit(3));
});

process.exitCode = await main(process.argv);
