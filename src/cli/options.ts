import { Command, Option } from 'commander';
import { IssuelocError } from '../errors.js';
import { DEFAULT_INDEX_SETTINGS, FIELDS, FILE_SELECTIONS, type FileSelection, type IndexSettings } from '../index/code-index.js';
import { parseNumberOption } from '../util/number-option.js';
import { DEFAULT_TITLE_WEIGHT } from '../retrieve/query.js';
import { LANGUAGE_BY_EXTENSION, type Language } from '../corpus/languages.js';

/** Adds the options that decide what is indexed (shared by `index` and `localize`). */
export function indexOptions(cmd: Command): Command {
  return cmd
    .option('--cache-dir <path>', 'cache folder (default: ISSUELOC_CACHE_DIR, else ~/.cache/issueloc/<name>-<hash>, outside the work tree)')
    .option('--cache-max-size <size>', 'size cap of the cache folder, least recently used entries removed after a build (default: ISSUELOC_CACHE_MAX_SIZE, else 2G)')
    .option('--include-tests', 'index test files too')
    .option('--languages <list>', 'index only these languages, e.g. python,java (default: all)')
    .addOption(new Option('--files <which>', 'source: source files only (SweRank protocol); all: also rank the files that are not code (CHANGELOG.md, Cargo.toml, docs, config) as whole files (default: source)').choices([...FILE_SELECTIONS]))
    .option('--stem', 'Porter-stem tokens')
    .option('--max-file-bytes <n>', `skip files larger than this (default ${DEFAULT_INDEX_SETTINGS.maxFileBytes})`)
    .option('--max-body-words <n>', `words of each function kept (default ${DEFAULT_INDEX_SETTINGS.maxBodyWords})`);
}

/** Index settings from parsed options. */
export function parseIndexSettings(o: Record<string, unknown>): Partial<IndexSettings> {
  const s: Partial<IndexSettings> = {};
  if (o.includeTests) s.includeTests = true;
  if (o.stem) s.stem = true;
  if (o.files !== undefined) {
    if (!FILE_SELECTIONS.includes(o.files as FileSelection)) throw new IssuelocError(`--files: unknown value '${String(o.files)}' (values: ${FILE_SELECTIONS.join(', ')})`);
    s.files = o.files as FileSelection;
  }
  if (o.languages !== undefined) {
    s.languages = String(o.languages).split(',').map((l) => l.trim().toLowerCase()).filter(Boolean);
    if (s.languages.length === 0) throw new IssuelocError('--languages: no language given (e.g. python,java)');
    const known = new Set(Object.values(LANGUAGE_BY_EXTENSION));
    const unknown = s.languages.filter((l) => !known.has(l as Language));
    if (unknown.length > 0) throw new IssuelocError(`--languages: unknown language ${unknown.join(', ')} (known: ${[...known].sort().join(', ')})`);
  }
  if (o.maxFileBytes !== undefined) s.maxFileBytes = parseNumberOption(o.maxFileBytes, '--max-file-bytes', { min: 1, whole: true });
  if (o.maxBodyWords !== undefined) s.maxBodyWords = parseNumberOption(o.maxBodyWords, '--max-body-words', { min: 0, whole: true });
  return s;
}

/** Adds the ranking options: BM25F+ parameters and the weights of the other evidence. */
export function rankingOptions(cmd: Command): Command {
  return cmd
    .option('--file-prior <x>', 'weight of the whole-file score added to each function (0 = none)')
    .option('--title-weight <x>', `extra query weight of each word of the issue's title, its first line (default ${DEFAULT_TITLE_WEIGHT})`)
    .option('--no-signals', 'ignore stack frames, paths and names written in the issue')
    .option('--signal-weights <list>', 'weights of the issue-text signals, e.g. frameFile=0.2,namedFunction=0.1')
    .option('--k1 <x>', 'BM25 term-frequency saturation k1')
    .option('--b <x>', 'BM25 length normalisation b (0..1)')
    .option('--delta <x>', 'BM25+ lower bound δ (0 = plain BM25F)')
    .option('--weights <list>', `field weights as ${FIELDS.map((f) => `${f}=W`).join(',')}`);
}

/** A commander argument parser of a whole-number option (see {@link parseNumberOption}). */
export function wholeOption(name: string, min: number, max?: number): (v: string) => number {
  return (v) => parseNumberOption(v, name, { min, max, whole: true });
}
