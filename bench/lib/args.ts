/**
 * The command line of a bench script: node's `parseArgs`, plus what a person trying a script
 * expects. `--help` (or `-h`) prints the script's header comment (its usage) and the options it
 * takes; an unknown option or a missing value prints one line naming it, with exit code 2,
 * instead of a stack trace. Called before the script writes anything, so ending the process
 * there loses no output (both messages are written synchronously).
 */
import { readFileSync, writeSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit code of a bench script given options it does not take. */
export const BAD_ARGS_EXIT = 2;

/** `parseArgs(config)` with `--help` and a one-line error (see the file comment); never returns on either. */
export function benchArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const argv = config.args ?? process.argv.slice(2);
  const script = scriptName(process.argv[1] ?? 'bench');
  if (argv.includes('--help') || argv.includes('-h')) {
    writeSync(1, usageOf(process.argv[1], config));
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (e) {
    writeSync(2, `${script}: ${(e as Error).message.split('\n')[0]} (--help lists the options)\n`);
    process.exit(BAD_ARGS_EXIT);
  }
}

/** `bench/peers/lucene` for `…/dist/bench/peers/lucene.js`. */
function scriptName(path: string): string {
  const at = path.lastIndexOf('/bench/');
  return (at >= 0 ? path.slice(at + 1) : path).replace(/\.[cm]?[jt]s$/, '');
}

/** The header comment of the script file `path` (without its comment marks) and a line per option. */
function usageOf(path: string | undefined, config: ParseArgsConfig): string {
  let header = '';
  try {
    const head = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(readFileSync(path ?? '', 'utf8'));
    header = head ? head[1].split('\n').map((l) => l.replace(/^\s*\* ?/, '')).join('\n').trim() : '';
  } catch {
    // no readable source: the options alone
  }
  const options = Object.entries(config.options ?? {}).map(([name, o]) => {
    const value = o.type === 'string' ? ' VALUE' : '';
    const given = o.default === undefined ? '' : ` (default: ${JSON.stringify(o.default)})`;
    return `  --${name}${value}${o.multiple ? ' …' : ''}${given}`;
  });
  return `${header}\n\noptions:\n${options.join('\n')}\n`;
}
