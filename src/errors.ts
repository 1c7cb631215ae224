/**
 * The one error type the CLI turns into a one-line message (no stack trace).
 *
 * Throw it for bad input: the message names the input at fault (a path, a revision, a line of a
 * file), e.g. `unknown revision 'abc123' in /src/requests`. `exitCode` is what the CLI exits with
 * (2 = usage or input error, as ripgrep and grep do). Any other error is a bug: the CLI reports
 * it as `issueloc: internal error: …` and exits 3 (src/cli/main.ts lists the codes).
 */
export class IssuelocError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'IssuelocError';
    this.exitCode = exitCode;
  }
}
