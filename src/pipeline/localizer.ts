/**
 * The library facade: {@link openLocalizer} opens a repository with the stages asked for, and
 * {@link IssueLocalizer.localize} ranks the files, modules and functions an issue needs changed
 * at a base commit. The CLI (`issueloc localize`) and the benches are callers of it.
 */
import { IssuelocError } from '../errors.js';
import type { Embedder } from '../embed/embedder.js';
import { openEmbedder } from '../embed/spec.js';
import { RepoHistory } from '../history/repo-history.js';
import { openCommitHistory, type CommitHistory } from '../history/commit-history.js';
import { historyFieldScores } from '../history/history-field.js';
import { historyEvidenceRead } from '../ltr/features/history.js';
import { cacheDirFor } from '../index/cache-dir.js';
import { cacheMaxBytes } from '../index/cache-usage.js';
import type { CodeIndex, IndexSettings } from '../index/code-index.js';
import { indexCommit } from '../index/index-commit.js';
import type { ChatModel } from '../llm-rerank/chat-model.js';
import type { ListwiseOptions, ListwiseReranker, RerankStats } from '../llm-rerank/listwise.js';
import { presetListwise, RERANK_PRESETS, splitRerankSpec, type RerankPreset, type RerankPresetName } from '../llm-rerank/presets.js';
import { RankingModel } from '../ltr/model.js';
import type { HistoryEvidence } from '../ltr/features/evidence.js';
import { GitRepo } from '../repo/git.js';
import type { FusionOptions } from '../retrieve/fusion.js';
import type { RankingOptions } from '../retrieve/localize.js';
import type { Localization } from '../retrieve/rollup.js';
import { DEFAULT_TITLE_WEIGHT } from '../retrieve/query.js';
import type { IssueSignals } from '../text/issue-signals.js';
import { hasNonAsciiLetter, parseIssue, type ParsedIssue, type ParsedIssueFormat } from '../text/parsed-issue.js';
import { CorruptCacheFileError } from '../util/checked-file.js';
import { Deadline } from '../util/deadline.js';
import { DEFAULT_RETRY } from '../util/http-json.js';
import { CommitChain } from './commit-chain.js';
import { checkChain, CLI_STAGE_NAMES, rankingOptionsSet, type StageName } from './stages.js';
import { checkLocalizeCall, checkLocalizerOptions } from './check-options.js';
import { guardedChatModel, guardedEmbedder } from './guarded-backends.js';

/** How an endpoint (embedder or LLM) is called. */
export interface EndpointOptions {
  /** Milliseconds one call may take in all, retries and back-off included (default 30 000). */
  timeoutMs?: number;
  /** Retries after a rate limit, server error, timeout or refused connection (default 2). */
  retries?: number;
  /** Environment variable holding the API key of `openai:` endpoints (default OPENAI_API_KEY). */
  apiKeyEnv?: string;
}

/** Options of {@link openLocalizer}: the repository, the index, and the stages of the chain. */
export interface LocalizerOptions {
  /** Path of a git repository (work tree or bare). */
  repo: string;
  /** Base commit of {@link IssueLocalizer.localize} calls that name none (any git revision; default HEAD). */
  rev?: string;
  /** Cache folder (default: ISSUELOC_CACHE_DIR, else `~/.cache/issueloc/<name>-<hash>`, outside the work tree). */
  cacheDir?: string;
  /** Size cap of the cache folder in bytes (default: ISSUELOC_CACHE_MAX_SIZE, else 2 GiB). */
  maxCacheBytes?: number;
  /** What is indexed (languages, tests, stemming, size caps); defaults DEFAULT_INDEX_SETTINGS. */
  index?: Partial<IndexSettings>;
  /**
   * Lexical stage: BM25F+ parameters, file prior, signal and title weights (defaults
   * DEFAULT_RANKING), refused with `model`; and the placement rules after every stage
   * (`nonSource`, `peripheral`, `coChange`: src/retrieve/placements.ts), taken with any stage.
   */
  ranking?: RankingOptions;
  /**
   * Dense stage: a bi-encoder, `onnx:<model folder>`, `openai:<url>#<model>`, `none`, or an
   * {@link Embedder}. A spec may start with a preset that sets the model's prefixes, pooling,
   * normalisation and token limit (src/embed/presets.ts): `coderankembed:`, `swerankembed-small:`,
   * `swerankembed-large:`, or `generic:` (none); without one, the preset the served model name or
   * the model folder names is used (`openai:…#nomic-ai/CodeRankEmbed` → `coderankembed`).
   */
  embedder?: string | Embedder;
  /** How lexical and dense scores combine (default `rrf`); needs `embedder`. */
  fusion?: FusionOptions['method'];
  /** Text put before the issue when embedding it (default: the preset's, else the model folder's query prompt); needs `embedder`. */
  queryPrefix?: string;
  /** Text put before each function when embedding it (default: the preset's, else the model folder's document prompt); needs `embedder`. */
  documentPrefix?: string;
  embedderEndpoint?: EndpointOptions;
  /**
   * Learned-model stage: `default` (the built-in model), a model file written by `issueloc train`,
   * a loaded model, `repo` / `repo@REV`: the built-in model adapted to this repository's own
   * history before the base commit (`repo`) or before REV, an ancestor of every base commit asked
   * (`issueloc adapt`; trained on first use and kept in the cache, src/ltr/adapted-models.ts), or
   * `none`: the lexical ranking alone. Default: `default`, unless `ranking` settings or an
   * `embedder` set up the lexical or dense stage themselves (a model brings its own candidates'
   * settings and cannot follow dense fusion): then `none` ({@link modelOf}).
   */
  model?: string | RankingModel;
  /** Rerank stage: `openai:<url>#<model>`, `gguf:<model file>`, `none`, or a {@link ChatModel}. */
  reranker?: string | ChatModel;
  /**
   * Listwise settings (top K, window, stride, mode: the preset's by default, SweRank's 100 / 10 / 5;
   * `contextTokens`: the model's context window for servers that do not report it, such as
   * Ollama, and the context a `gguf:` model is loaded with; default: the backend's, else the
   * preset's, 32 768 for swerankllm); needs `reranker`. `preset` (`generic`, `swerankllm`;
   * src/llm-rerank/presets.ts) names the conventions of a chat model object; a spec string names
   * its own (`swerankllm:openai:…`).
   */
  rerank?: Partial<Pick<ListwiseOptions, 'top' | 'window' | 'stride' | 'mode' | 'contextTokens'>> & { preset?: RerankPresetName };
  rerankerEndpoint?: EndpointOptions;
  /** Milliseconds each issue's embedding and reranking may take; past it the best ranking so far is returned, with a warning. */
  deadlineMs?: number;
  /** Issue texts longer than this many UTF-8 bytes are refused (default 1 MiB, `DEFAULT_MAX_ISSUE_BYTES`). */
  maxIssueBytes?: number;
  /** Progress of long steps: indexing a commit, reading the git history (once per repository, then cached), embedding its functions (done, total). */
  onProgress?: (step: 'index' | 'history' | 'embed' | 'adapt', done: number, total: number) => void;
  /**
   * Where fallbacks are reported, one line each (endpoint retries, a failing embedder that
   * leaves lexical ranking, a rerank window that keeps the retriever's order). Default: none.
   */
  onWarning?: (message: string) => void;
  /**
   * The names the caller gave its settings under, for refusals (the CLI passes its flags, e.g.
   * `{ ranking: ['--k1'], dense: ['--fusion'] }`; `endpoint`: settings that need the dense or
   * the rerank stage, e.g. `--deadline`); with it, refusals name the stages by the CLI's flags
   * (`--embedder`, `--model`, `--rerank`). Default: the option names above.
   */
  settingNames?: { ranking?: readonly string[]; dense?: readonly string[]; rerank?: readonly string[]; endpoint?: readonly string[] };
}

/** Options of one {@link IssueLocalizer.localize} call. */
export interface LocalizeCallOptions {
  /** Items per level (default 10). */
  top?: number;
  /** Base commit (default: the localizer's `rev`). */
  rev?: string;
  /** Matched terms listed per item, with the signals that raised it (default 8; 0 = none, faster). */
  matchedTermsPerItem?: number;
  /** The form the issue text was read from (`issueloc localize --issue-format`; default `text`): kept with the parsed issue. */
  format?: ParsedIssueFormat;
}

/** What the index of the base commit is, and how it was had. */
export interface IndexInfo {
  commit: string;
  /**
   * true when this call built it; false when it was loaded from the cache, or was already loaded
   * by an earlier call of the same localizer (`prepare` included: then `millis` is 0).
   */
  built: boolean;
  /** Milliseconds this call spent loading or building it. */
  millis: number;
  /** Function-level documents, files indexed, and files skipped by reason (too large, binary …). */
  documents: number;
  files: number;
  skipped: Record<string, number>;
}

/** One issue's rankings at one base commit. */
export interface LocalizeResult extends Localization {
  /** The base commit (full SHA). */
  commit: string;
  /** The stages that ran, in order (a dense stage skipped after a failure is absent). */
  stages: StageName[];
  /** What the issue text was read as: stack frames, paths, dotted names, names in code. */
  signals: IssueSignals;
  /** Reranking cost, when the rerank stage ran. */
  rerank?: RerankStats;
  index: IndexInfo;
  /** Milliseconds of the query (stages only; indexing in `index.millis`). */
  millis: number;
  /**
   * Milliseconds of setting up the stages at this base commit on its first query (embedding its
   * functions, reading the git history for a model); 0 on later queries of the same commit.
   */
  setupMillis: number;
}

/** Which embedder the dense stage uses, for reports (`--json`). */
export interface EmbedderInfo {
  /** The backend and its URL + model or its folder. */
  name: string;
  /** The preset applied (null: the generic case), and whether it was picked from the model's name rather than named. */
  preset: string | null;
  presetPicked: boolean;
}

/** A repository opened for localisation; {@link close} it when done. */
export interface IssueLocalizer {
  /** The stages every call runs (a dense stage may still be skipped for one issue, with a warning). */
  readonly stages: readonly StageName[];
  /** The dense stage's embedder, when there is one. */
  readonly embedderInfo?: EmbedderInfo;
  /** The resolved cache folder. */
  readonly cacheDir: string;
  /**
   * Ranks the files, modules and functions that `issueText` (title on the first line, then the
   * body) needs changed at the base commit, best first.
   * @throws IssuelocError (exit 2) for an issue text without a searchable word, an unknown revision.
   */
  localize(issueText: string, opts?: LocalizeCallOptions): Promise<LocalizeResult>;
  /**
   * Indexes a base commit (from the cache when there) without querying it.
   * @param opts.signal abandons a build when aborted (nothing saved; rejects with its reason).
   * @param opts.stages also opens what the first query of the commit would (the history signals
   *   the model reads, a dense index), so that query pays only itself (the signal stops the index build only).
   */
  prepare(rev?: string, opts?: { signal?: AbortSignal; stages?: boolean }): Promise<IndexInfo>;
  /** Closes git, the embedder and the LLM. */
  close(): Promise<void>;
}

/**
 * Opens a repository for issue localisation with the stages the options name, chained as
 * lexical → dense fusion → learned model → LLM rerank (src/pipeline/stages.ts).
 *
 * @example
 * const localizer = await openLocalizer({ repo: '.' }); // the built-in model; model: 'none' for the lexical ranking
 * try {
 *   const { files, functions } = await localizer.localize('Crash in parse_date\nparse_date("") raises IndexError');
 *   console.log(files[0]?.id, functions[0]?.id);
 * } finally {
 *   await localizer.close();
 * }
 * @throws IssuelocError (exit 2) for a combination of stages that is not a chain, a bad stage
 *   setting, a path that is not a git repository, an unreadable model file, a missing model
 *   folder or optional package.
 */
export async function openLocalizer(options: LocalizerOptions): Promise<IssueLocalizer> {
  checkLocalizerOptions(options);
  const names = options.settingNames ?? {};
  const denseSettings = names.dense ?? (['fusion', 'queryPrefix', 'documentPrefix', 'embedderEndpoint'] as const).filter((k) => options[k] !== undefined);
  const rerankSettings = names.rerank ?? (['rerank', 'rerankerEndpoint'] as const).filter((k) => options[k] !== undefined);
  const wantsDense = options.embedder !== undefined && options.embedder !== 'none';
  const wantsRerank = options.reranker !== undefined && options.reranker !== 'none';
  const rankingSettings = names.ranking ?? rankingOptionsSet(options.ranking);
  options = { ...options, model: modelOf(options.model, rankingSettings.length > 0 || wantsDense) };
  const stages = checkChain({
    rankingSettings,
    dense: wantsDense, model: options.model !== undefined, rerank: wantsRerank,
    denseSettings, rerankSettings, endpointSettings: names.endpoint ?? (options.deadlineMs !== undefined ? ['deadlineMs'] : []),
    stageNames: options.settingNames ? CLI_STAGE_NAMES : { dense: 'embedder', model: 'model', rerank: 'reranker' },
  });
  const { preset: _preset, contextTokens, ...overrides } = options.rerank ?? {};
  const listwise = wantsRerank ? presetListwise(rerankPreset(options), overrides, options.settingNames ? '--rerank-mode' : 'rerank.mode') : undefined;
  const model = typeof options.model === 'string' ? (repoModelRev(options.model) === undefined ? RankingModel.load(options.model) : undefined) : options.model;
  const repo = await GitRepo.open(options.repo);
  const cacheDir = cacheDirFor(repo, options.cacheDir);
  const warn = options.onWarning ?? (() => {});
  let embedder: Embedder | undefined;
  let reranker: ListwiseReranker | undefined;
  try {
    embedder = await openEmbedderStage(options, warn);
    if (embedder && typeof options.embedder !== 'string') embedder = guardedEmbedder(embedder, options.embedderEndpoint?.timeoutMs ?? DEFAULT_RETRY.budgetMs);
    // the rerank stage's modules (and the adapted models' below) loaded only when asked for
    const chat = typeof options.reranker === 'string'
      ? await (await import('../llm-rerank/spec.js')).openChatModel(options.reranker, {
        cacheDir, onRetry: retryWarning(warn),
        apiKeyEnv: options.rerankerEndpoint?.apiKeyEnv,
        timeoutMs: options.rerankerEndpoint?.timeoutMs ?? DEFAULT_RETRY.budgetMs,
        retries: options.rerankerEndpoint?.retries ?? DEFAULT_RETRY.retries,
        contextTokens: options.rerank?.contextTokens,
      })
      : options.reranker && guardedChatModel(options.reranker, options.rerankerEndpoint?.timeoutMs ?? DEFAULT_RETRY.budgetMs);
    if (chat && listwise) reranker = new (await import('../llm-rerank/listwise.js')).ListwiseReranker(chat, { ...listwise, contextTokens, onWarning: warn });
  } catch (e) {
    await embedder?.close?.();
    await repo.close();
    throw e;
  }
  return new OpenedLocalizer(options, stages, repo, cacheDir, embedder, reranker, model);
}

/**
 * The learned model a localizer runs (see {@link LocalizerOptions.model}): the one named, none
 * for `none`, and when none is named the built-in model, unless the lexical or dense stage is
 * set up by options (`lexicalOrDense`), which then stand alone.
 */
export function modelOf(model: string | RankingModel | undefined, lexicalOrDense: boolean): string | RankingModel | undefined {
  if (model === 'none') return undefined;
  return model ?? (lexicalOrDense ? undefined : 'default');
}

/**
 * The reranker preset the options name: the spec's (`swerankllm:openai:…`) or `rerank.preset`
 * (for a chat model object), else `generic`.
 * @throws IssuelocError (exit 2) for an unknown preset, or a spec and `rerank.preset` that disagree.
 */
function rerankPreset(options: Pick<LocalizerOptions, 'reranker' | 'rerank'>): RerankPreset {
  const fromSpec = typeof options.reranker === 'string' ? splitRerankSpec(options.reranker).preset : undefined;
  const given = options.rerank?.preset;
  if (fromSpec && given && fromSpec !== given) throw new IssuelocError(`rerank.preset '${given}' differs from the reranker spec's preset '${fromSpec}'`);
  return RERANK_PRESETS[fromSpec ?? given ?? 'generic'];
}

/** Endpoint retries as warnings. */
function retryWarning(warn: (m: string) => void) {
  return (attempt: number, reason: string, waitMs: number, url: string) => warn(`${url}: retry ${attempt} in ${waitMs} ms: ${reason}`);
}

/**
 * The dense stage's bi-encoder the options name (undefined for none): a spec is opened (an
 * `onnx:` folder loaded, an `openai:` endpoint set up with its timeout, retries and key), an
 * {@link Embedder} object is used as it is.
 * @param warn told of endpoint retries.
 * @throws IssuelocError for a malformed spec, a missing model folder or optional package.
 */
export async function openEmbedderStage(
  options: Pick<LocalizerOptions, 'embedder' | 'queryPrefix' | 'documentPrefix' | 'embedderEndpoint'>,
  warn: (message: string) => void = () => {},
): Promise<Embedder | undefined> {
  if (typeof options.embedder !== 'string') return options.embedder;
  return openEmbedder(options.embedder, {
    prefixes: { query: options.queryPrefix, document: options.documentPrefix },
    apiKeyEnv: options.embedderEndpoint?.apiKeyEnv, onRetry: retryWarning(warn), onWarning: warn,
    timeoutMs: options.embedderEndpoint?.timeoutMs ?? DEFAULT_RETRY.budgetMs,
    retries: options.embedderEndpoint?.retries ?? DEFAULT_RETRY.retries,
  });
}

/**
 * Refuses an issue text that cannot match anything (only stop words and punctuation).
 * @param source names where the text came from in the message (e.g. `--issue-file x.md`).
 * @throws IssuelocError (exit 2).
 */
export function checkIssueText(text: string, opts: { stem?: boolean; source?: string } = {}): void {
  checkParsedIssue(parseIssue(text), opts);
}

/** {@link checkIssueText} of an issue already read. */
function checkParsedIssue(issue: ParsedIssue, opts: { stem?: boolean; source?: string } = {}): void {
  if (issue.queryTerms({ stem: opts.stem ?? false, titleWeight: DEFAULT_TITLE_WEIGHT }).size === 0) {
    const what = hasNonAsciiLetter(issue.text)
      ? 'only stop words, punctuation and letters outside A-Z (words are searched as code spells them: ASCII letters and digits)'
      : 'only stop words and punctuation';
    throw new IssuelocError(`issue text${opts.source ? ` (from ${opts.source})` : ''} has no searchable word: ${what}`);
  }
}

/**
 * For a `repo` or `repo@REV` model spec: the revision it adapts at (`''` for the base commit
 * itself); undefined for any other spec.
 * @throws IssuelocError for `repo@` without a revision.
 */
export function repoModelRev(spec: string): string | undefined {
  if (spec === 'repo') return '';
  if (!spec.startsWith('repo@')) return undefined;
  const rev = spec.slice(5);
  if (rev === '') throw new IssuelocError("model 'repo@' needs a revision: repo@REV (or 'repo' for the base commit)");
  return rev;
}

/** The facade's state: the repository, the opened stages, and the chain of the last base commit. */
class OpenedLocalizer implements IssueLocalizer {
  private current: { commit: string; codeIndex: CodeIndex; info: IndexInfo; reported?: boolean; chain?: CommitChain } | undefined;
  private history: RepoHistory | undefined;
  /** Models adapted to this repository, by the commit they were adapted at. */
  private readonly adapted = new Map<string, RankingModel>();
  private closed = false;
  /** The calls in flight, one after the other: they share the chain of one base commit. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly maxCacheBytes: number;
  private readonly stem: boolean;
  readonly embedderInfo?: EmbedderInfo;

  constructor(
    private readonly options: LocalizerOptions,
    readonly stages: readonly StageName[],
    private readonly repo: GitRepo,
    readonly cacheDir: string,
    private readonly embedder: Embedder | undefined,
    private readonly reranker: ListwiseReranker | undefined,
    private readonly model: RankingModel | undefined,
  ) {
    this.maxCacheBytes = options.maxCacheBytes ?? cacheMaxBytes();
    this.stem = options.index?.stem ?? false;
    if (embedder) this.embedderInfo = { name: embedder.name ?? embedder.id, preset: embedder.preset?.name ?? null, presetPicked: embedder.preset?.picked ?? false };
  }

  prepare(rev?: string, opts: { signal?: AbortSignal; stages?: boolean } = {}): Promise<IndexInfo> {
    if (rev !== undefined && (typeof rev !== 'string' || rev === '')) return Promise.reject(new IssuelocError(`rev must be a non-empty string, got ${String(rev)}`));
    return this.serialized(() => this.onIndex(rev, opts.signal, async (at) => {
      if (opts.stages) {
        opts.signal?.throwIfAborted();
        await this.chainOf(at, undefined);
      }
      return reportedInfo(at);
    }));
  }

  /**
   * Runs `work` on the index at `rev`. A loaded index reads its term records when a query first
   * needs them: a corrupt block found then (CorruptCacheFileError: its one warning given, the
   * file removed) drops the index and the stages opened on it, the index is rebuilt, and `work`
   * runs once more on it; a second corrupt block is thrown (at most one rebuild per call).
   */
  private async onIndex<T>(rev: string | undefined, signal: AbortSignal | undefined, work: (at: NonNullable<OpenedLocalizer['current']>) => Promise<T>): Promise<T> {
    const at = await this.indexAt(rev, signal);
    try {
      return await work(at);
    } catch (e) {
      if (!(e instanceof CorruptCacheFileError)) throw e;
      if (this.current === at) this.current = undefined;
      return work(await this.indexAt(rev, signal));
    }
  }

  /** Runs `work` after the calls before it (refused once closed). */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new IssuelocError('this localizer is closed: open another with openLocalizer'));
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async indexAt(rev = this.options.rev ?? 'HEAD', signal?: AbortSignal) {
    // a full SHA of the commit at hand is checked in the object store (a history rewrite and gc
    // drop commits: a fresh process would refuse it), with no git process while its files tell;
    // any other name is resolved each time (HEAD moves)
    const atHand = this.current && rev.toLowerCase() === this.current.commit && await this.repo.hasCommit(this.current.commit);
    const commit = atHand ? this.current!.commit : await this.repo.resolveCommit(rev);
    if (this.current?.commit === commit) return this.current;
    const t0 = performance.now();
    const { codeIndex, built } = await indexCommit(this.repo, commit, {
      cacheDir: this.cacheDir, settings: this.options.index, maxCacheBytes: this.maxCacheBytes, signal,
      // a full or read-only cache: the answer from the index in memory, with a warning
      answerUnsaved: true, onWarning: this.options.onWarning,
      onProgress: this.options.onProgress && ((done, total) => this.options.onProgress!('index', done, total)),
    });
    const info: IndexInfo = {
      commit, built, millis: performance.now() - t0,
      documents: codeIndex.table.length, files: codeIndex.stats.files, skipped: codeIndex.stats.skipped,
    };
    this.current = { commit, codeIndex, info };
    return this.current;
  }

  private async chainOf(at: NonNullable<OpenedLocalizer['current']>, deadline: Deadline | undefined): Promise<CommitChain> {
    if (at.chain) return at.chain;
    const o = this.options;
    const model = await this.modelAt(at.commit);
    let history: ((issue: ParsedIssue) => HistoryEvidence) | undefined;
    // only the evidence the model's features read (the built-in model reads no history field)
    const reads = model && model.file.training?.history !== false ? historyEvidenceRead(model.reads) : undefined;
    if (reads && (reads.files || reads.messageScores || reads.fieldScores)) {
      // files and message scores from the commit's stored signals; the history field from the whole log
      const c = reads.files || reads.messageScores ? await this.commitHistoryAt(at.commit) : undefined;
      const h = reads.fieldScores ? await this.historyAt(at.commit) : undefined;
      history = (issue) => ({
        ...(reads.files ? { files: c!.files } : {}),
        ...(reads.messageScores ? { messageScores: c!.messageScores(issue) } : {}),
        ...(reads.fieldScores ? { fieldScores: historyFieldScores(h!, at.commit, issue) } : {}),
      });
    }
    at.chain = await CommitChain.open(this.repo, at.codeIndex, {
      ranking: model ? model.candidates.ranking : o.ranking,
      placement: { nonSource: o.ranking?.nonSource, peripheral: o.ranking?.peripheral, coChange: o.ranking?.coChange },
      embedder: this.embedder, fusion: o.fusion !== undefined ? { method: o.fusion } : {},
      model, history, reranker: this.reranker, cacheDir: this.cacheDir,
      onProgress: o.onProgress && ((done, total) => o.onProgress!('embed', done, total)),
      onWarning: o.onWarning ?? (() => {}), deadline,
    });
    return at.chain;
  }

  /**
   * The model of the learned stage at base commit `commit`: the one given, or for `repo` /
   * `repo@REV` the model adapted at the commit or at REV (which must be its ancestor), from the
   * cache or trained now.
   */
  private async modelAt(commit: string): Promise<RankingModel | undefined> {
    const rev = typeof this.options.model === 'string' ? repoModelRev(this.options.model) : undefined;
    if (rev === undefined) return this.model;
    const base = rev === '' ? commit : await this.repo.resolveCommit(rev);
    if (base !== commit) {
      const res = await this.repo.exec(['merge-base', '--is-ancestor', base, commit]);
      if (res.code !== 0) {
        throw new IssuelocError(`model repo@${rev}: ${base.slice(0, 12)} is not an ancestor of the base commit ${commit.slice(0, 12)} (an adapted model may learn only from the base commit's past)`);
      }
    }
    let model = this.adapted.get(base);
    if (!model) {
      const progress = this.options.onProgress;
      const { adaptedModel } = await import('../ltr/adapted-models.js');
      model = (await adaptedModel(this.repo, base, {
        cacheDir: this.cacheDir, index: this.options.index, onWarning: this.options.onWarning,
        onProgress: progress && ((step, done, total) => { if (step === 'features') progress('adapt', done, total); }),
      })).model;
      this.adapted.set(base, model);
    }
    return model;
  }

  /** The history signals at `commit` (stored per commit, computed from the history once). */
  private commitHistoryAt(commit: string): Promise<CommitHistory> {
    const progress = this.options.onProgress;
    return openCommitHistory(this.repo.gitDir, commit, { cacheDir: this.cacheDir, onProgress: progress && ((done, total) => progress('history', done, total)) });
  }

  /** The repository's history covering `commit` (read from git once, then cached on disk). */
  private async historyAt(commit: string): Promise<RepoHistory> {
    if (this.history) {
      try {
        this.history.at(commit);
        return this.history;
      } catch {
        // not in the history read so far: read again, covering it
      }
    }
    const progress = this.options.onProgress;
    this.history = await RepoHistory.open(this.repo.gitDir, [commit], { cacheDir: this.cacheDir, onProgress: progress && ((done, total) => progress('history', done, total)) });
    this.history.at(commit);
    return this.history;
  }

  localize(issueText: string, opts: LocalizeCallOptions = {}): Promise<LocalizeResult> {
    let issue: ParsedIssue;
    try {
      checkLocalizeCall(issueText, opts, this.options.maxIssueBytes);
      // read once here: every stage below reads this, never the string
      issue = parseIssue(issueText, { format: opts.format });
      // before the first index is built, and for a model (whose candidates make their own query);
      // else the lexical stage checks the query it makes anyway (CommitChain)
      if (this.options.model !== undefined || !this.current?.chain) checkParsedIssue(issue, { stem: this.stem });
    } catch (e) {
      return Promise.reject(e as Error);
    }
    return this.serialized(() => this.localizeNow(issue, opts));
  }

  private async localizeNow(issue: ParsedIssue, opts: LocalizeCallOptions): Promise<LocalizeResult> {
    const deadline = this.options.deadlineMs !== undefined ? Deadline.after(this.options.deadlineMs / 1000) : undefined;
    return this.onIndex(opts.rev, undefined, (at) => this.localizeAt(at, issue, opts, deadline));
  }

  private async localizeAt(at: NonNullable<OpenedLocalizer['current']>, issue: ParsedIssue, opts: LocalizeCallOptions, deadline: Deadline | undefined): Promise<LocalizeResult> {
    const s0 = performance.now();
    const chain = await this.chainOf(at, deadline);
    const setupMillis = performance.now() - s0;
    const t0 = performance.now();
    const { localization, stages, rerank, queryTerms } = await chain.localize(issue, {
      top: opts.top ?? 10, matchedTermsPerItem: opts.matchedTermsPerItem, deadline,
    });
    if (queryTerms === 0) checkParsedIssue(issue, { stem: this.stem }); // throws: nothing searchable
    return { ...localization, commit: at.commit, stages, signals: issue.signals, ...(rerank ? { rerank } : {}), index: reportedInfo(at), millis: performance.now() - t0, setupMillis };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    this.current = undefined;
    try {
      await this.embedder?.close?.();
      await this.reranker?.model.close?.();
    } finally {
      await this.repo.close();
    }
  }
}

/** The index info a call reports: as loaded or built for the first call, then loaded already (0 ms). */
function reportedInfo(at: { info: IndexInfo; reported?: boolean }): IndexInfo {
  if (at.reported) return { ...at.info, built: false, millis: 0 };
  at.reported = true;
  return at.info;
}
