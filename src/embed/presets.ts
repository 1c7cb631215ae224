/**
 * Embedder presets: the input conventions a bi-encoder was trained with (query and document
 * prefixes, pooling, normalisation, token limit), so that `--embedder coderankembed:openai:…`
 * embeds as the model's own card and code do. A preset is named before a backend spec
 * (`<preset>:onnx:<folder>`, `<preset>:openai:<url>#<model>`), or picked from the served model
 * name / the model folder when that names exactly one of these models (see {@link detectPreset});
 * `generic:` turns the picking off.
 *
 * Sources, per preset:
 * - `coderankembed` — nomic-ai/CodeRankEmbed (= cornstack/CodeRankEmbed) model card: "the query
 *   prompt must include the following task instruction prefix: `Represent this query for
 *   searching relevant code`" (its example: `'Represent this query for searching relevant code: '
 *   + query`), code passed as it is; its `1_Pooling/config.json` sets `pooling_mode_cls_token`.
 * - `swerankembed-small` — Salesforce/SweRankEmbed-Small: CodeRankEmbed fine-tuned on SweLoc
 *   (same nomic_bert architecture and files, CLS pooling), queried as SweRank's retrieval code
 *   does (gangiswag/SweRank `src/eval_beir_sbert_canonical.py`: for `SweRankEmbed-small` the
 *   prefix `Represent this query for searching relevant code`, joined as `f'{prefix}: {query}'`).
 * - `swerankembed-large` — Salesforce/SweRankEmbed-Large: gte-Qwen2-7B-instruct fine-tuned (its
 *   card's `base_model`); the same SweRank code uses `Instruct: Given a github issue, identify the
 *   code that needs to be changed to fix the issue.\nQuery` + `: `; gte-Qwen2 models pool the
 *   last token (their `1_Pooling/config.json` `pooling_mode_lasttoken`, and the maintainers'
 *   answer on Alibaba-NLP/gte-Qwen2-7B-instruct discussion 25).
 *
 * All three: no document prefix (SweRank encodes the corpus without a prompt), vectors normalised
 * to unit length (cosine; SweRank scores by dot product of sentence-transformers vectors that end
 * in `Normalize`), and 1024 tokens per text — the `--sequence_length` SweRank's retrieval runs
 * them at (the models accept more: CodeRankEmbed's card says 8192, but attention cost grows with
 * the square of the length, and functions are cut at 8 000 characters anyway).
 */
import { IssuelocError } from '../errors.js';
import type { EmbedPrefixes } from './embedder.js';
import type { Pooling } from './model-folder.js';

/** The input conventions of one embedding model. */
export interface EmbedderPreset {
  /** Name as written before a backend spec, e.g. `coderankembed`. */
  readonly name: string;
  /** The model it follows, for messages and `--json` (e.g. `nomic-ai/CodeRankEmbed`). */
  readonly model: string;
  readonly prefixes: Readonly<EmbedPrefixes>;
  /** How token vectors become the text vector (local `onnx:` models; a server pools as it was set up). */
  readonly pooling: Pooling;
  /** Vectors scaled to unit length. */
  readonly normalize: boolean;
  /** Tokens per text, prefix included (local `onnx:` models; longer texts are cut by the tokenizer). */
  readonly maxTokens: number;
  /** Matches model names and folder names of this model (case-insensitive). */
  readonly names: RegExp;
}

const CODE_QUERY = 'Represent this query for searching relevant code: ';
/** SweRankEmbed-Large's instruction, as SweRank's retrieval code joins it to the issue. */
export const SWERANK_LARGE_QUERY = 'Instruct: Given a github issue, identify the code that needs to be changed to fix the issue.\nQuery: ';

/** The presets by name (see the module comment for what each follows). */
export const EMBEDDER_PRESETS: readonly EmbedderPreset[] = [
  {
    name: 'coderankembed', model: 'nomic-ai/CodeRankEmbed',
    prefixes: { query: CODE_QUERY, document: '' }, pooling: 'cls', normalize: true, maxTokens: 1024,
    names: /coderankembed/i,
  },
  {
    name: 'swerankembed-small', model: 'Salesforce/SweRankEmbed-Small',
    prefixes: { query: CODE_QUERY, document: '' }, pooling: 'cls', normalize: true, maxTokens: 1024,
    names: /swerankembed[-_ ]?small/i,
  },
  {
    name: 'swerankembed-large', model: 'Salesforce/SweRankEmbed-Large',
    prefixes: { query: SWERANK_LARGE_QUERY, document: '' }, pooling: 'last', normalize: true, maxTokens: 1024,
    names: /swerankembed[-_ ]?large/i,
  },
];

/** The preset name that turns presets off: the folder's own files, else no prefix and mean pooling. */
export const GENERIC_PRESET = 'generic';

/** Every name accepted before a backend spec. */
export const PRESET_NAMES: readonly string[] = [...EMBEDDER_PRESETS.map((p) => p.name), GENERIC_PRESET];

/**
 * The preset called `name` (any case), or `'generic'`.
 * @param option names the option in the message (e.g. `--embedder`).
 * @throws IssuelocError listing the presets when there is none of that name.
 */
export function embedderPreset(name: string, option = '--embedder'): EmbedderPreset | typeof GENERIC_PRESET {
  const n = name.toLowerCase();
  if (n === GENERIC_PRESET) return GENERIC_PRESET;
  const p = EMBEDDER_PRESETS.find((x) => x.name === n);
  if (!p) throw new IssuelocError(`${option}: unknown preset '${name}' (presets: ${PRESET_NAMES.join(', ')})`);
  return p;
}

/**
 * The preset that the given names (a served model name, a folder's name, the model id in its
 * `config.json`) all point to, when they point to exactly one: `nomic-ai/CodeRankEmbed`,
 * `CodeRankEmbed-onnx` → `coderankembed`. Undefined when none matches or they disagree.
 */
export function detectPreset(names: readonly (string | undefined)[]): EmbedderPreset | undefined {
  const found = new Set<EmbedderPreset>();
  for (const n of names) {
    if (!n) continue;
    const hits = EMBEDDER_PRESETS.filter((p) => p.names.test(n));
    if (hits.length > 1) return undefined;
    if (hits.length === 1) found.add(hits[0]);
  }
  return found.size === 1 ? [...found][0] : undefined;
}
