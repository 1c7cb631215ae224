/**
 * bench/peers/lucene: issueloc's warm query against Lucene 4.10's on the same tokens.
 *
 *   node dist/bench/peers/lucene.js [--repo SYMPY_GIT_DIR] [--rev cffd4e0f86fe] [--match sympy/sympy]
 *       [--issues DATA/swebench-lite/swebench_lite.jsonl] [--cache-dir DIR] [--rounds 5] [--warmup 3]
 *       [--top 10] [--lucene-dir /usr/share/java] [--work DIR]
 *
 * Exports the function-level documents of the index of --rev as already-tokenised fields (each
 * field's terms, repeated by their frequency, as issueloc indexed them) and the issues' queries
 * (issueloc's `queryOf`: title weighted, stemmed like the index), compiles bench/peers/LucenePeer.java
 * and has Lucene index and answer them in one JVM (BM25, k1 and b as issueloc's, one boosted
 * TermQuery per term and field, the field weights of DEFAULT_RANKING, top --top). Then, in this
 * process, on the same loaded index and queries:
 * - `bm25f`: issueloc's scorer alone (`Bm25fScorer.scoreAll` + `topK`, top --top): Lucene's work;
 * - `lexical`: the library's `localize` with `model: 'none'` (issue text → files, modules, functions);
 * - `default`: the library's `localize` with the default pipeline (the learned model).
 * Each runs --warmup rounds (not counted) then --rounds timed rounds over every issue; the table
 * gives median and p90 wall time, CPU per query (Lucene: the query thread's; Node: the process's),
 * and each figure over Lucene's. Lucene's time starts from the tokenised query (no text
 * analysis); `lexical` and `default` start from the issue text.
 *
 * Skips with one line (exit 0) when Java, the Lucene jars, the issues or the repository are absent.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../lib/args.js';
import { openLocalizer } from '../../src/index.js';
import { openIndex } from '../../src/index/open-index.js';
import type { InvertedIndex } from '../../src/index/inverted-index.js';
import { Bm25fScorer, topK, type QueryTerms } from '../../src/retrieve/bm25f.js';
import { DEFAULT_RANKING, Localizer } from '../../src/retrieve/localize.js';
import { parseIssue } from '../../src/text/parsed-issue.js';
import { dataFile, mirrorRepo } from '../lib/data.js';
import { luceneJars, parseLuceneOutput, queryLine, ratioTable, summarise, type QueryTime } from './peer-stats.js';

const { values: args } = benchArgs({
  options: {
    repo: { type: 'string', default: mirrorRepo('sympy+sympy') },
    rev: { type: 'string', default: 'cffd4e0f86fe' },
    match: { type: 'string', default: 'sympy/sympy' },
    issues: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    'cache-dir': { type: 'string' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    top: { type: 'string', default: '10' },
    'lucene-dir': { type: 'string', default: '/usr/share/java' },
    work: { type: 'string' },
  },
});

const JAVA_SOURCE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench/peers/LucenePeer.java');

/** Why the bench cannot run here, or undefined. */
function missing(): string | undefined {
  if (!existsSync(args.issues!)) return `no issue file ${args.issues} (set ISSUELOC_DATA or --issues)`;
  if (!existsSync(args.repo!)) return `no repository ${args.repo} (set ISSUELOC_MIRRORS or --repo)`;
  for (const tool of ['java', 'javac']) {
    if (spawnSync(tool, ['-version'], { stdio: 'ignore', timeout: 30_000 }).status !== 0) return `no ${tool} on PATH (apt-get install default-jdk-headless)`;
  }
  const names = existsSync(args['lucene-dir']!) ? readdirSync(args['lucene-dir']!) : [];
  if (!luceneJars(names)) return `no Lucene 4 jars in ${args['lucene-dir']} (apt-get install liblucene4.10-java)`;
  if (!existsSync(JAVA_SOURCE)) return `no ${JAVA_SOURCE}`;
  return undefined;
}

/** Each document's fields as lines `path<TAB>name<TAB>body`, tokens by spaces, repeated by frequency. */
function exportDocuments(index: InvertedIndex): string {
  const F = index.fieldNames.length;
  const fields: string[][][] = Array.from({ length: index.docCount }, () => Array.from({ length: F }, () => []));
  for (let t = 0; t < index.termCount; t++) {
    const term = index.term(t);
    if (/\s/.test(term)) continue;
    const { doc, tf } = index.postings(t);
    for (let p = 0; p < doc.length; p++) {
      for (let f = 0; f < F; f++) for (let n = tf[p * F + f]; n > 0; n--) fields[doc[p]][f].push(term);
    }
  }
  return fields.map((fs) => fs.map((ts) => ts.join(' ')).join('\t')).join('\n') + '\n';
}

/** Times `run` over every query, `warmup` rounds uncounted then `rounds` counted. */
async function timeRounds<Q>(queries: readonly Q[], warmup: number, rounds: number, run: (q: Q) => unknown): Promise<QueryTime[]> {
  const times: QueryTime[] = [];
  for (let round = 0; round < warmup + rounds; round++) {
    for (const q of queries) {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      await run(q);
      const wallMs = performance.now() - w0;
      const c = process.cpuUsage(c0);
      if (round >= warmup) times.push({ wallMs, cpuMs: (c.user + c.system) / 1000 });
    }
  }
  return times;
}

async function main(): Promise<void> {
  const why = missing();
  if (why) {
    process.stdout.write(`peers: skipped: ${why}\n`);
    return;
  }
  const rounds = Number(args.rounds), warmup = Number(args.warmup), top = Number(args.top);
  const texts: string[] = readFileSync(args.issues!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    .filter((i: { repo: string }) => i.repo === args.match).map((i: { problem_statement: string }) => i.problem_statement);
  if (texts.length === 0) throw new Error(`no issue of ${args.match} in ${args.issues}`);
  const work = args.work ?? mkdtempSync(join(tmpdir(), 'issueloc-peers-'));
  mkdirSync(work, { recursive: true });
  try {
    const opened = await openIndex(args.repo!, { rev: args.rev, cacheDir: args['cache-dir'] });
    await opened.repo.close();
    const { codeIndex, commit } = opened;
    const lexical = new Localizer(codeIndex);
    const queries: QueryTerms[] = texts.map((t) => lexical.queryOf(parseIssue(t)));
    const bm25 = { ...DEFAULT_RANKING.bm25 };
    writeFileSync(join(work, 'docs.tsv'), exportDocuments(codeIndex.index));
    writeFileSync(join(work, 'queries.tsv'), queries.map(queryLine).join('\n') + '\n');

    const jars = luceneJars(readdirSync(args['lucene-dir']!))!;
    const cp = [join(args['lucene-dir']!, jars.core), join(args['lucene-dir']!, jars.analyzers)].join(':');
    const javac = spawnSync('javac', ['-nowarn', '-d', work, '-cp', cp, JAVA_SOURCE], { encoding: 'utf8', timeout: 300_000 });
    if (javac.status !== 0) throw new Error(`javac failed: ${javac.stderr.trim().split('\n')[0]}`);
    const java = spawnSync('java', ['-cp', `${work}:${cp}`, 'LucenePeer', join(work, 'docs.tsv'), join(work, 'queries.tsv'),
      String(rounds), String(warmup), String(top), String(bm25.k1), String(bm25.b), (bm25.weights as number[]).join(',')],
    { encoding: 'utf8', timeout: 1_800_000, maxBuffer: 256 << 20 });
    if (java.status !== 0) throw new Error(`Lucene failed: ${(java.stderr || String(java.error)).trim().split('\n')[0]}`);
    const lucene = parseLuceneOutput(java.stdout);

    const scorer = new Bm25fScorer(codeIndex.index, bm25);
    const rows = [{ name: 'issueloc bm25f (scorer + top k)', summary: summarise(await timeRounds(queries, warmup, rounds, (q) => topK(scorer.scoreAll(q), top))) }];
    for (const [name, model] of [['issueloc lexical (localize, model none)', 'none'], ['issueloc default (localize)', 'default']] as const) {
      const localizer = await openLocalizer({ repo: args.repo!, rev: commit, cacheDir: args['cache-dir'], model });
      try {
        await localizer.prepare();
        rows.push({ name, summary: summarise(await timeRounds(texts, warmup, rounds, (t) => localizer.localize(t, { rev: commit, top: 10 }))) });
      } finally {
        await localizer.close();
      }
    }
    process.stdout.write(`${args.match} at ${commit.slice(0, 12)}: ${codeIndex.index.docCount} function documents ` +
      `(Lucene indexed ${lucene.docs} in ${(lucene.indexMillis / 1000).toFixed(1)} s); ${texts.length} queries × ${rounds} rounds ` +
      `after ${warmup} warm-up rounds; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n\n`);
    process.stdout.write(ratioTable({ name: 'Lucene 4.10', summary: summarise(lucene.times) }, rows) + '\n');
  } finally {
    if (!args.work) rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`peers: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
