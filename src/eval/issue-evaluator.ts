/**
 * Evaluates issues one after another against their a-priori states: list the state's files
 * (cached trees), build its corpus from cached blob term counts, index it with every retriever,
 * score the issue, rank, and compute the metrics. Used in the main thread and in worker threads
 * alike (`eval-worker.ts`); everything it needs crosses a thread boundary as plain data.
 */
import { GitRepo } from '../repo/git.js';
import { createFileRetriever, type RetrieverSettings } from '../retrieve/file-retrievers/registry.js';
import { rankFiles, type FileRetriever, type QueryTerms } from '../retrieve/file-retrievers/types.js';
import { DEFAULT_METRICS, evaluateQuery, type MetricValues } from '../metrics/ranking-metrics.js';
import { StateCorpusBuilder, type SkippedFiles } from './state-corpus.js';
import { candidateFileFilter } from '../dataset/source-files.js';
import { commitInfo, stateFiles } from './state-files.js';
import { tokenizerFor, type TextSettings } from './text-settings.js';

/** Settings of an evaluation run that every thread needs. */
export interface LoopSettings {
  readonly retrievers: readonly string[];
  readonly retrieverSettings: RetrieverSettings;
  readonly text: TextSettings;
  readonly includeTests: boolean;
  readonly maxFileBytes?: number;
  /** Ranked files kept per issue for the TREC run (default 1000). */
  readonly runDepth: number;
  /** Metrics computed per issue (default {@link DEFAULT_METRICS}). */
  readonly metrics?: readonly string[];
}

/** One issue to evaluate. */
export interface IssueTask {
  readonly id: string;
  /** The repository of the issue (work tree or bare). */
  readonly repoPath: string;
  readonly aprioriCommit: string;
  readonly queryText: string;
  readonly positives: readonly string[];
}

/** One retriever's result on one issue. */
export interface RetrieverOutcome {
  readonly retriever: string;
  /** Files in the ranking (all candidates for LSI; those sharing a term with the issue otherwise). */
  readonly retrieved: number;
  /** Sorted 1-based ranks of the positives found in the ranking. */
  readonly positiveRanks: readonly number[];
  /** Metric values (null for every metric when the issue has no positive). */
  readonly values: MetricValues;
  /** The first `runDepth` files: ids and scores, best first. */
  readonly ranking: readonly { id: string; score: number }[];
}

/** Everything one issue produced. */
export interface IssueOutcome {
  readonly id: string;
  /** Files in the corpus (candidates minus binary, missing and too-large blobs). */
  readonly corpusSize: number;
  readonly skippedFiles: SkippedFiles;
  /** Positives whose blob could not be indexed (binary, missing, too large): not counted. */
  readonly positivesNotIndexed: readonly string[];
  /** Positives used for the metrics. */
  readonly positives: readonly string[];
  readonly results: readonly RetrieverOutcome[];
}

/** Time spent, milliseconds, summed over issues. */
export interface LoopTimings {
  /** Listing states (commit and tree objects). */
  listMillis: number;
  /** Reading blobs. */
  readMillis: number;
  /** Tokenizing blobs and assembling corpora. */
  tokenizeMillis: number;
  /** `index()` of every retriever (incl. LSI fits), per retriever. */
  indexMillis: Record<string, number>;
  /** Query tokenizing, `score()`, ranking and metrics, per retriever. */
  scoreMillis: Record<string, number>;
}

interface RepoContext {
  readonly repo: GitRepo;
  readonly builder: StateCorpusBuilder;
}

/**
 * Evaluates issues one by one (see the module comment). Repositories are opened on first use and
 * each keeps its own tree and blob caches; call {@link close} when done.
 */
export class IssueEvaluator {
  readonly timings: LoopTimings = { listMillis: 0, readMillis: 0, tokenizeMillis: 0, indexMillis: {}, scoreMillis: {} };
  private readonly repos = new Map<string, Promise<RepoContext>>();
  private readonly retrievers: FileRetriever[];
  private readonly tokenizer;
  private readonly isCandidate: (path: string) => boolean;

  /** @throws IssuelocError for an unknown retriever name. */
  constructor(private readonly settings: LoopSettings) {
    this.tokenizer = tokenizerFor(settings.text);
    this.isCandidate = candidateFileFilter(settings.includeTests);
    this.retrievers = settings.retrievers.map((r) => createFileRetriever(r, settings.retrieverSettings));
    for (const r of this.retrievers) {
      this.timings.indexMillis[r.name] = 0;
      this.timings.scoreMillis[r.name] = 0;
    }
  }

  private context(repoPath: string): Promise<RepoContext> {
    let c = this.repos.get(repoPath);
    if (!c) {
      c = GitRepo.open(repoPath).then((repo) => ({
        repo,
        builder: new StateCorpusBuilder(repo, this.tokenizer, { maxFileBytes: this.settings.maxFileBytes }),
      }));
      this.repos.set(repoPath, c);
    }
    return c;
  }

  /**
   * Evaluates one issue.
   * @throws IssuelocError when the a-priori commit or one of its trees is missing (callers check
   *   records first with `prepareIssues`).
   */
  async evaluate(task: IssueTask): Promise<IssueOutcome> {
    const { repo, builder } = await this.context(task.repoPath);
    let t = performance.now();
    const commit = await commitInfo(repo, task.aprioriCommit);
    if (!commit) throw new Error(`a-priori commit ${task.aprioriCommit} of issue ${task.id} disappeared`);
    const files = (await stateFiles(repo, commit)).filter((f) => this.isCandidate(f.path));
    this.timings.listMillis += performance.now() - t;
    const before = { ...builder.timings };
    const { corpus, skipped } = await builder.corpus(files);
    this.timings.readMillis += builder.timings.readMillis - before.readMillis;
    this.timings.tokenizeMillis += builder.timings.tokenizeMillis - before.tokenizeMillis
      + builder.timings.assembleMillis - before.assembleMillis;
    const indexed = new Set(corpus.ids);
    const positives = task.positives.filter((p) => indexed.has(p));
    const positivesNotIndexed = task.positives.filter((p) => !indexed.has(p));
    const query: QueryTerms = termCounts(this.tokenizer.tokenize(task.queryText));
    const metrics = this.settings.metrics ?? DEFAULT_METRICS;
    const results: RetrieverOutcome[] = [];
    for (const r of this.retrievers) {
      t = performance.now();
      r.index(corpus);
      const t1 = performance.now();
      this.timings.indexMillis[r.name] += t1 - t;
      const ranking = rankFiles(corpus, r.score(query), r.retrievesAll);
      const ev = evaluateQuery(ranking.map((x) => x.id), positives, metrics);
      results.push({
        retriever: r.name,
        retrieved: ranking.length,
        positiveRanks: ev.positiveRanks,
        values: ev.values,
        ranking: ranking.slice(0, this.settings.runDepth),
      });
      this.timings.scoreMillis[r.name] += performance.now() - t1;
    }
    return { id: task.id, corpusSize: corpus.ids.length, skippedFiles: skipped, positivesNotIndexed, positives, results };
  }

  /** Counters of each retriever that has any (LSI: fits, reuses, …), and of the blob caches. */
  async stats(): Promise<Record<string, Record<string, number>>> {
    const out: Record<string, Record<string, number>> = {};
    for (const r of this.retrievers) if (r.stats) out[r.name] = r.stats();
    const blobs = { blobsRead: 0, blobHits: 0, cached: 0, trees: 0, terms: 0, repositories: 0 };
    for (const c of this.repos.values()) {
      const { builder, repo } = await c;
      blobs.blobsRead += builder.counters.blobsRead;
      blobs.blobHits += builder.counters.blobHits;
      blobs.cached += builder.cachedBlobs;
      blobs.trees += repo.parsedTrees;
      blobs.terms += builder.vocabulary.size;
      blobs.repositories++;
    }
    out.blobs = blobs;
    return out;
  }

  /** Stops the repositories' git processes. */
  async close(): Promise<void> {
    for (const c of this.repos.values()) await (await c.catch(() => null))?.repo.close();
    this.repos.clear();
  }
}

/** Term → count of a token list. */
export function termCounts(tokens: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}
