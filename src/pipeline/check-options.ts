/**
 * The facade's input checks: every option of `openLocalizer` and of a `localize` call, as a
 * program written in plain JavaScript may pass them (wrong types, NaN, misspelt names). A bad
 * value is refused with a one-line IssuelocError naming it (exit 2), before anything is opened,
 * so no stage ever sees a NaN weight, a negative count or an unknown language.
 */
import { IssuelocError } from '../errors.js';
import { LANGUAGE_BY_EXTENSION } from '../corpus/languages.js';
import { DEFAULT_SIGNAL_WEIGHTS } from '../retrieve/signals.js';
import { FUSION_METHODS } from '../retrieve/fusion.js';
import { RankingModel } from '../ltr/model.js';
import { FILE_SELECTIONS } from '../index/code-index.js';
import { RERANK_PRESET_NAMES } from '../llm-rerank/presets.js';
import { parseNumberOption, type NumberBounds } from '../util/number-option.js';
import { parseEmbedderSpec } from '../embed/spec.js';
import { MAX_CONTEXT_TOKENS, MIN_CONTEXT_TOKENS } from '../llm-rerank/listwise.js';
import { PARSED_ISSUE_FORMATS } from '../text/parsed-issue.js';

/** Issue texts longer than this many UTF-8 bytes are refused unless `maxIssueBytes` says more (1 MiB). */
export const DEFAULT_MAX_ISSUE_BYTES = 1 << 20;

const LOCALIZER_KEYS = [
  'repo', 'rev', 'cacheDir', 'maxCacheBytes', 'index', 'ranking', 'embedder', 'fusion', 'queryPrefix', 'documentPrefix', 'embedderEndpoint',
  'model', 'reranker', 'rerank', 'rerankerEndpoint', 'deadlineMs', 'maxIssueBytes', 'onProgress', 'onWarning', 'settingNames',
] as const;
const INDEX_KEYS = ['maxBodyWords', 'includeTests', 'maxFileBytes', 'stem', 'maxFileWords', 'languages', 'files'];
const RANKING_KEYS = ['bm25', 'fileBm25', 'filePrior', 'signals', 'titleWeight', 'nonSource', 'peripheral', 'coChange'];
const BM25_KEYS = ['k1', 'b', 'delta', 'weights'];
const ENDPOINT_KEYS = ['timeoutMs', 'retries', 'apiKeyEnv'];
const RERANK_KEYS = ['top', 'window', 'stride', 'mode', 'contextTokens', 'preset'];
const CALL_KEYS = ['top', 'rev', 'matchedTermsPerItem', 'format'];
/** A timer holds at most 2^31−1 ms; a day is plenty for one call or one issue. */
const MAX_MS = 86_400_000;

const fail = (message: string) => new IssuelocError(message);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `v` is an object whose keys are all among `known`; `name` names it in messages. */
function record(v: unknown, name: string, known: readonly string[]): Record<string, unknown> {
  if (!isObject(v)) throw fail(`${name} must be an object, got ${describe(v)}`);
  const unknown = Object.keys(v).filter((k) => !known.includes(k) && v[k] !== undefined);
  if (unknown.length > 0) throw fail(`${name}: unknown option ${unknown.map((k) => `'${k}'`).join(', ')} (options: ${known.join(', ')})`);
  return v;
}

function describe(v: unknown): string {
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

function number(v: unknown, name: string, bounds: NumberBounds): void {
  if (v === undefined) return;
  if (typeof v !== 'number') throw fail(`${name} must be a number, got ${describe(v)}`);
  parseNumberOption(v, name, bounds);
}

function string(v: unknown, name: string, nonEmpty = false): void {
  if (v === undefined) return;
  if (typeof v !== 'string' || (nonEmpty && v === '')) throw fail(`${name} must be a${nonEmpty ? ' non-empty' : ''} string, got ${describe(v)}`);
}

function boolean(v: unknown, name: string): void {
  if (v !== undefined && typeof v !== 'boolean') throw fail(`${name} must be true or false, got ${describe(v)}`);
}

function fn(v: unknown, name: string): void {
  if (v !== undefined && typeof v !== 'function') throw fail(`${name} must be a function, got ${describe(v)}`);
}

function bm25(v: unknown, name: string): void {
  if (v === undefined) return;
  const b = record(v, name, BM25_KEYS);
  number(b.k1, `${name}.k1`, { min: 0 });
  number(b.b, `${name}.b`, { min: 0, max: 1 });
  number(b.delta, `${name}.delta`, { min: 0 });
  if (b.weights !== undefined) {
    if (!Array.isArray(b.weights) || b.weights.length !== 3) throw fail(`${name}.weights must be 3 numbers (path, name, body), got ${describe(b.weights)}`);
    b.weights.forEach((w, i) => number(w, `${name}.weights[${i}]`, { min: 0 }));
  }
}

function endpoint(v: unknown, name: string): void {
  if (v === undefined) return;
  const e = record(v, name, ENDPOINT_KEYS);
  number(e.timeoutMs, `${name}.timeoutMs`, { min: 0, aboveMin: true, max: MAX_MS });
  number(e.retries, `${name}.retries`, { min: 0, max: 100, whole: true });
  string(e.apiKeyEnv, `${name}.apiKeyEnv`, true);
}

/**
 * Checks the options of `openLocalizer` (types, ranges, known names) without opening anything.
 * @throws IssuelocError (exit 2) naming the first bad option, e.g. `ranking.bm25.k1 must be a number, got 'big'`.
 */
export function checkLocalizerOptions(options: unknown): void {
  const o = record(options, 'openLocalizer options', LOCALIZER_KEYS);
  string(o.repo, 'repo', true);
  if (o.repo === undefined) throw fail('repo: the path of a git repository is needed');
  string(o.rev, 'rev', true);
  string(o.cacheDir, 'cacheDir'); // '' is refused where the cache folder is chosen (cacheDirFor)
  number(o.maxCacheBytes, 'maxCacheBytes', { min: 1, whole: true });
  if (o.index !== undefined) {
    const ix = record(o.index, 'index', INDEX_KEYS);
    number(ix.maxBodyWords, 'index.maxBodyWords', { min: 0, whole: true });
    number(ix.maxFileBytes, 'index.maxFileBytes', { min: 1, whole: true });
    number(ix.maxFileWords, 'index.maxFileWords', { min: 0, whole: true });
    boolean(ix.includeTests, 'index.includeTests');
    boolean(ix.stem, 'index.stem');
    if (ix.files !== undefined && !(FILE_SELECTIONS as readonly unknown[]).includes(ix.files)) throw fail(`index.files must be one of ${FILE_SELECTIONS.join(', ')}, got ${describe(ix.files)}`);
    if (ix.languages !== undefined) {
      const known = new Set<string>(Object.values(LANGUAGE_BY_EXTENSION));
      if (!Array.isArray(ix.languages) || ix.languages.some((l) => typeof l !== 'string')) throw fail(`index.languages must be a list of language names, got ${describe(ix.languages)}`);
      const bad = (ix.languages as string[]).filter((l) => !known.has(l));
      if (bad.length > 0) throw fail(`index.languages: unknown language ${bad.join(', ')} (known: ${[...known].sort().join(', ')})`);
    }
  }
  if (o.ranking !== undefined) {
    const r = record(o.ranking, 'ranking', RANKING_KEYS);
    bm25(r.bm25, 'ranking.bm25');
    bm25(r.fileBm25, 'ranking.fileBm25');
    number(r.filePrior, 'ranking.filePrior', { min: 0 });
    number(r.titleWeight, 'ranking.titleWeight', { min: 0 });
    if (r.nonSource !== undefined) {
      const n = record(r.nonSource, 'ranking.nonSource', ['rank', 'count', 'minRate']);
      number(n.rank, 'ranking.nonSource.rank', { min: 1, whole: true });
      number(n.count, 'ranking.nonSource.count', { min: 0, whole: true });
      number(n.minRate, 'ranking.nonSource.minRate', { min: 0, max: 1 });
    }
    if (r.peripheral !== undefined) {
      const p = record(r.peripheral, 'ranking.peripheral', ['place', 'minShare']);
      number(p.place, 'ranking.peripheral.place', { min: 0, whole: true });
      number(p.minShare, 'ranking.peripheral.minShare', { min: 0, max: 1 });
    }
    if (r.coChange !== undefined) {
      const c = record(r.coChange, 'ranking.coChange', ['rank', 'minConfidence', 'minSupport']);
      number(c.rank, 'ranking.coChange.rank', { min: 0, whole: true });
      number(c.minConfidence, 'ranking.coChange.minConfidence', { min: 0, max: 1 });
      number(c.minSupport, 'ranking.coChange.minSupport', { min: 1, whole: true });
    }
    if (r.signals !== undefined && r.signals !== false) {
      const s = record(r.signals, 'ranking.signals', Object.keys(DEFAULT_SIGNAL_WEIGHTS));
      for (const [k, w] of Object.entries(s)) number(w, `ranking.signals.${k}`, { min: 0 });
    }
  }
  if (typeof o.embedder === 'string') parseEmbedderSpec(o.embedder, 'embedder'); // an unknown preset or a malformed spec, before anything opens
  if (o.embedder !== undefined && typeof o.embedder !== 'string') {
    const e = o.embedder as Record<string, unknown>;
    if (!isObject(e) || typeof e.id !== 'string' || typeof e.embed !== 'function') throw fail(`embedder must be a spec (onnx:<folder>, openai:<url>#<model>, none) or an object with an id and embed(), got ${describe(o.embedder)}`);
    number(e.batchSize, 'embedder.batchSize', { min: 1, whole: true });
  }
  if (o.fusion !== undefined && !FUSION_METHODS.includes(o.fusion as never)) throw fail(`fusion: unknown method ${describe(o.fusion)} (methods: ${FUSION_METHODS.join(', ')})`);
  string(o.queryPrefix, 'queryPrefix');
  string(o.documentPrefix, 'documentPrefix');
  endpoint(o.embedderEndpoint, 'embedderEndpoint');
  if (o.model !== undefined && typeof o.model !== 'string' && !(o.model instanceof RankingModel)) {
    throw fail(`model must be 'default', a model file or a RankingModel, got ${describe(o.model)}`);
  }
  if (typeof o.model === 'string' && o.model === '') throw fail("model must be 'default' or the path of a model file, got ''");
  if (o.reranker !== undefined && typeof o.reranker !== 'string') {
    const m = o.reranker as Record<string, unknown>;
    if (!isObject(m) || typeof m.id !== 'string' || typeof m.complete !== 'function') throw fail(`reranker must be a spec ([<preset>:]openai:<url>#<model>, [<preset>:]gguf:<file>, none) or an object with an id and complete(), got ${describe(o.reranker)}`);
  }
  if (o.rerank !== undefined) {
    const r = record(o.rerank, 'rerank', RERANK_KEYS);
    number(r.top, 'rerank.top', { min: 1, whole: true });
    number(r.window, 'rerank.window', { min: 2, whole: true });
    number(r.stride, 'rerank.stride', { min: 1, whole: true });
    number(r.contextTokens, 'rerank.contextTokens', { min: MIN_CONTEXT_TOKENS, max: MAX_CONTEXT_TOKENS, whole: true });
    if (r.mode !== undefined && r.mode !== 'first-token' && r.mode !== 'permutation') throw fail(`rerank.mode must be 'first-token' or 'permutation', got ${describe(r.mode)}`);
    if (r.preset !== undefined && !(RERANK_PRESET_NAMES as readonly unknown[]).includes(r.preset)) throw fail(`rerank.preset must be one of ${RERANK_PRESET_NAMES.join(', ')}, got ${describe(r.preset)}`);
  }
  endpoint(o.rerankerEndpoint, 'rerankerEndpoint');
  number(o.deadlineMs, 'deadlineMs', { min: 0, aboveMin: true, max: MAX_MS });
  number(o.maxIssueBytes, 'maxIssueBytes', { min: 1, whole: true });
  fn(o.onProgress, 'onProgress');
  fn(o.onWarning, 'onWarning');
}

/**
 * Checks one `localize` call: the issue text (a string of at most `maxIssueBytes` UTF-8 bytes)
 * and its options.
 * @throws IssuelocError (exit 2) naming the bad input.
 */
export function checkLocalizeCall(issueText: unknown, opts: unknown, maxIssueBytes = DEFAULT_MAX_ISSUE_BYTES): void {
  if (typeof issueText !== 'string') throw fail(`issueText must be a string, got ${describe(issueText)}`);
  const bytes = Buffer.byteLength(issueText, 'utf8');
  if (bytes > maxIssueBytes) throw fail(`issueText is ${bytes} bytes, more than maxIssueBytes (${maxIssueBytes})`);
  if (opts === undefined) return;
  const o = record(opts, 'localize options', CALL_KEYS);
  number(o.top, 'top', { min: 1, whole: true });
  string(o.rev, 'rev', true);
  number(o.matchedTermsPerItem, 'matchedTermsPerItem', { min: 0, whole: true });
  if (o.format !== undefined && !(PARSED_ISSUE_FORMATS as readonly unknown[]).includes(o.format)) {
    throw fail(`format must be one of ${PARSED_ISSUE_FORMATS.join(', ')}, got ${describe(o.format)}`);
  }
}
