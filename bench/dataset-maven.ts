/**
 * bench/dataset-maven: speed and memory of dataset mining on the whole apache/maven history.
 *
 *   node --expose-gc dist/bench/dataset-maven.js [--repo DIR] [--issues FILE] [--key MNG] [--json]
 *
 * Defaults (bench/lib/data.ts): --repo MIRRORS/apache+maven/repo (a fetched bare snapshot: it lacks
 * blobs of 4 MiB or more, which the walk never reads), --issues DATA/jira/maven_mng_bugs.jsonl.
 *
 * Prints:
 * 1. the streaming walk of every ref (`--all`, about 29k commits) with link collection: time,
 *    commits/s, and heap in use at each quarter of the walk (flat = memory does not grow with the
 *    history beyond the compact commit graph);
 * 2. the whole dataset build from HEAD (first-commit variant): time and counts;
 * 3. peak RSS of the process (includes Node itself, about 40 MB).
 * Target (docs/dataset.md): mining the whole history in <= 60 s.
 */
import { benchArgs } from './lib/args.js';
import { readIssues } from '../src/issues/read.js';
import { walkHistory } from '../src/repo/log-walk.js';
import { LinkCollector } from '../src/dataset/link-collector.js';
import { jiraPattern } from '../src/dataset/links.js';
import { buildDataset } from '../src/dataset/build.js';
import { dataFile, mirrorRepo } from './lib/data.js';

const { values: args } = benchArgs({
  options: {
    repo: { type: 'string', default: mirrorRepo('apache+maven') },
    issues: { type: 'string', default: dataFile('jira/maven_mng_bugs.jsonl') },
    key: { type: 'string', default: 'MNG' },
    json: { type: 'boolean', default: false },
  },
});

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const issues = readIssues(args.issues as string).issues;
const patterns = [jiraPattern([args.key as string])];

// 1. walk of every ref
const collector = new LinkCollector(patterns, new Set(issues.map((i) => i.id)));
const heapAt: { commits: number; heapMB: number }[] = [];
let nextMark = 0;
let total = 0;
const t0 = performance.now();
const walk = await walkHistory(args.repo as string, {
  revs: ['--all'],
  onCommit: (c, i) => collector.onCommit(c, i),
  onProgress: (done, all) => {
    total = all;
    if (done >= nextMark && done < all) {
      heapAt.push({ commits: done, heapMB: mb(process.memoryUsage().heapUsed) });
      nextMark += Math.ceil(all / 4);
    }
  },
});
const walkSeconds = (performance.now() - t0) / 1000;
heapAt.push({ commits: walk.graph.size, heapMB: mb(process.memoryUsage().heapUsed) });
// with --expose-gc: what the walk keeps (graph + links), garbage collected
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const retainedMB = gc ? +(process.memoryUsage().heapUsed / 1048576).toFixed(1) : null;
const counts = collector.result();

// 2. dataset build from HEAD
const t1 = performance.now();
const built = await buildDataset({ repo: args.repo as string, issues, patterns });
const buildSeconds = (performance.now() - t1) / 1000;
const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);

const result = {
  repo: args.repo,
  walkAll: { commits: walk.graph.size, expected: total, seconds: +walkSeconds.toFixed(2), commitsPerSecond: Math.round(walk.graph.size / walkSeconds), commitsWithKeys: counts.commitsWithKeys, heapMBAtQuarter: heapAt, retainedHeapMBAfterGc: retainedMB },
  buildHead: { seconds: +buildSeconds.toFixed(2), walkSeconds: +(built.meta.millis.walk / 1000).toFixed(2), ...built.meta.counts },
  peakRssMB,
  targetSeconds: 60,
};
if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  const out = [
    `repository ${args.repo}`,
    `walk --all: ${result.walkAll.commits} commits in ${result.walkAll.seconds} s (${result.walkAll.commitsPerSecond} commits/s), ${counts.commitsWithKeys} name a ${args.key} key`,
    `  heap in use by commits read: ${heapAt.map((h) => `${h.commits}: ${h.heapMB} MB`).join(' · ')}` +
      (retainedMB === null ? ' (run with node --expose-gc for the retained heap)' : ` · retained after GC ${retainedMB} MB`),
    `build from HEAD (first-commit): ${result.buildHead.seconds} s (walk ${result.buildHead.walkSeconds} s), ${built.meta.counts.commits} commits, linked ${built.meta.counts.linked}, in dataset ${built.meta.counts.inDataset}`,
    `peak RSS ${peakRssMB} MB · target: whole history mined in <= ${result.targetSeconds} s: ${walkSeconds + buildSeconds <= 60 ? 'met' : 'MISSED'}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}
