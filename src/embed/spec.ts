import { homedir } from 'node:os';
import { IssuelocError } from '../errors.js';
import type { EmbedPrefixes, Embedder } from './embedder.js';
import { OnnxEmbedder } from './onnx-embedder.js';
import { OpenAIEmbedder } from './openai-embedder.js';
import type { PostJsonOptions } from '../util/http-json.js';

/** A parsed `--embedder` / `--rerank` value: which backend, where, which model. */
export type BackendSpec =
  | { kind: 'none' }
  | { kind: 'onnx' | 'gguf'; path: string }
  | { kind: 'openai'; url: string; model: string };

/** `~/x` → `<home>/x`. */
export function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? homedir() + p.slice(1) : p;
}

/**
 * Parses a backend spec: `none`; `onnx:<model folder>`; `gguf:<model file>`;
 * `openai:<base URL ending in /v1>#<model name>`.
 * @param option the option's name, for messages (e.g. `--embedder`).
 * @param kinds the kinds this option accepts.
 * @throws IssuelocError naming the option and the value when it is not one of those forms.
 */
export function parseBackendSpec(value: string, option: string, kinds: readonly BackendSpec['kind'][]): BackendSpec {
  const v = value.trim();
  const forms = kinds.map((k) => (k === 'none' ? 'none' : k === 'openai' ? 'openai:<url>#<model>' : `${k}:<path>`)).join(', ');
  const bad = () => new IssuelocError(`${option}: cannot read '${value}' (forms: ${forms})`);
  if (v === 'none' && kinds.includes('none')) return { kind: 'none' };
  const colon = v.indexOf(':');
  if (colon < 0) throw bad();
  const kind = v.slice(0, colon) as BackendSpec['kind'];
  const rest = v.slice(colon + 1);
  if (!kinds.includes(kind) || rest === '') throw bad();
  if (kind === 'openai') {
    const hash = rest.lastIndexOf('#');
    const url = hash < 0 ? '' : rest.slice(0, hash);
    const model = hash < 0 ? '' : rest.slice(hash + 1);
    if (!/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url) || model === '') {
      throw new IssuelocError(`${option}: '${value}' needs a URL and a model name, e.g. openai:http://localhost:8000/v1#my-model`);
    }
    return { kind, url, model };
  }
  if (kind === 'none') throw bad();
  return { kind, path: expandHome(rest) };
}

/** Options of {@link openEmbedder}. */
export interface OpenEmbedderOptions {
  prefixes?: Partial<EmbedPrefixes>;
  batchSize?: number;
  /** Name of the environment variable holding the endpoint's API key (default OPENAI_API_KEY). */
  apiKeyEnv?: string;
  /** Milliseconds one call to an openai: endpoint may take in all, tries and back-off included (default 30 000). */
  timeoutMs?: number;
  /** Retries of an openai: call on 429/5xx/timeouts/refused connections (default 2). */
  retries?: number;
  /** Told of retries of the endpoint (e.g. to warn on stderr). */
  onRetry?: PostJsonOptions['onRetry'];
  /** Told once when an openai: endpoint refuses a text as too long and it is cut and sent again. */
  onWarning?: (message: string) => void;
}

/**
 * The embedder an `--embedder` value names, or undefined for `none`.
 * @throws IssuelocError for a malformed value, an incomplete model folder or a missing optional package.
 */
export async function openEmbedder(value: string | undefined, opts: OpenEmbedderOptions = {}): Promise<Embedder | undefined> {
  if (value === undefined) return undefined;
  const spec = parseBackendSpec(value, '--embedder', ['none', 'onnx', 'openai']);
  if (spec.kind === 'onnx') return OnnxEmbedder.load(spec.path, { prefixes: opts.prefixes, batchSize: opts.batchSize });
  if (spec.kind === 'openai') {
    return new OpenAIEmbedder({
      url: spec.url, model: spec.model, prefixes: opts.prefixes, batchSize: opts.batchSize,
      apiKey: process.env[opts.apiKeyEnv ?? 'OPENAI_API_KEY'], onRetry: opts.onRetry, onWarning: opts.onWarning,
      timeoutMs: opts.timeoutMs, budgetMs: opts.timeoutMs, retries: opts.retries,
    });
  }
  return undefined;
}
