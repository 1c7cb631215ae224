import { indexFilePath, type CodeIndex } from '../index/code-index.js';
import { isIntArray, isRecord, readCheckedJson, writeCheckedJson } from '../util/checked-file.js';
import { decodeSource, isBinary } from '../corpus/decode.js';
import { isGeneratedSource } from '../corpus/generated.js';
import { languageOf, type Language } from '../corpus/languages.js';
import type { GitRepo } from '../repo/git.js';
import type { Localization, RankedItem } from './rollup.js';
import type { ParsedIssue } from '../text/parsed-issue.js';
import { splitItemId } from '../corpus/names.js';
import { fileNumberOf } from './unit-ids.js';

/**
 * Code that a fix seldom changes, though it is source code: the examples, benchmarks, scripts,
 * docs, CI, fuzzing and task-runner folders of the ecosystems' conventions, code in a language
 * the repository holds little of (fmt's Python release scripts beside its C++, a Ruby Homebrew
 * formula in a Rust project, a Python project's admin JavaScript), and generated code that says
 * so in its first lines (a Bison parser, an amalgamation, Go's `Code generated … DO NOT EDIT`:
 * src/corpus/generated.ts). Such files stay in the index and keep their scores; they only may not
 * rank above place `place` (1-based) of a ranking unless the issue names them (see {@link PeripheralRule}).
 *
 * Measured on the Multi-SWE-bench dev set (docs/multi-language.md): the folders alone, then with
 * the language rule, each place chosen by folds of repositories.
 */
export interface PeripheralPlacement {
  /** The first place a peripheral item may take (11: out of the top 10; 0 = the rule is off). */
  place: number;
  /** A language family holding less than this share (0 … 1) of the indexed source text is peripheral (0 = no language is). */
  minShare: number;
}

/**
 * Tag of the stored generated-file list of an index (src/util/checked-file.ts): the ids (places
 * in the index's `filePaths`) of the source files whose heads say they were generated, read
 * from every source file's head at the index's commit.
 */
export const GENERATED_FILES_TAG = 'gen.v1';

/** The stored list: the number of source files it covers (the index's), and the generated ones. */
interface StoredGenerated {
  files: number;
  generated: number[];
}

/** The default (chosen by folds of Multi-SWE-bench repositories: docs/multi-language.md). */
export const DEFAULT_PERIPHERAL_PLACEMENT: PeripheralPlacement = { place: 11, minShare: 0.1 };

/**
 * Folder names whose code is not the product, by the conventions that name them: Cargo's package
 * layout (`examples/`, `benches/`), cargo-fuzz (`fuzz/`), the xtask pattern (`xtask/`), Go's
 * `_examples` (ignored by the go tool), npm's and Python's `scripts/`, `benchmarks/` (asv,
 * pytest-benchmark), `docs/`/`doc/` (Sphinx, rustdoc, godoc sites), `ci/`, `misc/`. Not `contrib/`:
 * Django's and many libraries' `contrib` packages are their product (18 SWE-bench Lite fixes).
 * A path is peripheral when its first or second folder has such a name (`examples/x.rs`,
 * `crates/examples/…`, `sympy/benchmarks/…`), never deeper (`src/docs/` of a docs generator
 * is its product).
 */
export const PERIPHERAL_DIRS: ReadonlySet<string> = new Set([
  'examples', 'example', '_examples', 'benches', 'benchmarks', 'benchmark', 'bench',
  'scripts', 'script', 'docs', 'doc', 'ci', 'fuzz', 'xtask', 'misc',
]);

/** Whether `path` lies in a folder of {@link PERIPHERAL_DIRS}, as its first or second folder. */
export function inPeripheralFolder(path: string): boolean {
  const parts = path.split('/');
  for (let i = 0; i < Math.min(2, parts.length - 1); i++) if (PERIPHERAL_DIRS.has(parts[i])) return true;
  return false;
}

/** Languages that one code base mixes as one (headers, typings, JVM languages): their shares add up. */
const FAMILY: Partial<Record<Language, string>> = {
  c: 'c', cpp: 'c', objc: 'c',
  javascript: 'js', typescript: 'js', vue: 'js', svelte: 'js',
  java: 'jvm', kotlin: 'jvm', scala: 'jvm', groovy: 'jvm',
};

function familyOf(path: string): string | undefined {
  const language = languageOf(path);
  return language === undefined ? undefined : FAMILY[language] ?? language;
}

/**
 * The peripheral files of one code index (see {@link PeripheralPlacement}). A language family's
 * share is its files' part of the tokens of every source file's whole-file document. Whether a
 * file is generated is read from its head at the index's commit when it first shows in a
 * ranking (one `git cat-file` pass per demotion for the files not read before), when a
 * repository is given. Construct once per index.
 */
export class PeripheralRule {
  private readonly minority: ReadonlySet<string>;
  private readonly memo = new Map<string, boolean>();
  /** Source path → whether its head says it was generated (files read so far). */
  private readonly generated = new Map<string, boolean>();
  private blobs: Map<string, string> | undefined;
  private readonly sources: ReadonlySet<string>;

  /** Whether the stored list of generated files was looked for ({@link readHeads}). */
  private storedRead = false;
  /** Whether it was there and whole: then every source file's head is known, none is read. */
  private headsKnown = false;

  /**
   * @param repo the repository of the index, to read generated files' heads (none: no file counts as generated).
   * @param cacheDir where {@link prepare} stored which source files are generated: read instead of git when there.
   */
  constructor(private readonly codeIndex: CodeIndex, readonly placement: PeripheralPlacement, private readonly repo?: GitRepo, private readonly cacheDir?: string) {
    this.sources = new Set(codeIndex.filePaths);
    const tokens = new Map<string, number>();
    let all = 0;
    const { fieldLength, fieldNames } = codeIndex.fileIndex;
    const F = fieldNames.length;
    codeIndex.filePaths.forEach((path, d) => {
      const family = familyOf(path);
      if (family === undefined) return;
      let n = 0;
      for (let f = 0; f < F; f++) n += fieldLength[d * F + f];
      tokens.set(family, (tokens.get(family) ?? 0) + n);
      all += n;
    });
    this.minority = new Set([...tokens].filter(([, n]) => all > 0 && n / all < placement.minShare).map(([family]) => family));
  }

  /** The language families under the least share, sorted (for reports and tests). */
  get minorityFamilies(): string[] {
    return [...this.minority].sort();
  }

  /**
   * Whether source file `path` is peripheral: in a conventional folder, of a minority language, or
   * generated (as far as read: see {@link readHeads}).
   */
  isPeripheral(path: string): boolean {
    let p = this.memo.get(path);
    if (p === undefined) {
      const family = familyOf(path);
      p = inPeripheralFolder(path) || (family !== undefined && this.minority.has(family));
      this.memo.set(path, p);
    }
    return p || this.generated.get(path) === true;
  }

  /**
   * Reads the heads of the source files among `paths` not read yet, and notes which are generated:
   * from the list {@link prepare} stored for the index when there (no git process), else from git.
   */
  async readHeads(paths: Iterable<string>): Promise<void> {
    if (!this.repo) return;
    if (!this.storedRead) this.readStored();
    const wanted = [...new Set(paths)].filter((p) => this.sources.has(p) && !this.generated.has(p));
    if (wanted.length === 0) return;
    this.blobs ??= new Map((await this.repo.listFiles(this.codeIndex.commit)).entries.map((e) => [e.path, e.blob]));
    const byBlob = new Map<string, string[]>();
    for (const p of wanted) {
      const blob = this.blobs.get(p);
      this.generated.set(p, false);
      if (blob !== undefined) byBlob.set(blob, [...(byBlob.get(blob) ?? []), p]);
    }
    for await (const [blob, buf] of this.repo.readBlobs([...byBlob.keys()])) {
      if (buf === null || isBinary(buf)) continue;
      const head = decodeSource(buf.subarray(0, 16384));
      if (isGeneratedSource(head)) for (const p of byBlob.get(blob) ?? []) this.generated.set(p, true);
    }
  }

  /** The stored generated-file list of the index (see {@link prepare}), when there and whole. */
  private readStored(): void {
    this.storedRead = true;
    const file = this.storedFile();
    if (!file) return;
    const { filePaths } = this.codeIndex;
    const valid = (x: unknown): x is StoredGenerated => isRecord(x) && x.files === filePaths.length && isIntArray(x.generated, filePaths.length);
    const stored = readCheckedJson(file, GENERATED_FILES_TAG, valid);
    if (!stored) return;
    for (const p of filePaths) this.generated.set(p, false);
    for (const f of stored.generated) this.generated.set(filePaths[f], true);
    this.headsKnown = true;
  }

  private storedFile(): string | undefined {
    return this.cacheDir ? indexFilePath(this.cacheDir, this.codeIndex.commit, this.codeIndex.settings, 'generated') : undefined;
  }

  /**
   * Reads the head of every source file of the index (one `git cat-file` pass) and stores which
   * are generated beside the index, so that later processes read no head ({@link readHeads}). A
   * function of the commit and the index's files alone: the list is never stale.
   * @throws the fs error when the cache folder cannot take the file.
   */
  async prepare(): Promise<void> {
    const file = this.storedFile();
    if (!this.repo || !file) return;
    if (!this.storedRead) this.readStored();
    const { filePaths } = this.codeIndex;
    if (filePaths.every((p) => this.generated.has(p))) return;
    await this.readHeads(filePaths);
    this.headsKnown = true;
    const generated = filePaths.flatMap((p, f) => (this.generated.get(p) === true ? [f] : []));
    writeCheckedJson(file, GENERATED_FILES_TAG, { files: filePaths.length, generated } satisfies StoredGenerated, { fsync: false });
  }

  /**
   * The rankings with every peripheral item the issue does not name moved to place `place` or
   * below, at each level (a module's or function's file is the path of its id: `splitItemId`). The other items keep their order and close up; the moved ones keep theirs among
   * themselves and merge back by their former order from place `place` on. Scores are lowered
   * where needed so that they still descend. Unchanged when the rule is off.
   * @param issue names a file when its text holds the file name (`docopt.py`) or, for a stem of 4
   *   characters or more, its stem as a word (`docopt`).
   */
  async demote(loc: Localization, issue: ParsedIssue): Promise<Localization> {
    if (this.placement.place <= 1) return loc;
    const pathOfItem = (id: string) => splitItemId(id, (p) => fileNumberOf(this.codeIndex, p) !== undefined).path;
    if (this.repo && !this.storedRead) this.readStored();
    if (this.repo && !this.headsKnown) {
      await this.readHeads([...loc.files.map((f) => f.id), ...loc.modules.map((m) => pathOfItem(m.id)), ...loc.functions.map((f) => pathOfItem(f.id))]);
    }
    const named = namedIn(issue.text);
    const moved = (path: string | undefined) => path !== undefined && this.isPeripheral(path) && !named(path);
    return {
      ...loc,
      files: demoteItems(loc.files, (id) => moved(id), this.placement.place),
      modules: demoteItems(loc.modules, (id) => moved(pathOfItem(id)), this.placement.place),
      functions: demoteItems(loc.functions, (id) => moved(pathOfItem(id)), this.placement.place),
    };
  }
}

/** Whether an issue text names a file: its file name anywhere, or its stem (4+ characters) as a word. */
function namedIn(text: string): (path: string) => boolean {
  let words: Set<string> | undefined;
  return (path) => {
    const base = path.slice(path.lastIndexOf('/') + 1);
    if (text.includes(base)) return true;
    const dot = base.lastIndexOf('.');
    const stem = dot > 0 ? base.slice(0, dot) : base;
    if (stem.length < 4) return false;
    words ??= new Set(text.split(/[^A-Za-z0-9_]+/));
    return words.has(stem);
  };
}

/**
 * `items` with those `moved` says kept out of places 1 … `place` − 1: the others keep their
 * order and close up, and from place `place` on both merge back by their order in `items`.
 * When too few others remain, the moved items follow them. Scores are clamped to descend.
 */
export function demoteItems(items: readonly RankedItem[], moved: (id: string) => boolean, place: number): RankedItem[] {
  const flags = items.map((it) => moved(it.id));
  if (!flags.some(Boolean)) return items.slice();
  const out: RankedItem[] = [];
  const taken = new Uint8Array(items.length);
  // places 1 … place − 1: the next item that is not moved
  for (let k = 0; k < items.length && out.length < place - 1; k++) {
    if (flags[k]) continue;
    out.push(items[k]);
    taken[k] = 1;
  }
  for (let k = 0; k < items.length; k++) if (!taken[k]) out.push(items[k]);
  for (let k = 1; k < out.length; k++) {
    if (out[k].score > out[k - 1].score) out[k] = { ...out[k], score: out[k - 1].score };
  }
  return out;
}
