/**
 * bench/cli-startup: what one `issueloc localize` process costs on an already indexed commit, as
 * coding agents and scripts call it (once per issue): whole-process CPU (user + system of the CLI
 * and the git processes it waits for) and wall time, per pipeline (the default one with the
 * built-in model, and `--model none`).
 *
 *   node dist/bench/cli-startup.js --repo /path/to/sympy --issue-file a.txt [--issue-file b.txt …]
 *     [--rev HEAD] [--cache-dir DIR] [--runs 5] [--vs /other/checkout/bin/issueloc.js [--vs-cache-dir DIR]]
 *
 * Runs `issueloc index` first (the index and the history signals: what the first call needs),
 * then each pipeline's calls, one warm-up call each not counted. The CLI is bin/issueloc.js as
 * installed: build it with `npm run build` (tsc and the bundle), else it runs dist/src. With `--vs`, the other build's
 * CLI runs in turn with this one (A B A B …, the same issue), and the ratio A/B of each pair is
 * printed too: on a shared machine the ratio of neighbouring runs is the figure to trust; with
 * `--vs-cache-dir`, the other build has a cache folder of its own (builds whose cache formats
 * differ would otherwise rebuild each other's files on every call). CPU is
 * read with the shell's `times` (POSIX), so git's CPU is counted with the CLI's.
 *
 * The code cache of the localize script (src/cli/code-cache.ts) is kept in a temporary folder of
 * the bench's per CLI (XDG_CACHE_HOME: a build removes the cache files of other builds it finds,
 * so two builds sharing one folder would each compile every call), written by the warm-up call;
 * the row `first call` empties A's before each of its calls (the first call after an install or a
 * rebuild: compiled from the text, the cache written), and `--version` times the start-up without a command.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './lib/args.js';

const { values: args } = benchArgs({
  options: {
    repo: { type: 'string' },
    rev: { type: 'string', default: 'HEAD' },
    'issue-file': { type: 'string', multiple: true },
    'cache-dir': { type: 'string' },
    runs: { type: 'string', default: '5' },
    vs: { type: 'string' },
    'vs-cache-dir': { type: 'string' },
  },
});
if (!args.repo || !args['issue-file']?.length) {
  process.stderr.write('usage: node dist/bench/cli-startup.js --repo PATH --issue-file FILE [--issue-file FILE …] [--rev REV] [--cache-dir DIR] [--runs N] [--vs OTHER_BIN [--vs-cache-dir DIR]]\n');
  process.exit(2);
}
const runs = Math.max(1, Number(args.runs) || 5);
/** The shipped executable (bin/issueloc.js: the bundle of dist/bundle/ when it is built, else dist/src). */
const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'bin/issueloc.js');
const commonOf = (cacheDir: string | undefined) => ['--repo', args.repo!, '--rev', args.rev!, ...(cacheDir ? ['--cache-dir', cacheDir] : [])];
/** The arguments every call of `cli` shares (its cache folder). */
const common = (cli: string) => commonOf(cli === bin ? args['cache-dir'] : args['vs-cache-dir'] ?? args['cache-dir']);

/** Seconds of `times`' `1m2.5s` form. */
const seconds = (t: string) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(t);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

/** One process of `cli` with `cliArgs`: its CPU (with its children's) and wall seconds. */
function timed(cli: string, cliArgs: string[]): { cpu: number; wall: number } {
  const env = { ...process.env, XDG_CACHE_HOME: join(codeCacheHome, cli === bin ? 'a' : 'b') };
  const t0 = performance.now();
  // `times` in the shell after the child is reaped: its second line is the children's user and system time
  const r = spawnSync('sh', ['-c', '"$@" >/dev/null 2>&1; code=$?; times; exit $code', 'sh', process.execPath, cli, ...cliArgs], { encoding: 'utf8', timeout: 600_000, env });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cliArgs.join(' ')} exited ${r.status}: ${r.stderr}`);
  const [user, sys] = r.stdout.trim().split('\n')[1].trim().split(/\s+/).map(seconds);
  return { cpu: user + sys, wall };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x: number) => x.toFixed(3);

for (const cli of [bin, ...(args.vs ? [args.vs] : [])]) {
  const r = spawnSync(process.execPath, [cli, 'index', ...common(cli), '--no-progress'], { encoding: 'utf8', timeout: 3_600_000 });
  if (r.status !== 0) throw new Error(`index with ${cli} exited ${r.status}: ${r.stderr}`);
}
process.stdout.write(`repo ${args.repo} @ ${args.rev}; ${args['issue-file'].length} issue(s) × ${runs} runs; A = ${bin}${args.vs ? `, B = ${args.vs}` : ''}\n`);
const codeCacheHome = mkdtempSync(join(tmpdir(), 'issueloc-cli-startup-'));
/** The cases: a name, the arguments of a call of `cli` with an issue file, whether the code cache is emptied before each call of A. */
const cases: { name: string; args: (cli: string, file: string) => string[]; cold?: boolean }[] = [
  { name: '--version', args: () => ['--version'] },
  ...['default', 'none'].map((model) => ({ name: `--model ${model}`, args: (cli: string, file: string) => ['localize', ...common(cli), '--issue-file', file, '--json', '--top', '10', '--model', model, '--no-progress'] })),
];
cases.push({ ...cases[1], name: `${cases[1].name}, first call (no code cache)`, cold: true });
try {
  for (const c of cases) {
    for (const cli of [bin, ...(args.vs ? [args.vs] : [])]) timed(cli, c.args(cli, args['issue-file'][0])); // warm-up
    const a: { cpu: number; wall: number }[] = [];
    const b: { cpu: number; wall: number }[] = [];
    for (let k = 0; k < runs; k++) {
      for (const file of args['issue-file']) {
        if (c.cold) rmSync(join(codeCacheHome, 'a', 'issueloc'), { recursive: true, force: true });
        a.push(timed(bin, c.args(bin, file)));
        if (args.vs) b.push(timed(args.vs, c.args(args.vs, file)));
      }
    }
    const row = (name: string, xs: typeof a) => `  ${name}: cpu median ${f(median(xs.map((x) => x.cpu)))} s (min ${f(Math.min(...xs.map((x) => x.cpu)))}), wall median ${f(median(xs.map((x) => x.wall)))} s\n`;
    process.stdout.write(`${c.name} (${a.length} calls)\n${row('A', a)}`);
    if (args.vs) {
      process.stdout.write(row('B', b));
      process.stdout.write(`  A/B pairwise: cpu median ${f(median(a.map((x, i) => x.cpu / b[i].cpu)))}, wall median ${f(median(a.map((x, i) => x.wall / b[i].wall)))}\n`);
    }
  }
} finally {
  rmSync(codeCacheHome, { recursive: true, force: true });
}
