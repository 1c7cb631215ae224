import { Command, Option } from 'commander';
import { IssuelocError } from '../errors.js';
import { parseNumberOption } from './options.js';
import type { Embedder } from '../embed/embedder.js';
import { openEmbedder } from '../embed/spec.js';
import { FUSION_METHODS, type FusionOptions } from '../retrieve/fusion.js';
import { DEFAULT_LISTWISE, ListwiseReranker } from '../llm-rerank/listwise.js';
import { openChatModel } from '../llm-rerank/spec.js';
import type { RerankStats } from '../llm-rerank/listwise.js';
import { Deadline } from '../util/deadline.js';
import { DEFAULT_RETRY } from '../util/http-json.js';

/** Defaults of the endpoint options, in the CLI's units (seconds). */
const ENDPOINT_SECONDS = String(DEFAULT_RETRY.budgetMs / 1000);
const ENDPOINT_RETRIES = String(DEFAULT_RETRY.retries);

/** Adds the dense retrieval, fusion and reranking options (`localize`, `export-training`). */
export function retrievalOptions(cmd: Command, opts: { rerank?: boolean } = {}): Command {
  cmd
    .option('--embedder <spec>', 'bi-encoder for dense retrieval: onnx:<model folder>, openai:<url>#<model>, or none')
    .addOption(new Option('--fusion <method>', 'how lexical and dense rankings combine (with --embedder)').choices([...FUSION_METHODS]).default('rrf'))
    .option('--query-prefix <text>', 'text put before the issue when embedding it (default: the model folder\'s query prompt)')
    .option('--embedder-timeout <seconds>', 'seconds one call to the embedding endpoint may take in all, retries and back-off included', ENDPOINT_SECONDS)
    .option('--embedder-retries <n>', 'retries of an embedding call after a rate limit, server error, timeout or refused connection', ENDPOINT_RETRIES)
    .option('--api-key-env <name>', 'environment variable holding the API key of openai: endpoints', 'OPENAI_API_KEY');
  if (opts.rerank === false) return cmd;
  return cmd
    .option('--rerank <spec>', 'listwise LLM reranker: openai:<url>#<model> or gguf:<model file>')
    .option('--rerank-top <n>', 'functions reranked (K)', String(DEFAULT_LISTWISE.top))
    .option('--rerank-window <n>', 'functions per LLM call', String(DEFAULT_LISTWISE.window))
    .option('--rerank-stride <n>', 'step between windows, bottom to top', String(DEFAULT_LISTWISE.stride))
    .addOption(new Option('--rerank-mode <mode>', 'first-token: order by the log-probabilities of the first token; permutation: parse [2] > [1] > …').choices(['first-token', 'permutation']).default(DEFAULT_LISTWISE.mode))
    .option('--rerank-timeout <seconds>', 'seconds one LLM call may take in all, retries and back-off included', ENDPOINT_SECONDS)
    .option('--rerank-retries <n>', 'retries of an LLM call after a rate limit, server error, timeout or refused connection', ENDPOINT_RETRIES)
    .option('--deadline <seconds>', 'seconds for the issue\'s embedding and reranking; past it the stage in flight stops and the best ranking so far is shown, with a warning');
}

/** What the options open; close it when done. Spread into RetrieveRerank.open's options. */
export interface OpenedRetrieval {
  embedder?: Embedder;
  fusion: Partial<FusionOptions>;
  reranker?: ListwiseReranker;
  /** `--deadline`, started when the options were opened: for one issue (the `localize` command). */
  deadline?: Deadline;
  /** Where fallbacks are reported (`warning: …` lines): a failing embedder then leaves lexical ranking. */
  onWarning: (message: string) => void;
  close(): Promise<void>;
}

function whole(v: unknown, name: string, min: number, max?: number): number {
  return parseNumberOption(v, name, { min, max, whole: true });
}

/** Seconds > 0 as milliseconds; at most a day (a timer holds at most 2^31-1 ms, 24.8 days). */
function seconds(v: unknown, name: string): number {
  return parseNumberOption(v, name, { min: 0, aboveMin: true, max: 86_400 }) * 1000;
}

/**
 * Opens the embedder and reranker the parsed options name (none when not given), and starts the
 * `--deadline` clock when given.
 * @param warn where warnings go (retries, fallbacks: each as `warning: …`), normally stderr.
 * @throws IssuelocError for malformed values, a missing model folder/file or optional package.
 */
export async function openRetrieval(o: Record<string, unknown>, cacheDir: string | undefined, warn: (m: string) => void): Promise<OpenedRetrieval> {
  const onWarning = (m: string) => warn(`warning: ${m}`);
  const onRetry = (attempt: number, reason: string, waitMs: number, url: string) => onWarning(`${url}: retry ${attempt} in ${waitMs} ms: ${reason}`);
  const prefixes = o.queryPrefix !== undefined ? { query: String(o.queryPrefix) } : undefined;
  const apiKeyEnv = o.apiKeyEnv as string | undefined;
  const fusion = (o.fusion ?? 'rrf') as FusionOptions['method'];
  if (!FUSION_METHODS.includes(fusion)) throw new IssuelocError(`--fusion: unknown method '${String(o.fusion)}' (methods: ${FUSION_METHODS.join(', ')})`);
  const deadlineMs = o.deadline !== undefined ? seconds(o.deadline, '--deadline') : undefined;
  const embedder = await openEmbedder(o.embedder as string | undefined, {
    prefixes, apiKeyEnv, onRetry,
    timeoutMs: seconds(o.embedderTimeout ?? ENDPOINT_SECONDS, '--embedder-timeout'),
    retries: whole(o.embedderRetries ?? ENDPOINT_RETRIES, '--embedder-retries', 0, 100),
  });
  let reranker: ListwiseReranker | undefined;
  if (o.rerank !== undefined) {
    const window = whole(o.rerankWindow ?? DEFAULT_LISTWISE.window, '--rerank-window', 2);
    const stride = whole(o.rerankStride ?? DEFAULT_LISTWISE.stride, '--rerank-stride', 1);
    if (stride > window) throw new IssuelocError(`--rerank-stride (${stride}) must not exceed --rerank-window (${window})`);
    const timeoutMs = seconds(o.rerankTimeout ?? ENDPOINT_SECONDS, '--rerank-timeout');
    const retries = whole(o.rerankRetries ?? ENDPOINT_RETRIES, '--rerank-retries', 0, 100);
    const model = await openChatModel(o.rerank as string, { cacheDir, apiKeyEnv, timeoutMs, retries, onRetry });
    if (model) {
      reranker = new ListwiseReranker(model, {
        top: whole(o.rerankTop ?? DEFAULT_LISTWISE.top, '--rerank-top', 1), window, stride,
        mode: (o.rerankMode as 'first-token' | 'permutation' | undefined) ?? DEFAULT_LISTWISE.mode,
        onWarning,
      });
    }
  }
  return {
    embedder,
    fusion: { method: fusion },
    reranker,
    deadline: deadlineMs !== undefined ? Deadline.after(deadlineMs / 1000) : undefined,
    onWarning,
    async close() {
      await embedder?.close?.();
      await reranker?.model.close?.();
    },
  };
}

/** One line for stderr: what reranking cost. */
export function rerankSummary(s: RerankStats): string {
  return `reranked: ${s.calls} LLM calls (${s.cachedCalls} cached), ${s.inputTokens} input + ${s.outputTokens} output tokens, ${(s.millis / 1000).toFixed(1)} s` +
    (s.fallbackWindows > 0 ? `, ${s.fallbackWindows} of ${s.windows} windows kept the retriever's order` : '');
}
