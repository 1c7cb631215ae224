/**
 * The docs table of the features (docs/learning-to-rank.md), generated from the registry:
 * `npm run docs:features` writes it, test/ltr/feature-registry.test.ts fails when it differs.
 */
import type { Normalisation } from './group.js';
import { FEATURE_REGISTRY, type FeatureEntry } from './registry.js';

/** The lines that open and close the generated table in a Markdown file. */
export const TABLE_BEGIN = '<!-- feature table: generated from src/ltr/features/ by `npm run docs:features`; do not edit -->';
export const TABLE_END = '<!-- end of feature table -->';

const NORMALISATION: Record<Normalisation, string> = { max: '÷ max', none: '–' };

/** The Markdown table of `features` (default: the registry), one row per feature in column order. */
export function featureTable(features: readonly FeatureEntry[] = FEATURE_REGISTRY): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = features.map((f, j) => `| ${j} | \`${f.name}\` | ${f.group} | ${cell(f.doc)} | ${NORMALISATION[f.normalise]} |`);
  return ['| column | feature | group | value | normalisation |', '|---|---|---|---|---|', ...rows].join('\n');
}

/**
 * `markdown` with the text between {@link TABLE_BEGIN} and {@link TABLE_END} replaced by
 * {@link featureTable}.
 * @throws Error when either line is missing (or the end comes first).
 */
export function withFeatureTable(markdown: string): string {
  const begin = markdown.indexOf(TABLE_BEGIN);
  const end = markdown.indexOf(TABLE_END);
  if (begin < 0 || end < begin) throw new Error(`no feature table: expected the lines '${TABLE_BEGIN}' and '${TABLE_END}'`);
  return `${markdown.slice(0, begin + TABLE_BEGIN.length)}\n${featureTable()}\n${markdown.slice(end)}`;
}
