/**
 * bench/query-speed: time to load an index and to answer queries, for one repository commit.
 *
 *   node dist/bench/query-speed.js --repo /path/to/sympy.git --rev e950d31 \
 *       [--issues DATA/swebench-lite/swebench_lite.jsonl] [--match sympy/sympy]
 *       [--cache-dir DIR] [--configs bench/configs/ablation.json] [--rounds 3]
 *
 * A configuration is `{ "name": …, "model"?: …, …RankingOptions }`: `model` as `--model` takes it
 * (`default`, `none`, a model file, `repo[@REV]`); without it the library's default, the built-in
 * model. The lexical pipeline needs `"model": "none"`, e.g.
 * `[{"name": "default"}, {"name": "lexical", "model": "none"}]`.
 *
 * Builds (or loads) the index of --rev, then runs the problem statements of the issues whose
 * `repo` equals --match as queries, --rounds times, and prints: index build or load time,
 * documents, and per configuration the median and 90th-percentile query time in milliseconds of
 * the library's `localize` (src/pipeline/localizer.ts: checking and tokenizing the issue, signals,
 * scoring every function, top-k, roll-up and matched terms of the top 10), plus peak RSS. The
 * first round warms the JIT and sets up the stages; it is not counted.
 */
import { readFileSync } from 'node:fs';
import { benchArgs } from './lib/args.js';
import { openLocalizer, type RankingOptions } from '../src/index.js';
import { dataFile } from './lib/data.js';

const { values: args } = benchArgs({
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
  const texts: string[] = readFileSync(args.issues!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    .filter((i: { repo: string }) => !args.match || i.repo === args.match)
    .map((i: { problem_statement: string }) => i.problem_statement);
  if (texts.length === 0) throw new Error('no issue matches --match');
  const configs: (RankingOptions & { name: string; model?: string })[] = args.configs
    ? JSON.parse(readFileSync(args.configs, 'utf8'))
    : [{ name: 'default' }];
  let header = false;
  for (const { name, model, ...ranking } of configs) {
    const localizer = await openLocalizer({ repo: args.repo, rev: args.rev, cacheDir: args['cache-dir'], ranking, ...(model !== undefined ? { model } : {}) });
    try {
      const index = await localizer.prepare();
      if (!header) {
        process.stdout.write(`${index.built ? 'built' : 'loaded'} index of ${index.commit.slice(0, 12)} in ${(index.millis / 1000).toFixed(2)} s: ` +
          `${index.documents} functions, ${index.files} files; ${texts.length} queries × ${args.rounds} rounds\n\n`);
        process.stdout.write('| configuration | median query (ms) | p90 query (ms) |\n|---|---|---|\n');
        header = true;
      }
      const times: number[] = [];
      for (let round = 0; round < Number(args.rounds); round++) {
        for (const text of texts) {
          const q0 = performance.now();
          await localizer.localize(text, { rev: index.commit, top: 10 });
          if (round > 0) times.push(performance.now() - q0);
        }
      }
      process.stdout.write(`| ${name} | ${quantile(times, 0.5).toFixed(2)} | ${quantile(times, 0.9).toFixed(2)} |\n`);
    } finally {
      await localizer.close();
    }
  }
  process.stdout.write(`\npeak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB\n`);
}

main().catch((e) => {
  process.stderr.write(`query-speed: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
