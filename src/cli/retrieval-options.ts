import { Command, Option } from 'commander';
import { IssuelocError } from '../errors.js';
import { parseNumberOption } from '../util/number-option.js';
import { FUSION_METHODS, type FusionOptions } from '../retrieve/fusion.js';
import { DEFAULT_LISTWISE, MAX_CONTEXT_TOKENS, MIN_CONTEXT_TOKENS, type RerankStats } from '../llm-rerank/listwise.js';
import { RERANK_PRESET_NAMES } from '../llm-rerank/presets.js';
import type { LocalizerOptions } from '../pipeline/localizer.js';
import { DEFAULT_RETRY } from '../util/http-json.js';
import { parseEmbedderSpec } from '../embed/spec.js';
import { PRESET_NAMES } from '../embed/presets.js';

/** Defaults of the endpoint options, in the CLI's units (seconds). */
const ENDPOINT_SECONDS = String(DEFAULT_RETRY.budgetMs / 1000);
const ENDPOINT_RETRIES = String(DEFAULT_RETRY.retries);

/** Adds the dense retrieval, fusion and reranking options (`localize`, `export-training`). */
export function retrievalOptions(cmd: Command, opts: { rerank?: boolean } = {}): Command {
  cmd
    .option('--embedder <spec>', 'bi-encoder for dense retrieval: [preset:]onnx:<model folder>, [preset:]openai:<url>#<model>, or none; presets: ' + PRESET_NAMES.join(', '))
    .addOption(new Option('--fusion <method>', 'how lexical and dense rankings combine (with --embedder)').choices([...FUSION_METHODS]).default('rrf'))
    .option('--query-prefix <text>', 'text put before the issue when embedding it (default: the preset\'s, else the model folder\'s query prompt)')
    .option('--document-prefix <text>', 'text put before each function when embedding it (default: the preset\'s, else the model folder\'s document prompt)')
    .option('--embedder-timeout <seconds>', 'seconds one call to the embedding endpoint may take in all, retries and back-off included', ENDPOINT_SECONDS)
    .option('--embedder-retries <n>', 'retries of an embedding call after a rate limit, server error, timeout or refused connection', ENDPOINT_RETRIES)
    .option('--api-key-env <name>', 'environment variable holding the API key of openai: endpoints', 'OPENAI_API_KEY');
  if (opts.rerank === false) return cmd;
  return cmd
    .option('--rerank <spec>', `listwise LLM reranker: [<preset>:]openai:<url>#<model> or [<preset>:]gguf:<model file>; presets: ${RERANK_PRESET_NAMES.join(', ')} (swerankllm: SweRank's prompt and permutation mode; generic: any chat model, the default)`)
    .option('--rerank-top <n>', 'functions reranked (K)', String(DEFAULT_LISTWISE.top))
    .option('--rerank-window <n>', 'functions per LLM call', String(DEFAULT_LISTWISE.window))
    .option('--rerank-stride <n>', 'step between windows, bottom to top', String(DEFAULT_LISTWISE.stride))
    .addOption(new Option('--rerank-mode <mode>', 'first-token: order by the log-probabilities of the first token; permutation: parse [2] > [1] > … (default: the preset\'s: first-token for generic, switching to permutation when the server gives no log-probabilities; permutation for swerankllm)').choices(['first-token', 'permutation']))
    .option('--rerank-context <tokens>', 'context window of the reranking model in tokens, for servers that do not report it (Ollama: its context, e.g. OLLAMA_CONTEXT_LENGTH); prompts are fitted to it, leaving room for the answer (default: the server\'s, else the preset\'s: 32768 for swerankllm)')
    .option('--rerank-timeout <seconds>', 'seconds one LLM call may take in all, retries and back-off included', ENDPOINT_SECONDS)
    .option('--rerank-retries <n>', 'retries of an LLM call after a rate limit, server error, timeout or refused connection', ENDPOINT_RETRIES)
    .option('--deadline <seconds>', 'seconds for the issue\'s embedding and reranking; past it the stage in flight stops and the best ranking so far is shown, with a warning');
}

/** The stage settings of a command's options, as {@link openLocalizer} takes them. */
export type StageSettings = Pick<LocalizerOptions,
  'embedder' | 'fusion' | 'queryPrefix' | 'documentPrefix' | 'embedderEndpoint' | 'reranker' | 'rerank' | 'rerankerEndpoint' | 'deadlineMs' | 'settingNames'>;

function whole(v: unknown, name: string, min: number, max?: number): number {
  return parseNumberOption(v, name, { min, max, whole: true });
}

/** Seconds > 0 as milliseconds; at most a day (a timer holds at most 2^31-1 ms, 24.8 days). */
function seconds(v: unknown, name: string): number {
  return parseNumberOption(v, name, { min: 0, aboveMin: true, max: 86_400 }) * 1000;
}

/** The long flags (e.g. `--k1`) of the options among `keys` that the user gave (command line or environment). */
export function givenFlags(cmd: Command, keys: readonly string[]): string[] {
  return cmd.options
    .filter((opt) => keys.includes(opt.attributeName()) && ['cli', 'env'].includes(cmd.getOptionValueSource(opt.attributeName()) ?? ''))
    .map((opt) => opt.long ?? opt.attributeName());
}

const DENSE_KEYS = ['fusion', 'queryPrefix', 'documentPrefix', 'embedderTimeout', 'embedderRetries'];
const RERANK_KEYS = ['rerankTop', 'rerankWindow', 'rerankStride', 'rerankMode', 'rerankContext', 'rerankTimeout', 'rerankRetries'];
const ENDPOINT_KEYS = ['deadline', 'apiKeyEnv'];
/** The keys of {@link rankingOptions} (src/cli/options.ts). */
export const RANKING_KEYS = ['filePrior', 'titleWeight', 'signals', 'signalWeights', 'k1', 'b', 'delta', 'weights'];

/**
 * The stage settings the parsed options of `cmd` give (values checked here, each error naming
 * its flag); settings the user did not give are left out, so {@link openLocalizer} can refuse
 * a setting whose stage is off (`--fusion` without `--embedder`) by the flag's name.
 * @throws IssuelocError for a malformed value.
 */
export function stageSettings(o: Record<string, unknown>, cmd: Command): StageSettings {
  const given = (k: string) => ['cli', 'env'].includes(cmd.getOptionValueSource(k) ?? '');
  const apiKeyEnv = o.apiKeyEnv as string | undefined;
  const fusion = o.fusion as FusionOptions['method'] | undefined;
  if (fusion !== undefined && !FUSION_METHODS.includes(fusion)) throw new IssuelocError(`--fusion: unknown method '${String(o.fusion)}' (methods: ${FUSION_METHODS.join(', ')})`);
  const window = whole(o.rerankWindow ?? DEFAULT_LISTWISE.window, '--rerank-window', 2);
  const stride = whole(o.rerankStride ?? DEFAULT_LISTWISE.stride, '--rerank-stride', 1);
  if (stride > window) throw new IssuelocError(`--rerank-stride (${stride}) must not exceed --rerank-window (${window})`);
  if (o.embedder !== undefined) parseEmbedderSpec(String(o.embedder)); // an unknown preset or a malformed spec, before the issue is read
  const s: StageSettings = {
    embedder: o.embedder as string | undefined,
    fusion: given('fusion') ? fusion : undefined,
    queryPrefix: o.queryPrefix !== undefined ? String(o.queryPrefix) : undefined,
    documentPrefix: o.documentPrefix !== undefined ? String(o.documentPrefix) : undefined,
    embedderEndpoint: {
      apiKeyEnv,
      timeoutMs: seconds(o.embedderTimeout ?? ENDPOINT_SECONDS, '--embedder-timeout'),
      retries: whole(o.embedderRetries ?? ENDPOINT_RETRIES, '--embedder-retries', 0, 100),
    },
    reranker: o.rerank as string | undefined,
    // Only what the user gave: the rest is the preset's (src/llm-rerank/presets.ts).
    rerank: {
      top: given('rerankTop') ? whole(o.rerankTop, '--rerank-top', 1) : undefined,
      window: given('rerankWindow') ? window : undefined,
      stride: given('rerankStride') ? stride : undefined,
      mode: given('rerankMode') ? o.rerankMode as 'first-token' | 'permutation' : undefined,
      ...(o.rerankContext !== undefined ? { contextTokens: whole(o.rerankContext, '--rerank-context', MIN_CONTEXT_TOKENS, MAX_CONTEXT_TOKENS) } : {}),
    },
    rerankerEndpoint: {
      apiKeyEnv,
      timeoutMs: seconds(o.rerankTimeout ?? ENDPOINT_SECONDS, '--rerank-timeout'),
      retries: whole(o.rerankRetries ?? ENDPOINT_RETRIES, '--rerank-retries', 0, 100),
    },
    deadlineMs: o.deadline !== undefined ? seconds(o.deadline, '--deadline') : undefined,
    settingNames: {
      ranking: givenFlags(cmd, RANKING_KEYS),
      dense: givenFlags(cmd, DENSE_KEYS),
      rerank: givenFlags(cmd, RERANK_KEYS),
      endpoint: givenFlags(cmd, ENDPOINT_KEYS),
    },
  };
  return s;
}

/** One line for stderr: what reranking cost. */
export function rerankSummary(s: RerankStats): string {
  return `reranked: ${s.calls} LLM calls (${s.cachedCalls} cached), ${s.inputTokens} input + ${s.outputTokens} output tokens, ${(s.millis / 1000).toFixed(1)} s` +
    (s.fallbackWindows > 0 ? `, ${s.fallbackWindows} of ${s.windows} windows kept the retriever's order` : '');
}
