/**
 * bench/verify: runs regressions (bench/regressions/NAME.json, format in bench/regressions/README.md)
 * and compares their metrics with the expected ones.
 *
 *   npm run bench:verify -- NAME… | --all  [--regressions DIR] [--data DIR] [--mirrors DIR]
 *       [--cache-dir DIR] [--features-cache DIR] [--imports DIR] [--timeout MINUTES] [--record]
 *
 * Placeholders of the commands: DATA (--data, $ISSUELOC_DATA, ../shared/data beside the checkout),
 * MIRRORS (--mirrors, $ISSUELOC_MIRRORS, /work/.mirror), CACHE (--cache-dir,
 * /tmp/issueloc-bench-cache), FEATURES (--features-cache, /tmp/issueloc-ltr-features): the
 * bench scripts' own defaults; IMPORTS (--imports, $ISSUELOC_IMPORTS, /work/scratch/data27) the
 * folder of imported training sets (bench/import-training-sets.ts), not in the data folder. Each regression runs from the checkout's root, after checking its
 * inputs: the script is built, the IMPORTS folder is there when a dataset is in it, each dataset
 * is there with the expected sha256, the repositories are under MIRRORS.
 *
 * Prints per regression `NAME: ok …` or one line per metric that drifted beyond the tolerance
 * (`NAME: ROW: METRIC: expected X, got Y (±D)`) on stdout; inputs missing and failures as one line
 * on stderr. `--record` writes the measured values into the regression file instead of comparing.
 *
 * Exit codes: 0 every regression within tolerance (or recorded); 1 drift; 2 bad usage, an unknown
 * or malformed regression, an input missing (script not built, dataset or repositories absent,
 * another sha256); 3 a bench that failed (non-zero exit, time out, unreadable output). With several
 * regressions the first of 3, 1, 2 that occurred.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { IssuelocError } from '../src/errors.js';
import { writeFileAtomic } from '../src/util/atomic-write.js';
import {
  REGRESSIONS_DIR, ROOT, benchOutputOf, driftLines, expectedCount, loadRegression, missingInput, recordedText,
  regressionNames, resolvedCommand, type Places, type Regression,
} from './lib/regressions.js';

const TAG = 'bench:verify';
const STDOUT_CAP = 16 << 20;
const STDERR_TAIL = 64 << 10;

/** Outcome of running one bench command. */
type Run = { ok: true; stdout: string; seconds: number } | { ok: false; why: string };

/** Runs `node SCRIPT ARGS…` from the root, with a time limit; keeps stdout (capped) and the end of stderr. */
function runBench(argv: string[], timeoutMillis: number): Promise<Run> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, argv.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMillis, killSignal: 'SIGKILL' });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes <= STDOUT_CAP) out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => { err = (err + b.toString('utf8')).slice(-STDERR_TAIL); });
    child.on('error', (e) => done({ ok: false, why: `could not start ${argv[1]}: ${e.message}` }));
    child.on('close', (code, signal) => {
      // an uncaught exception ends with its stack, properties and the Node.js version: name its error line
      const last = err.match(/^\w*Error\b.*$/gm)?.at(-1) ?? err.trim().split('\n').at(-1) ?? '';
      if (signal === 'SIGKILL' && performance.now() - t0 >= timeoutMillis) done({ ok: false, why: `${argv[1]} ran over ${timeoutMillis / 60000} min (--timeout): stopped` });
      else if (code !== 0) done({ ok: false, why: `${argv[1]} exited with ${code ?? signal}${last ? `: ${last}` : ''}` });
      else if (outBytes > STDOUT_CAP) done({ ok: false, why: `${argv[1]} printed over ${STDOUT_CAP >> 20} MiB` });
      else done({ ok: true, stdout: Buffer.concat(out).toString('utf8'), seconds: (performance.now() - t0) / 1000 });
    });
  });
}

/** Runs one regression; returns its exit code (0, 1, 2 or 3) after printing its lines. */
async function verify(reg: Regression, places: Places, timeoutMillis: number, record: boolean): Promise<number> {
  const missing = await missingInput(reg, places);
  if (missing) {
    process.stderr.write(`${TAG}: ${reg.name}: ${missing}\n`);
    return 2;
  }
  const argv = resolvedCommand(reg, places);
  process.stderr.write(`${TAG}: ${reg.name}: running ${argv.join(' ')}\n`);
  const run = await runBench(argv, timeoutMillis);
  if (!run.ok) {
    process.stderr.write(`${TAG}: ${reg.name}: ${run.why}\n`);
    return 3;
  }
  let out;
  try {
    out = benchOutputOf(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? ''));
  } catch (e) {
    process.stderr.write(`${TAG}: ${reg.name}: unreadable --json output of ${argv[1]}: ${(e as Error).message}\n`);
    return 3;
  }
  if (record) {
    writeFileAtomic(reg.path, [recordedText(reg, out)]);
    process.stdout.write(`${reg.name}: recorded ${out.evaluated} issues into ${reg.path} (${run.seconds.toFixed(0)} s)\n`);
    return 0;
  }
  if (expectedCount(reg) === 0) {
    process.stderr.write(`${TAG}: ${reg.name}: ${reg.path} expects no values yet (bench:verify --record ${reg.name} writes them)\n`);
    return 2;
  }
  const drift = driftLines(reg, out);
  for (const line of drift) process.stdout.write(`${reg.name}: ${line}\n`);
  const rows = Object.keys(reg.expected).length;
  if (drift.length > 0) {
    process.stdout.write(`${reg.name}: DRIFT: ${drift.length} of ${expectedCount(reg) + 1} values beyond ±${reg.tolerance} (${reg.path})\n`);
    return 1;
  }
  process.stdout.write(`${reg.name}: ok: ${expectedCount(reg)} values of ${rows} row${rows > 1 ? 's' : ''} within ±${reg.tolerance}, ${out.evaluated} issues (${run.seconds.toFixed(0)} s)\n`);
  return 0;
}

/** The worst of two exit codes: a failure (3) before drift (1) before a missing input (2). */
const worst = (a: number, b: number) => [3, 1, 2, 0].find((c) => c === a || c === b)!;

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        all: { type: 'boolean', default: false },
        regressions: { type: 'string', default: REGRESSIONS_DIR },
        data: { type: 'string', default: process.env.ISSUELOC_DATA ?? resolve(ROOT, '..', 'shared', 'data') },
        mirrors: { type: 'string', default: process.env.ISSUELOC_MIRRORS ?? '/work/.mirror' },
        'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
        'features-cache': { type: 'string', default: '/tmp/issueloc-ltr-features' },
        imports: { type: 'string', default: process.env.ISSUELOC_IMPORTS ?? '/work/scratch/data27' },
        timeout: { type: 'string', default: '180' },
        record: { type: 'boolean', default: false },
      },
    });
  } catch (e) {
    throw new IssuelocError(`${(e as Error).message} (usage: bench:verify NAME… | --all [--data DIR] [--mirrors DIR] …)`, 2);
  }
  const { values: args, positionals } = parsed;
  const dir = resolve(args.regressions);
  const minutes = Number(args.timeout);
  if (!(minutes > 0)) throw new IssuelocError(`--timeout ${args.timeout}: expected minutes > 0`, 2);
  if (args.all === (positionals.length > 0)) throw new IssuelocError('name the regressions to run, or --all (not both)', 2);
  const names = args.all ? regressionNames(dir) : positionals;
  const regs = names.map((n) => loadRegression(dir, n)); // every file checked before anything runs
  const places: Places = {
    DATA: resolve(args.data), MIRRORS: resolve(args.mirrors), CACHE: resolve(args['cache-dir']), FEATURES: resolve(args['features-cache']),
    IMPORTS: resolve(args.imports),
  };
  let code = 0;
  for (const reg of regs) code = worst(code, await verify(reg, places, minutes * 60000, args.record));
  process.exitCode = code;
}

main().catch((e: unknown) => {
  const known = e instanceof IssuelocError;
  process.stderr.write(`${TAG}: ${known ? '' : 'internal error: '}${(e as Error).message}\n`);
  process.exitCode = known ? e.exitCode : 3;
});
