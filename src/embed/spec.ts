import { homedir } from 'node:os';
import { IssuelocError } from '../errors.js';
import type { EmbedPrefixes, Embedder } from './embedder.js';
import { detectPreset, embedderPreset, GENERIC_PRESET, PRESET_NAMES, type EmbedderPreset } from './presets.js';
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
    const example = 'e.g. openai:http://localhost:8000/v1#my-model';
    if (url === '' || model === '') throw new IssuelocError(`${option}: '${value}' needs a URL and a model name, ${example}`);
    if (!/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
      throw new IssuelocError(`${option}: '${value}': the URL '${url}' must be a valid http:// or https:// URL, ${example}`);
    }
    return { kind, url, model };
  }
  if (kind === 'none') throw bad();
  return { kind, path: expandHome(rest) };
}

/** A parsed `--embedder` value: an optional preset, then the backend. */
export interface EmbedderSpec {
  /** The preset named before the backend; undefined: picked from the model's name when it names one. */
  preset?: EmbedderPreset | typeof GENERIC_PRESET;
  backend: BackendSpec;
}

const EMBEDDER_KINDS: readonly BackendSpec['kind'][] = ['none', 'onnx', 'openai'];

/**
 * Parses an `--embedder` value: `[<preset>:]<backend>`, where the backend is `none`,
 * `onnx:<model folder>` or `openai:<url>#<model>` and the preset one of {@link PRESET_NAMES}
 * (`coderankembed:openai:http://localhost:8001/v1#CodeRankEmbed`).
 * @throws IssuelocError for an unknown preset (listing them) or a malformed backend spec.
 */
export function parseEmbedderSpec(value: string, option = '--embedder'): EmbedderSpec {
  const v = value.trim();
  const colon = v.indexOf(':');
  const head = colon < 0 ? v : v.slice(0, colon);
  const rest = colon < 0 ? '' : v.slice(colon + 1);
  if (colon > 0 && !EMBEDDER_KINDS.includes(head as BackendSpec['kind']) && /^(none$|onnx:|openai:)/.test(rest.trim())) {
    return { preset: embedderPreset(head, option), backend: parseBackendSpec(rest, option, EMBEDDER_KINDS) };
  }
  if (colon < 0 && PRESET_NAMES.includes(v.toLowerCase())) {
    throw new IssuelocError(`${option}: the preset '${v}' needs a backend after it, e.g. ${v}:onnx:<model folder> or ${v}:openai:<url>#<model>`);
  }
  return { backend: parseBackendSpec(v, option, EMBEDDER_KINDS) };
}

/** Options of {@link openEmbedder}. */
export interface OpenEmbedderOptions {
  /** Prefixes per role; over the preset's and the model folder's. */
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
 * The embedder an `--embedder` value names ({@link parseEmbedderSpec}), or undefined for `none`.
 * Its preset — named, else picked from the served model name (`openai:`) or the folder
 * (`onnx:`, see `OnnxEmbedder.load`) when that names exactly one model — sets the
 * prefixes (an `openai:` server pools, normalises and limits tokens as it was started; vectors
 * are normalised here anyway), under the prefixes of `opts`.
 * @throws IssuelocError for a malformed value or an unknown preset, an incomplete model folder or a missing optional package.
 */
export async function openEmbedder(value: string | undefined, opts: OpenEmbedderOptions = {}): Promise<Embedder | undefined> {
  if (value === undefined) return undefined;
  const { preset, backend: spec } = parseEmbedderSpec(value);
  // each backend's module loaded when named: a process without a dense stage pays for neither
  if (spec.kind === 'onnx') return (await import('./onnx-embedder.js')).OnnxEmbedder.load(spec.path, { preset, prefixes: opts.prefixes, batchSize: opts.batchSize });
  if (spec.kind === 'openai') {
    const named = preset !== undefined && preset !== GENERIC_PRESET ? preset : undefined;
    const chosen = named ?? (preset === undefined ? detectPreset([spec.model]) : undefined);
    const { OpenAIEmbedder } = await import('./openai-embedder.js');
    return new OpenAIEmbedder({
      url: spec.url, model: spec.model, batchSize: opts.batchSize,
      prefixes: { query: opts.prefixes?.query ?? chosen?.prefixes.query, document: opts.prefixes?.document ?? chosen?.prefixes.document },
      ...(chosen ? { preset: { name: chosen.name, picked: !named } } : {}),
      apiKey: process.env[opts.apiKeyEnv ?? 'OPENAI_API_KEY'], onRetry: opts.onRetry, onWarning: opts.onWarning,
      timeoutMs: opts.timeoutMs, budgetMs: opts.timeoutMs, retries: opts.retries,
    });
  }
  return undefined;
}
