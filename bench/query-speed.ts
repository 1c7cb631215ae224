/**
 * bench/query-speed: time to load an index and to answer queries, for one repository commit.
 *
 *   node dist/bench/query-speed.js --repo /path/to/sympy.git --rev e950d31 \
 *       [--issues DATA/swebench-lite/swebench_lite.jsonl] [--match sympy/sympy]
 *       [--cache-dir DIR] [--configs bench/configs/ablation.json] [--rounds 3]
 *
 * Builds (or loads) the index of --rev, then runs the problem statements of the issues whose
 * `repo` equals --match as queries, --rounds times, and prints: index build or load time,
 * documents, and per configuration the median and 90th-percentile query time in milliseconds
 * (tokenizing the issue, signals, scoring every function, top-k and roll-up), plus peak RSS.
 * The first round warms the JIT and is not counted.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GitRepo } from '../src/repo/git.js';
import { indexCommit } from '../src/index/index-commit.js';
import { Localizer, type RankingOptions } from '../src/retrieve/localize.js';
import { queryTermsOf } from '../src/retrieve/query.js';
import { extractIssueSignals } from '../src/text/issue-signals.js';
import { cacheDirFor } from '../src/index/cache-dir.js';
import { dataFile } from './lib/data.js';

const { values: args } = parseArgs({
  options: {
    repo: { type: 'string' },
    rev: { type: 'string', default: 'HEAD' },
    issues: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    match: { type: 'string' },
    'cache-dir': { type: 'string' },
    configs: { type: 'string' },
    rounds: { type: 'string', default: '3' },
  },
});

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function main() {
  if (!args.repo) throw new Error('--repo is required');
  const repo = await GitRepo.open(args.repo);
  const commit = await repo.resolveCommit(args.rev!);
  const cacheDir = cacheDirFor(repo, args['cache-dir']);
  const t0 = performance.now();
  const { codeIndex, built } = await indexCommit(repo, commit, { cacheDir });
  const indexMs = performance.now() - t0;
  await repo.close();
  const texts: string[] = readFileSync(args.issues!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    .filter((i: { repo: string }) => !args.match || i.repo === args.match)
    .map((i: { problem_statement: string }) => i.problem_statement);
  if (texts.length === 0) throw new Error('no issue matches --match');
  const configs: (RankingOptions & { name: string })[] = args.configs
    ? JSON.parse(readFileSync(args.configs, 'utf8'))
    : [{ name: 'default' }];
  process.stdout.write(`${built ? 'built' : 'loaded'} index of ${commit.slice(0, 12)} in ${(indexMs / 1000).toFixed(2)} s: ` +
    `${codeIndex.units.length} functions, ${codeIndex.filePaths.length} files; ${texts.length} queries × ${args.rounds} rounds\n\n`);
  process.stdout.write('| configuration | median query (ms) | p90 query (ms) |\n|---|---|---|\n');
  for (const config of configs) {
    const localizer = new Localizer(codeIndex, config);
    const times: number[] = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const text of texts) {
        const q0 = performance.now();
        localizer.localize(queryTermsOf(text, { stem: codeIndex.settings.stem }), { top: 10, signals: extractIssueSignals(text) });
        if (round > 0) times.push(performance.now() - q0);
      }
    }
    process.stdout.write(`| ${config.name} | ${quantile(times, 0.5).toFixed(2)} | ${quantile(times, 0.9).toFixed(2)} |\n`);
  }
  process.stdout.write(`\npeak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB\n`);
}

main().catch((e) => {
  process.stderr.write(`query-speed: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
