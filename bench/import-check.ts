/**
 * Imports the three benchmark sets of the data folder with the fetched mirrors and prints what came
 * out (records, drop reasons, positives and positive functions per issue, time); with --out DIR
 * also writes `swebench-lite.jsonl`, `locbench.jsonl`, `tomcat.jsonl` there (dataset format, for
 * `issueloc dataset stats`).
 *
 * Usage (from the repo root, after `npx tsc`):
 *   node dist/bench/import-check.js [--mirrors MIRRORS] [--data DATA] [--out OUT] [--only tomcat]
 *
 * Data and mirrors folders default as bench/lib/data.ts says (`ISSUELOC_DATA`, `ISSUELOC_MIRRORS`).
 */
import { join } from 'node:path';
import { benchArgs } from './lib/args.js';
import { GitRepo } from '../src/repo/git.js';
import type { ImportResult } from '../src/dataset/import/common.js';
import { importLocbench } from '../src/dataset/import/locbench.js';
import { RepoPool, mirrorPath } from '../src/repo/mirrors.js';
import { importSwebench } from '../src/dataset/import/swebench.js';
import { importTomcat } from '../src/dataset/import/tomcat.js';
import { toJsonl } from '../src/dataset/output.js';
import { writeFileAtomic } from '../src/util/atomic-write.js';
import { DATA_DIR, MIRRORS_DIR } from './lib/data.js';

const { values } = benchArgs({
  options: {
    mirrors: { type: 'string', default: MIRRORS_DIR },
    data: { type: 'string', default: DATA_DIR },
    out: { type: 'string' },
    only: { type: 'string' },
  },
});

function summary(values: number[]): string {
  if (values.length === 0) return '-';
  const v = [...values].sort((a, b) => a - b);
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const mid = v.length >> 1;
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return `min ${v[0]} max ${v[v.length - 1]} mean ${mean.toFixed(2)} median ${median}`;
}

function report(name: string, res: ImportResult, seconds: number): void {
  const reasons = new Map<string, number>();
  for (const d of res.dropped) {
    const key = d.reason.replace(/\b[0-9a-f]{7,40}\b/g, '<sha>');
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  const r = res.records;
  console.log(`${name}: ${r.length} records, ${res.dropped.length} dropped, ${res.invalid.length} invalid lines, ${seconds.toFixed(1)} s`);
  for (const [k, n] of reasons) console.log(`  dropped ${n}: ${k}`);
  console.log(`  positive files per issue: ${summary(r.map((x) => x.positives.length))}`);
  console.log(`  positive functions per issue: ${summary(r.map((x) => x.positiveFunctions.length))}; issues without any: ${r.filter((x) => x.positiveFunctions.length === 0).length}`);
  const withCandidates = r.filter((x) => x.candidates > 0);
  console.log(`  candidate files (${withCandidates.length} with a repository): ${summary(withCandidates.map((x) => x.candidates))}`);
  console.log(`  changesTests: ${r.filter((x) => x.changesTests === true).length} true, ${r.filter((x) => x.changesTests === false).length} false`);
  if (values.out) writeFileAtomic(join(values.out, `${name}.jsonl`), [toJsonl(r)]);
}

async function main(): Promise<void> {
  const want = (n: string): boolean => !values.only || values.only.split(',').includes(n);
  const pool = new RepoPool(values.mirrors!);
  try {
    if (want('swebench-lite')) {
      const t = Date.now();
      const res = await importSwebench(join(values.data!, 'swebench-lite/swebench_lite.jsonl'), { openRepo: pool.open, variant: 'swebench-lite' });
      report('swebench-lite', res, (Date.now() - t) / 1000);
    }
    if (want('locbench')) {
      const t = Date.now();
      const res = await importLocbench(join(values.data!, 'locbench/locbench_v1.jsonl'), { openRepo: pool.open });
      report('locbench', res, (Date.now() - t) / 1000);
    }
  } finally {
    await pool.close();
  }
  if (want('tomcat')) {
    const dir = mirrorPath(values.mirrors!, 'apache/tomcat');
    if (!dir) {
      console.log('tomcat: apache/tomcat not mirrored, skipped');
      return;
    }
    const repo = await GitRepo.open(dir);
    try {
      const t = Date.now();
      const res = await importTomcat(join(values.data!, 'ye2014/tomcat.jsonl'), { repo });
      report('tomcat', res, (Date.now() - t) / 1000);
    } finally {
      await repo.close();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 2;
});
