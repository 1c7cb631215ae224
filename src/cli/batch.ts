/**
 * `issueloc batch enqueue|worker|status|collect`: batch jobs (src/batch/) on BullMQ over Redis
 * with `--queue redis://HOST:PORT/N`, or, without `--queue`, run at once in this process on a
 * pool of worker threads. Options and output only.
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { Command, Option } from 'commander';
import type { ConnectionOptions } from 'bullmq';
import { IssuelocError } from '../errors.js';
import { JOB_KINDS, jobLabel, type BatchJob, type JobKind } from '../batch/job-spec.js';
import { planDatasetJobs, planEvalJobs, planIndexJobs, planLocalizeJobs } from '../batch/plan.js';
import { addToManifest, isDone, readManifest } from '../batch/results-folder.js';
import { runLocalBatch } from '../batch/local-batch.js';
import { batchStatus, statusLine } from '../batch/status.js';
import { collectResults } from '../batch/collect.js';
import { VARIANTS } from '../dataset/variants.js';
import { LEVELS } from '../pipeline/result-json.js';
import { PAPER_RETRIEVERS, parseRetrieverList } from '../retrieve/file-retrievers/registry.js';
import { progressBar } from '../util/progress-bar.js';
import { gitQuotePath, nonUtf8Argument } from '../util/raw-path.js';
import { indexOptions, parseIndexSettings, wholeOption } from './options.js';
import { onStopSignal } from './stop-signals.js';
import { requireParts } from '../util/optional-packages.js';
import { whyUnreadable } from '../util/file-errors.js';

const DEFAULT_RESULTS = 'issueloc-batch';

/** The options every batch command takes. */
function common(cmd: Command, queueRequired = false): Command {
  (queueRequired ? cmd.requiredOption('--queue <url>', 'the queue: redis://HOST:PORT/N') : cmd.option('--queue <url>', 'the queue: redis://HOST:PORT/N (default: none, run in this process)'))
    .option('--connect-timeout <seconds>', 'how long to wait for Redis to answer', wholeOption('--connect-timeout', 1, 600), 5);
  return cmd;
}

function resultsOption(cmd: Command): Command {
  return cmd.option('--results <dir>', 'results folder (a path every worker sees)', DEFAULT_RESULTS);
}

/** BullMQ and its Redis client, loaded only by the commands that use a queue (they cost every command's start-up). */
const redisQueue = () => {
  requireParts('batch --queue', 'batch --queue');
  return import('../batch/redis-queue.js');
};

async function connect(o: { queue?: string; connectTimeout: number }): Promise<ConnectionOptions | undefined> {
  return o.queue === undefined ? undefined : (await redisQueue()).checkRedis(o.queue, o.connectTimeout * 1000);
}

/**
 * Non-empty, non-comment lines of a list file, split on white space.
 * @throws IssuelocError naming `file:line` and the field, quoted as git quotes paths, when a field is not UTF-8.
 */
function listLines(path: string): string[][] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new IssuelocError(`cannot read ${path}: ${whyUnreadable(e)}`);
  }
  // latin1 keeps every byte as one character, so fields split on ASCII white space keep their bytes
  return bytes.toString('latin1').split('\n').map((l, i) => {
    const fields = l.replace(/#.*/, '').trim().split(/\s+/).filter((f) => f !== '').map((f) => Buffer.from(f, 'latin1'));
    const bad = fields.find((f) => !isUtf8(f));
    if (bad) throw new IssuelocError(`${path}:${i + 1}: ${gitQuotePath(bad)} is not UTF-8 (issueloc takes paths and names as UTF-8: rename it)`);
    return fields.map((f) => f.toString('utf8'));
  }).filter((fields) => fields.length > 0);
}

/** Refuses an option value that was not UTF-8 on the command line, naming its bytes (as git quotes them). */
function refuseNonUtf8Options(opts: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(opts)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      const raw = typeof v === 'string' ? nonUtf8Argument(v) : undefined;
      if (raw) throw new IssuelocError(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${gitQuotePath(raw)}: not a UTF-8 path (issueloc takes paths as UTF-8: rename it)`);
    }
  }
}

/** Enqueues (`--queue`) or runs in this process (no `--queue`) the jobs; prints one summary line. */
async function submit(jobs: BatchJob[], o: Record<string, unknown>): Promise<void> {
  const results = resolve(String(o.results));
  const fresh = addToManifest(results, jobs);
  const retry = { attempts: o.attempts as number, backoffMs: o.backoffMs as number };
  const connection = await connect(o as { queue?: string; connectTimeout: number });
  if (connection) {
    const done = jobs.filter((j) => isDone(results, j.id)).length;
    await (await redisQueue()).enqueueJobs(connection, jobs.filter((j) => !isDone(results, j.id)), retry);
    process.stdout.write(`enqueued ${jobs.length} jobs (${fresh} new to ${results}, ${done} already done) on ${String(o.queue)}\n`);
    return;
  }
  const bar = progressBar('batch', o.progress as boolean);
  const r = await runLocalBatch(jobs, { concurrency: o.concurrency as number, ...retry, onProgress: bar.update }).finally(() => bar.stop());
  process.stdout.write(`ran ${jobs.length} jobs in ${(r.millis / 1000).toFixed(1)} s: ${r.done} done, ${r.existing} already done, ${r.failed} failed; results in ${results}\n`);
  if (r.failed > 0) {
    process.stderr.write(`issueloc: ${r.failed} jobs failed: issueloc batch status --results ${results} lists their errors\n`);
    process.exitCode = 1;
  }
}

function enqueueCommand(parent: Command, name: JobKind, description: string): Command {
  const cmd = parent.command(name).description(description);
  resultsOption(common(cmd));
  return cmd
    .option('--concurrency <n>', 'without --queue: jobs at once (worker threads)', wholeOption('--concurrency', 1, 256), Math.max(1, Math.min(2, availableParallelism())))
    .option('--attempts <n>', 'attempts per job before it is parked as failed', wholeOption('--attempts', 1, 100), 3)
    .option('--backoff-ms <n>', 'first wait before a retry, doubled per retry (ms)', wholeOption('--backoff-ms', 0), 1000)
    .option('--no-progress', 'no progress bar on stderr');
}

function registerEnqueue(batch: Command): void {
  const enqueue = batch.command('enqueue').description('add jobs to a batch (with --queue), or run them here on a worker pool (without)');
  const index = enqueueCommand(enqueue, 'index', 'one job per commit: build its index (issueloc index)')
    .option('--repo <path>', 'git repository of --rev', '.')
    .option('--rev <revs...>', 'commits to index (any git revisions)')
    .option('--commits <file>', 'instead: a file of "REPO REV" lines');
  indexOptions(index).action(async (o) => {
    const commits = o.commits ? listLines(o.commits).map(([repo, rev]) => {
      if (!rev) throw new IssuelocError(`${o.commits}: each line needs REPO REV`);
      return { repo, rev };
    }) : (o.rev ?? []).map((rev: string) => ({ repo: o.repo, rev }));
    if (commits.length === 0) throw new IssuelocError('batch enqueue index: give --rev REV... or --commits FILE');
    await submit(await planIndexJobs(commits, o.results, { settings: parseIndexSettings(o), cacheDir: o.cacheDir }), o);
  });
  enqueueCommand(enqueue, 'dataset', 'one job per repository: mine its dataset (issueloc dataset build)')
    .requiredOption('--repos <file>', 'a file of "REPO ISSUE-FILE [JIRA-KEY,...]" lines')
    .option('--github', 'find GitHub references (#N, fixes #N)')
    .addOption(new Option('--variant <variant>', 'sample variant').choices([...VARIANTS]).default('first-commit'))
    .option('--functions', 'also fill positiveFunctions')
    .option('--rev <revs...>', 'revisions whose history is mined', ['HEAD'])
    .action(async (o) => {
      const rows = listLines(o.repos).map(([repo, issues, keys]) => {
        if (!issues) throw new IssuelocError(`${o.repos}: each line needs REPO ISSUE-FILE [KEYS]`);
        return { repo, issues, keys: keys ? keys.split(',').filter(Boolean) : [] };
      });
      if (rows.length === 0) throw new IssuelocError(`${o.repos}: no repositories listed`);
      await submit(await planDatasetJobs(rows, o.results, { github: o.github === true, variant: o.variant, functions: o.functions === true, revs: o.rev }), o);
    });
  enqueueCommand(enqueue, 'localize', 'jobs over shards of a JSONL of issues ({"id", "text" or "title"+"body", "rev"} a line)')
    .option('--repo <path>', 'git repository', '.')
    .requiredOption('--issues <file>', 'the JSONL of issues')
    .option('--rev <rev>', 'base commit of lines without "rev"', 'HEAD')
    .option('--shards <n>', 'jobs to split the issues into', wholeOption('--shards', 1, 100000), 1)
    .option('--top <n>', 'items per level', wholeOption('--top', 1), 10)
    .option('--cache-dir <path>', 'cache folder of the indexes')
    .addOption(new Option('--level <level>', 'which rankings each line holds (as localize --level)').choices([...LEVELS, 'all']).default('all'))
    .option('--model <model>', 'the learned model (as localize --model): default, none, repo, repo@REV or a file written by issueloc train')
    .action(async (o) => submit(await planLocalizeJobs(o.repo, o.issues, o.results, {
      shards: o.shards, top: o.top, rev: o.rev, cacheDir: o.cacheDir, level: o.level, model: o.model,
    }), o));
  enqueueCommand(enqueue, 'eval', 'jobs over shards of each dataset: evaluate the file retrievers (issueloc eval, paper settings)')
    .requiredOption('--dataset <files...>', 'dataset files')
    .option('--repo <path>', 'the git repository of the datasets')
    .option('--mirrors <dir>', 'instead of --repo: folder of fetched repositories')
    .option('--retrievers <list>', 'comma-separated: bm25f, tfidf, rvsm, lsi<k>', PAPER_RETRIEVERS.join(','))
    .addOption(new Option('--split <mode>', 'temporal or all').choices(['temporal', 'all']).default('temporal'))
    .option('--shards <n>', 'jobs per dataset (default 1)', wholeOption('--shards', 1, 100000))
    .option('--shard-size <k>', 'instead: one job per k rows of the dataset file', wholeOption('--shard-size', 1))
    .action(async (o) => submit(await planEvalJobs(o.dataset, o.results, {
      repo: o.repo, mirrors: o.mirrors, retrievers: parseRetrieverList(o.retrievers), split: o.split, shards: o.shards, shardSize: o.shardSize,
    }), o));
}

function registerWorker(batch: Command): void {
  common(batch.command('worker').description('run jobs from the queue until stopped (SIGTERM, SIGINT) or, with --until-empty, until none is left'), true)
    .option('--concurrency <n>', 'jobs at once (worker threads)', wholeOption('--concurrency', 1, 256), 1)
    .option('--until-empty', 'stop when nothing is waiting, delayed or running')
    .option('--lock-ms <n>', 'job lock lifetime without renewal (ms): a killed worker\'s job is retried after about this', wholeOption('--lock-ms', 100), 30000)
    .option('--stalled-ms <n>', 'how often stalled jobs are looked for (ms)', wholeOption('--stalled-ms', 100), 30000)
    .option('--redis-wait <seconds>', 'how long Redis may stay unreachable before the worker gives up (exit 2)', wholeOption('--redis-wait', 1, 86400), 60)
    .action(async (o) => {
      const connection = (await connect(o))!;
      const stop = new AbortController();
      const removeSignals = onStopSignal(() => stop.abort());
      try {
        await (await redisQueue()).runQueueWorker(connection, {
          concurrency: o.concurrency, untilEmpty: o.untilEmpty === true, lockMs: o.lockMs, stalledMs: o.stalledMs, signal: stop.signal,
          redisWaitMs: o.redisWait * 1000, url: o.queue,
          onRedis: (event, detail) => process.stderr.write(event === 'lost'
            ? `issueloc: lost redis at ${o.queue}: ${detail}; reconnecting (back-off up to 20 s), giving up after ${o.redisWait} s\n`
            : `issueloc: redis at ${o.queue} answers again\n`),
          onJob: (job, outcome, message) => process.stdout.write(`${outcome} ${jobLabel(job.spec)} (${job.id})${message ? `: ${message}` : ''}\n`),
        });
      } finally {
        removeSignals();
      }
    });
}

function registerStatus(batch: Command): void {
  resultsOption(common(batch.command('status').description('done / running / waiting / failed / missing jobs of a batch, with the last error of each failure')))
    .option('--wait', 'wait, with a progress bar, until every job is done or failed')
    .option('--timeout <seconds>', 'with --wait: give up after this long', wholeOption('--timeout', 1), 3600)
    .option('--json', 'one JSON object')
    .option('--no-progress', 'no progress bar on stderr')
    .action(async (o) => {
      const results = resolve(String(o.results));
      const connection = await connect(o);
      if (readManifest(results).length === 0) throw new IssuelocError(`${results}: no batch here (no batch.json)`);
      let s = await batchStatus(results, connection);
      if (o.wait) {
        const bar = progressBar('batch', o.progress);
        const end = Date.now() + o.timeout * 1000;
        try {
          while (s.counts.done + s.counts.failed < s.jobs.length && Date.now() < end && (connection || s.counts.missing === 0)) {
            bar.update(s.counts.done + s.counts.failed, s.jobs.length);
            await new Promise((r) => setTimeout(r, 500));
            s = await batchStatus(results, connection);
          }
        } finally {
          bar.stop();
        }
      }
      if (o.json) process.stdout.write(`${JSON.stringify(s)}\n`);
      else {
        process.stdout.write(`${statusLine(s)}\n`);
        for (const j of s.jobs) if (j.state === 'failed') process.stdout.write(`failed ${j.label} (${j.id}, ${j.attempts ?? '?'} attempts): ${j.error ?? 'no error recorded'}\n`);
      }
      if (s.counts.done < s.jobs.length) process.exitCode = 1;
    });
}

function registerCollect(batch: Command): void {
  resultsOption(batch.command('collect').description('join the results of the finished jobs into one file (refuses while jobs are missing)'))
    .requiredOption('-o, --out <file>', 'output JSONL (a dataset, index summaries, rankings, metrics; eval: results folders in <out>.eval/)')
    .option('--partial', 'collect what is finished and list the missing jobs in <out>.missing.jsonl')
    .addOption(new Option('--kind <kind>', 'which jobs, when the batch holds several kinds').choices([...JOB_KINDS]))
    .action((o) => {
      const c = collectResults(resolve(String(o.results)), resolve(String(o.out)), { partial: o.partial === true, kind: o.kind as JobKind | undefined });
      process.stdout.write(`collected ${c.collected} of ${c.jobs} ${c.kind} jobs (${c.lines} lines) into ${o.out}${c.resultsFolder ? `, results folders in ${c.resultsFolder}` : ''}${c.missingFile ? `; missing jobs in ${c.missingFile}` : ''}\n`);
      if (c.missing.length > 0) process.stderr.write(`issueloc: warning: ${c.missing.length} of ${c.jobs} jobs have no usable result (--partial)\n`);
      for (const m of c.missing.filter((x) => x.reason !== 'no result').slice(0, 10)) process.stderr.write(`issueloc: warning: ${m.label} (${m.id}): ${m.reason}\n`);
    });
}

/** Registers `batch enqueue|worker|status|collect`. */
export function registerBatchCommands(program: Command): void {
  const batch = program.command('batch').description('batch jobs (datasets, indexes, localisation, evaluation) on a Redis queue or a local worker pool');
  batch.hook('preAction', (_, action) => refuseNonUtf8Options(action.opts()));
  registerEnqueue(batch);
  registerWorker(batch);
  registerStatus(batch);
  registerCollect(batch);
}
