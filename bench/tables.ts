/**
 * bench/tables: rewrites the docs' regression tables from bench/regressions/ (the sections between
 * `<!-- regression:NAME[,NAME…] -->` and `<!-- /regression -->`, bench/lib/regression-tables.ts).
 *
 *   npm run bench:tables [-- --check] [--regressions DIR] [FILE.md …]
 *
 * Files: those named, or README.md and docs/*.md. `--check` rewrites nothing and exits 1 when a
 * table differs from its regressions (test/bench/regression-tables.test.ts runs the same check).
 * Exit codes: 0 written or up to date, 1 a table differs (--check), 2 bad usage, an unknown or
 * malformed regression, an unreadable file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { IssuelocError } from '../src/errors.js';
import { writeFileAtomic } from '../src/util/atomic-write.js';
import { REGRESSIONS_DIR, ROOT, loadRegression } from './lib/regressions.js';
import { docFiles, rewriteRegressionTables } from './lib/regression-tables.js';

const TAG = 'bench:tables';

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { check: { type: 'boolean', default: false }, regressions: { type: 'string', default: REGRESSIONS_DIR } },
    });
  } catch (e) {
    throw new IssuelocError(`${(e as Error).message} (usage: bench:tables [--check] [--regressions DIR] [FILE.md …])`, 2);
  }
  const { values: args, positionals } = parsed;
  const dir = resolve(args.regressions);
  const files = positionals.length > 0 ? positionals.map((f) => resolve(f)) : docFiles();
  let stale = 0;
  for (const file of files) {
    if (!existsSync(file)) throw new IssuelocError(`${file}: no such file`, 2);
    const name = relative(ROOT, file);
    const old = readFileSync(file, 'utf8');
    const { text, changed } = rewriteRegressionTables(old, name, (n) => loadRegression(dir, n));
    if (changed.length === 0) continue;
    if (args.check) {
      stale += changed.length;
      for (const c of changed) process.stdout.write(`${name}: table regression:${c} differs from ${relative(ROOT, dir)} (npm run bench:tables)\n`);
    } else {
      writeFileAtomic(file, [text]);
      process.stdout.write(`${name}: ${changed.length} table${changed.length > 1 ? 's' : ''} rewritten (${changed.join(' ')})\n`);
    }
  }
  if (stale > 0) process.exitCode = 1;
}

try {
  main();
} catch (e) {
  const known = e instanceof IssuelocError;
  process.stderr.write(`${TAG}: ${known ? '' : 'internal error: '}${(e as Error).message}\n`);
  process.exitCode = known ? e.exitCode : 3;
}
