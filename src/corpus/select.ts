import type { TreeEntry } from '../repo/git.js';
import { isTestPath, isVendoredPath, languageOf, type Language } from './languages.js';

/**
 * What counts as a source file: the one rule behind the code index (`localize`), dataset mining
 * (candidates and positives of `dataset build` and `dataset import`) and the file-level evaluation
 * (`eval` candidates). A file is a source file when, in this order of checks:
 * 1. its extension is code (`languageOf`, src/corpus/languages.ts) — else `nonSource`;
 * 2. its language is among `languages` (when given) — else `otherLanguages`;
 * 3. it is not in a vendored folder (`isVendoredPath`), unless `includeVendored` — else `vendored`;
 * 4. it is not a test file (`isTestPath`), unless `includeTests` — else `tests`;
 * 5. its size is at most `maxFileBytes` (when both are known) — else `tooLarge`.
 *
 * The callers choose the options, and they differ on purpose:
 * - the code index (`selectSources`, from `IndexSettings`): tests and vendored folders left out by
 *   default, as the SWE-bench protocol's corpus; languages and a 1 MiB cap by settings;
 * - dataset mining and the evaluation ("file localisation for issues at large"): every source file
 *   is a candidate, vendored folders included (a fix there is a real positive), tests by the
 *   caller's flag (`--no-tests`, `--exclude-tests`); no language filter; `eval --max-file-bytes`
 *   applies to the blob when it is read (`StateCorpusBuilder`).
 */
export interface SourceFileRule {
  /** Keep test files (see `isTestPath`). */
  includeTests: boolean;
  /** Keep files in vendored folders (see `isVendoredPath`). */
  includeVendored: boolean;
  /** Keep only these languages (names of src/corpus/languages.ts); empty or absent = every language. */
  languages?: readonly string[];
  /** Files larger than this many bytes are left out; absent = no limit. */
  maxFileBytes?: number;
}

/** Files left out by {@link selectSources}, by reason (counts). */
export interface SelectionSkipped {
  /** Not code by extension (docs, configuration, data). */
  nonSource: number;
  /** Code in a language not asked for. */
  otherLanguages: number;
  /** In a vendored folder (`vendor/`, `third_party/`, `node_modules/` …). */
  vendored: number;
  /** Test files, when `includeTests` is false. */
  tests: number;
  /** Larger than `maxFileBytes`. */
  tooLarge: number;
  /** Build outputs committed beside their sources (see {@link buildOutputs}). */
  buildOutput: number;
}

/**
 * Why the file at `path` is not a source file under `rule` ({@link SourceFileRule}, checks in its
 * order), or undefined when it is one.
 * @param size the file's size in bytes; when absent, `maxFileBytes` is not checked.
 */
export function notSourceReason(path: string, rule: SourceFileRule, size?: number): keyof SelectionSkipped | undefined {
  const language = languageOf(path);
  if (!language) return 'nonSource';
  if (rule.languages && rule.languages.length > 0 && !rule.languages.includes(language)) return 'otherLanguages';
  if (!rule.includeVendored && isVendoredPath(path)) return 'vendored';
  if (!rule.includeTests && isTestPath(path)) return 'tests';
  if (size !== undefined && rule.maxFileBytes !== undefined && size > rule.maxFileBytes) return 'tooLarge';
  return undefined;
}

/**
 * Whether the file at `path` is a source file under `rule` ({@link SourceFileRule}).
 * @param size the file's size in bytes; when absent, `maxFileBytes` is not checked.
 */
export function isSourceFile(path: string, rule: SourceFileRule, size?: number): boolean {
  return notSourceReason(path, rule, size) === undefined;
}

/** Which files of a tree make the code index's corpus (defaults of the SWE-bench protocol). */
export interface SelectOptions {
  /** Keep test files (see `isTestPath`). Default false, as in the SWE-bench protocol. */
  includeTests?: boolean;
  /** Files larger than this many bytes are left out. Default 1 MiB. */
  maxFileBytes?: number;
  /** Keep only these languages; empty or absent = every language. */
  languages?: readonly string[];
}

/** Default cap on file size: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1 << 20;

/** JavaScript and TypeScript: the languages whose builds write `dist/` folders. */
const DIST_LANGUAGES: ReadonlySet<Language> = new Set(['javascript', 'typescript']);

/**
 * The build outputs of a tree listing: files a build wrote that the repository commits beside the
 * sources they were built from (bundles such as axios's `dist/axios.js`, `dist/node/axios.cjs`,
 * which hold every function of `lib/` once more and outrank it). Left out of the code index, like
 * vendored folders; never a fix's target in the Multi-SWE-bench dev set nor in SWE-bench Lite
 * (docs/multi-language.md). Two rules, both on the listing alone:
 * 1. source maps: a file `X.map` with `X` beside it — both are build outputs (`axios.js.map`,
 *    `axios.js`; any language or extension);
 * 2. `dist` folders of JavaScript: every file under a folder named `dist` that holds
 *    JavaScript or TypeScript code, when the listing also has JavaScript or TypeScript code
 *    outside every `dist` folder (the sources; a repository whose only code is its `dist` keeps it).
 *    Only `dist` — the npm convention — and only these languages: `build/` folders hold build
 *    scripts (bat's Rust `build/`), Go's `cmd/dist` is source.
 * @returns the paths of the build outputs (empty when there are none).
 */
export function buildOutputs(entries: readonly TreeEntry[]): Set<string> {
  const out = new Set<string>();
  const paths = new Set(entries.map((e) => e.path));
  for (const p of paths) {
    if (p.endsWith('.map') && paths.has(p.slice(0, -4))) {
      out.add(p);
      out.add(p.slice(0, -4));
    }
  }
  const distRoot = (path: string): string | undefined => {
    const parts = path.split('/');
    for (let i = 0; i < parts.length - 1; i++) if (parts[i] === 'dist') return parts.slice(0, i + 1).join('/');
    return undefined;
  };
  const distsWithCode = new Set<string>();
  let codeOutside = false;
  for (const p of paths) {
    const language = languageOf(p);
    if (!language || !DIST_LANGUAGES.has(language)) continue;
    const root = distRoot(p);
    if (root === undefined) codeOutside = true;
    else distsWithCode.add(root);
  }
  if (codeOutside && distsWithCode.size > 0) {
    for (const p of paths) {
      const root = distRoot(p);
      if (root !== undefined && distsWithCode.has(root)) out.add(p);
    }
  }
  return out;
}

/**
 * The source files of a tree listing for the code index, in listing order, with their language:
 * {@link isSourceFile} with vendored folders left out, tests by `includeTests` (default false),
 * sizes capped at `maxFileBytes` (default 1 MiB) and build outputs ({@link buildOutputs}) left
 * out; everything left out is counted by reason (build outputs after the other reasons).
 */
export function selectSources(entries: readonly TreeEntry[], opts: SelectOptions = {}): {
  sources: { entry: TreeEntry; language: Language }[];
  skipped: SelectionSkipped;
} {
  const rule: SourceFileRule = {
    includeTests: opts.includeTests ?? false,
    includeVendored: false,
    languages: opts.languages,
    maxFileBytes: opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
  };
  const skipped: SelectionSkipped = { nonSource: 0, otherLanguages: 0, vendored: 0, tests: 0, tooLarge: 0, buildOutput: 0 };
  const sources: { entry: TreeEntry; language: Language }[] = [];
  const built = buildOutputs(entries);
  for (const entry of entries) {
    const reason = notSourceReason(entry.path, rule, entry.size) ?? (built.has(entry.path) ? 'buildOutput' : undefined);
    if (reason) skipped[reason]++;
    else sources.push({ entry, language: languageOf(entry.path) as Language });
  }
  return { sources, skipped };
}

/**
 * The files of a tree listing that are not source code but may be changed by a fix (build and
 * package manifests, changelogs, docs, configuration: `Cargo.toml`, `CMakeLists.txt`,
 * `CHANGELOG.md`, `*.yml` …), in listing order, for the code index's non-source documents
 * (`IndexSettings.files` = `all`): files whose extension is not code (`languageOf`), outside
 * vendored folders, not test paths (`isTestPath`: its language-independent rules), not build
 * outputs ({@link buildOutputs}: source maps) and at most `maxFileBytes` (default 1 MiB). Binary
 * files are found when they are read.
 */
export function selectNonSources(entries: readonly TreeEntry[], opts: Pick<SelectOptions, 'maxFileBytes'> = {}): TreeEntry[] {
  const max = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const built = buildOutputs(entries);
  return entries.filter((e) => !languageOf(e.path) && !isVendoredPath(e.path) && !isTestPath(e.path) && !built.has(e.path) && !(e.size !== undefined && e.size > max));
}
