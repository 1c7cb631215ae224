import type { CodeIndex } from '../index/code-index.js';
import type { IssueSignals } from '../text/issue-signals.js';
import { fileStem, lastNamePart } from '../corpus/names.js';
import { MAX_DOTTED_PARTS, scopedNameParts } from '../text/mentions.js';
import { languageOf, type Language } from '../corpus/languages.js';
import { docsByNameOf, DocsOfFile, type DocsByName } from './unit-lookup.js';

/**
 * Weights of the issue-text signals, added to a function's normalised score (the best function
 * of an issue scores 1 before boosts). 0 switches a signal off.
 */
export interface SignalWeights {
  /** The function's file appears in a stack-trace frame. */
  frameFile: number;
  /** The function itself is a frame's function (in a frame's file when the frame names one). */
  frameFunction: number;
  /** The function's file is mentioned as a path (`src/x.py`, `Foo.java`) or dotted module name. */
  mentionedFile: number;
  /**
   * The function (or its class) is named in a dotted or scoped name (`pkg.mod.Class.method`,
   * `crate::module::func`, `ns::Class::method`, `Class#method`, Go `pkg.Func`).
   */
  mentionedUnit: number;
  /** The function's own name is written in the issue as code (`snake_case`, `camelCase`, `name(`, `` `name` ``). */
  namedFunction: number;
}

/** Default signal weights (set by bench/swebench-lite; docs/results.md). */
export const DEFAULT_SIGNAL_WEIGHTS: SignalWeights = {
  frameFile: 0.1,
  frameFunction: 0.15,
  mentionedFile: 0.1,
  mentionedUnit: 0.15,
  namedFunction: 0.075,
};

/** Which signals fired for one function-level document (for `--explain`). */
export type SignalName = keyof SignalWeights;

/** Per-document boosts and the signals behind them. */
export interface SignalBoosts {
  /** boost[d], added to the normalised score of document d (the resolver's array: it holds these until its next `boosts`). */
  boost: Float32Array;
  /** Signals that fired, per document with a boost. */
  reasons: Map<number, SignalName[]>;
  /**
   * Per document with a boost, what in the issue fired each of its `reasons` (same order): the
   * frame's line, the written path or dotted name, the name written as code.
   */
  evidence: Map<number, string[]>;
  /**
   * Per file-level document named by a file-level signal (`frameFile`, `mentionedFile`): the
   * boost those signals give each of its functions, and which fired. Files with no function-level
   * document get ranked with it (`Localizer.scoreAll`).
   */
  files: Map<number, { boost: number; reasons: SignalName[]; evidence: string[] }>;
}

/**
 * Resolves the code an issue names (stack frames, file paths, dotted names, function names) to
 * the documents of an index and returns the boost of each document.
 *
 * Paths resolve by the longest component-wise suffix match against the repository's files
 * (`/usr/lib/python3/site-packages/django/db/models/query.py` → `django/db/models/query.py`);
 * a bare file name that fits more than `maxAmbiguous` files is ignored. Paths outside the
 * indexed files (vendored, installed elsewhere, tests when not indexed) simply match nothing.
 *
 * Cost: linear in the number of signals (each list capped by `extractIssueSignals`) times the
 * files sharing a name; a dotted name costs at most {@link MAX_DOTTED_PARTS}² lookups. Index-wide
 * structures (name → documents, the module-path trie) are built once per {@link SignalResolver}.
 */
export class SignalResolver {
  private readonly filesByBase = new Map<string, number[]>();
  private readonly docsOfFile: DocsOfFile;
  private readonly docsByName: DocsByName;
  private readonly splitPaths: string[][];
  private moduleTrie: ModuleTrie | undefined;
  private scopedTrie: ModuleTrie | undefined;
  /** Per file: its language (undefined for none). */
  private readonly languages: (Language | undefined)[];

  constructor(private readonly codeIndex: CodeIndex, private readonly maxAmbiguous = 3) {
    const { filePaths, fileOfUnit } = codeIndex;
    this.splitPaths = filePaths.map((p) => p.split('/'));
    this.languages = filePaths.map((p) => languageOf(p));
    filePaths.forEach((p, f) => {
      const base = fileStem(p);
      push(this.filesByBase, base, f);
      if (base === '__init__' || base === 'index' || base === 'mod') {
        const parts = p.split('/');
        if (parts.length >= 2) push(this.filesByBase, parts[parts.length - 2], f);
      }
    });
    this.docsOfFile = new DocsOfFile(fileOfUnit, filePaths.length);
    this.docsByName = docsByNameOf(codeIndex.table);
    this.qualifiedNames = new Array<string | undefined>(codeIndex.table.length);
    this.lastNames = new Array<string | undefined>(codeIndex.table.length);
  }

  /** Per document, its qualified name and that name's last part, decoded on first use (signals read a file's every name). */
  private readonly qualifiedNames: (string | undefined)[];
  private readonly lastNames: (string | undefined)[];

  private qualifiedNameOf(d: number): string {
    return (this.qualifiedNames[d] ??= this.codeIndex.table.qualifiedName(d));
  }

  private lastNameOf(d: number): string {
    return (this.lastNames[d] ??= lastNamePart(this.qualifiedNameOf(d)));
  }

  /** The array of the last {@link boosts}, and the documents it boosted (set back to 0 by the next call). */
  private boostArray: Float32Array | undefined;
  private boosted: Int32Array = new Int32Array(0);

  /**
   * Boosts of every document for an issue's signals. `boost` is an array this resolver reuses:
   * it holds these boosts until the next call.
   */
  boosts(signals: IssueSignals, weights: SignalWeights = DEFAULT_SIGNAL_WEIGHTS): SignalBoosts {
    const boost = (this.boostArray ??= new Float32Array(this.codeIndex.table.length));
    for (let i = 0; i < this.boosted.length; i++) boost[this.boosted[i]] = 0;
    const reasons = new Map<number, SignalName[]>();
    const evidence = new Map<number, string[]>();
    // per signal, each document it fired on with the first issue text that fired it and the
    // largest strength (a frame's factor, else 1)
    const fired = new Map<SignalName, Map<number, Firing>>();
    const fire = (name: SignalName, docs: Iterable<number>, why: string, factor = 1) => {
      if (weights[name] <= 0) return;
      let set = fired.get(name);
      if (!set) fired.set(name, (set = new Map()));
      for (const d of docs) raise(set, d, why, factor);
    };
    const firedFiles = new Map<SignalName, Map<number, Firing>>();
    // a file-level signal: every function of file f, and the file itself
    const fireFile = (name: 'frameFile' | 'mentionedFile', f: number, why: string, factor = 1) => {
      if (weights[name] <= 0) return;
      fire(name, this.docsOfFile.of(f), why, factor);
      let set = firedFiles.get(name);
      if (!set) firedFiles.set(name, (set = new Map()));
      raise(set, f, why, factor);
    };
    const resolved = signals.frames.map((frame) => this.frameFiles(frame));
    const factors = frameFactors(signals.frames, resolved);
    signals.frames.forEach((frame, i) => {
      const files = resolved[i].files;
      const factor = factors[i];
      const why = frame.raw.length > 120 ? `${frame.raw.slice(0, 117)}...` : frame.raw;
      // Python files keep full strength whatever frame names them (Python's rankings unchanged)
      const strength = (f: number) => (factor === 1 || isPythonLanguage(this.languages[f]) ? 1 : factor);
      for (const f of files) fireFile('frameFile', f, why, strength(f));
      if (frame.function) {
        const fn = lastNamePart(frame.function);
        if (files.length === 0) fire('frameFunction', [], why);
        for (const f of files) fire('frameFunction', this.docsOfFile.of(f).filter((d) => this.lastNameOf(d) === fn), why, strength(f));
        // a frame of another language that names no file (a linker's symbol, a frame without
        // debug information): its function by qualified name, as a scoped name would name it
        if (frame.language !== 'python' && frame.file === undefined && files.length === 0 && frame.className) {
          fire('frameFunction', this.unitsBySuffix([...frame.className.split(/::|\./), frame.function]), why, factor);
        }
      }
    });
    for (const p of signals.filePaths) {
      for (const f of this.resolvePath(p)) fireFile('mentionedFile', f, p);
    }
    // a resolved name fires its files, and within them the units its remainder names
    const fireResolved = (name: string, { files, rest }: { files: number[]; rest: string }) => {
      for (const f of files) {
        fireFile('mentionedFile', f, name);
        if (rest) fire('mentionedUnit', this.docsOfFile.of(f).filter((d) => {
          const q = this.qualifiedNameOf(d);
          return q === rest || q.startsWith(`${rest}.`) || rest.startsWith(`${q}.`);
        }), name);
      }
    };
    for (const name of signals.dottedNames) fireResolved(name, this.resolveDotted(name));
    for (const name of signals.scopedNames ?? []) {
      const parts = scopedNameParts(name);
      fireResolved(name, this.resolveScoped(parts));
      fire('mentionedUnit', this.unitsBySuffix(parts), name);
    }
    for (const name of signals.dottedNames) fire('mentionedUnit', this.unitsBySuffix(name.split('.')), name);
    // last parts of scoped names name functions of the languages that write them (not Python's)
    for (const name of signals.scopedNames ?? []) {
      const parts = scopedNameParts(name);
      const docs = this.docsByName.get(parts[parts.length - 1]);
      if (docs && docs.length <= 20) fire('namedFunction', docs.filter((d) => !this.isPythonDoc(d)), name);
    }
    const codeNames = new Set<string>();
    for (const id of signals.identifiers) if (!id.includes('.')) codeNames.add(id);
    for (const c of signals.calledNames) codeNames.add(lastNamePart(c));
    for (const c of signals.inlineCode ?? []) if (!c.includes('.')) codeNames.add(c);
    for (const name of codeNames) {
      const docs = this.docsByName.get(name);
      if (docs && docs.length <= 20) fire('namedFunction', docs, name);
    }
    for (const [name, docs] of fired) {
      for (const [d, { why, factor }] of docs) {
        boost[d] += factor === 1 ? weights[name] : weights[name] * factor;
        const r = reasons.get(d);
        if (r) { r.push(name); evidence.get(d)!.push(why); } else { reasons.set(d, [name]); evidence.set(d, [why]); }
      }
    }
    this.boosted = Int32Array.from(reasons.keys());
    const files = new Map<number, { boost: number; reasons: SignalName[]; evidence: string[] }>();
    for (const [name, set] of firedFiles) {
      for (const [f, { why, factor }] of set) {
        const w = factor === 1 ? weights[name] : weights[name] * factor;
        const b = files.get(f);
        if (b) { b.boost += w; b.reasons.push(name); b.evidence.push(why); }
        else files.set(f, { boost: w, reasons: [name], evidence: [why] });
      }
    }
    return { boost, reasons, evidence, files };
  }

  /**
   * The files of a stack frame: its written path; for a JVM frame, first its class
   * (`com.pkg.Outer$Inner` → `com/pkg/Outer.java`, non-Python files only), which tells apart
   * files of one base name.
   */
  private frameFiles(frame: IssueSignals['frames'][number]): ResolvedFrame {
    if (frame.language === 'java' && frame.className) {
      const cls = frame.className.replace(/\$.*$/, '');
      const files = this.resolveDotted(cls).files.filter((f) => !isPythonLanguage(this.languages[f]));
      if (files.length > 0) return { files, own: true };
    }
    if (frame.file) {
      const { files, depth } = this.resolvePathDepth(frame.file);
      return { files, own: depth >= 2 };
    }
    return { files: frame.className ? this.resolveDotted(frame.className).files : [], own: false };
  }

  private isPythonDoc(d: number): boolean {
    return isPythonLanguage(this.languages[this.codeIndex.fileOfUnit[d]]);
  }

  /**
   * Function-level documents of non-Python files whose qualified name ends with the last two or
   * more parts of `parts` (`Bytes::make_mut` → `Bytes.make_mut`; `fmt::v10::detail::checker` →
   * `fmt.detail.checker`; `Gson#toJson`); a Go unit's name is read with its package (its folder)
   * in front, so `http.ListenAndServe` names `ListenAndServe` of `net/http/server.go`. None when
   * more than 20 match. Python files are left to the module-path resolution of dotted names.
   */
  unitsBySuffix(parts: readonly string[]): number[] {
    if (parts.length < 2 || parts.length > MAX_DOTTED_PARTS) return [];
    const last = parts[parts.length - 1];
    const before = parts[parts.length - 2];
    const { fileOfUnit } = this.codeIndex;
    const out: number[] = [];
    for (const d of this.docsByName.get(last) ?? []) {
      const f = fileOfUnit[d];
      const language = this.languages[f];
      if (isPythonLanguage(language)) continue;
      const q = this.qualifiedNameOf(d);
      const dot = q.lastIndexOf('.', q.length - last.length - 2);
      const owner = q.length > last.length ? q.slice(dot + 1, q.length - last.length - 1) : '';
      let ok = owner === before;
      if (!ok && language === 'go' && owner === '') {
        const segs = this.splitPaths[f];
        ok = segs.length >= 2 && segs[segs.length - 2] === before;
      }
      if (ok && out.push(d) > 20) return [];
    }
    return out;
  }

  /** File documents that a written path names (longest component-wise suffix match). */
  resolvePath(written: string): number[] {
    return this.resolvePathDepth(written).files;
  }

  /** {@link resolvePath}, with the number of trailing path components the files share with `written`. */
  private resolvePathDepth(written: string): { files: number[]; depth: number } {
    const parts = written.replace(/\\/g, '/').split('/').filter((p) => p && p !== '.');
    if (parts.length === 0) return { files: [], depth: 0 };
    const candidates = this.filesByBase.get(fileStem(parts[parts.length - 1])) ?? [];
    let best = 0;
    let bestFiles: number[] = [];
    for (const f of candidates) {
      const mine = this.splitPaths[f];
      if (mine[mine.length - 1] !== parts[parts.length - 1]) continue;
      let n = 1;
      while (n < parts.length && n < mine.length && mine[mine.length - 1 - n] === parts[parts.length - 1 - n]) n++;
      if (n > best) { best = n; bestFiles = [f]; }
      else if (n === best) bestFiles.push(f);
    }
    if (best === 1 && bestFiles.length > this.maxAmbiguous) return { files: [], depth: 0 };
    return { files: bestFiles, depth: best };
  }

  /**
   * Files that a dotted name names (`django.db.models.query.QuerySet` → django/db/models/query.py,
   * rest `QuerySet`): the longest prefix of the name that ends a file's module path (its folders
   * and file name without extension; the folders alone for `__init__`, `index` and `mod` files).
   * Among the files whose module path ends with the most parts of that prefix, all are returned
   * (in file order); a prefix matched by one part only counts when it is the whole prefix (the
   * name's first part) and names at most `maxAmbiguous` files.
   *
   * Cost: at most {@link MAX_DOTTED_PARTS}² lookups in a trie of the module paths read backwards
   * (built on first use), whatever the repository's size; a name of more parts names nothing.
   */
  resolveDotted(name: string): { files: number[]; rest: string } {
    const parts = name.split('.').filter(Boolean);
    if (parts.length > MAX_DOTTED_PARTS) return { files: [], rest: '' };
    const trie = (this.moduleTrie ??= this.buildModuleTrie());
    return longestModuleMatch(trie, parts, (files, i) => files.length <= this.maxAmbiguous && i === 1);
  }

  /**
   * Files that a scoped name (`crate::module::func`, `grep_regex::literal::LiteralSets`,
   * `fmt::format`, parts as {@link scopedNameParts} gives them) names, by the module paths of the
   * Rust, C and C++ files: a Rust file's path without `src` folders, `-` read as `_` and
   * `mod.rs`, `lib.rs`, `main.rs` standing for their folder (`grep-regex/src/literal.rs` →
   * `grep_regex::literal`); a C/C++ file's folders and stem (`include/fmt/format.h`). A leading
   * `crate`, `self` or `super` is dropped. Two parts must match, or one Rust module named first
   * (`walk::Walk`, at most `maxAmbiguous` files); `rest` is the remainder, joined by dots.
   */
  resolveScoped(written: readonly string[]): { files: number[]; rest: string } {
    let parts = written;
    while (parts.length > 0 && (parts[0] === 'crate' || parts[0] === 'self' || parts[0] === 'super')) parts = parts.slice(1);
    if (parts.length === 0 || parts.length > MAX_DOTTED_PARTS) return { files: [], rest: '' };
    const trie = (this.scopedTrie ??= this.buildScopedTrie());
    return longestModuleMatch(trie, parts, (files, i) => i === 1 && files.length <= this.maxAmbiguous && files.every((f) => this.languages[f] === 'rust'));
  }

  /** The trie of {@link resolveScoped}: module paths of Rust, C and C++ files, read backwards. */
  private buildScopedTrie(): ModuleTrie {
    const paths: (string[] | undefined)[] = this.splitPaths.map((segments, f) => {
      const language = this.languages[f];
      const stem = fileStem(segments[segments.length - 1]);
      if (language === 'c' || language === 'cpp') return [...segments.slice(0, -1), stem];
      if (language !== 'rust') return undefined;
      const dirs = segments.slice(0, -1).filter((s) => s !== 'src').map((s) => s.replace(/-/g, '_'));
      return stem === 'mod' || stem === 'lib' || stem === 'main' ? dirs : [...dirs, stem];
    });
    return trieOf(paths);
  }

  /**
   * The module paths of the files as a trie read backwards (`django/db/models/query.py` →
   * query, models, db, django): node 0 is the root, `edges` maps `${node}/${part}` to a child,
   * `files[node]` lists (in file order) the files whose module path ends with that node's parts.
   */
  private buildModuleTrie(): ModuleTrie {
    return trieOf(this.splitPaths.map((segments) => {
      const base = fileStem(segments[segments.length - 1]);
      const folders = segments.slice(0, -1);
      return base === '__init__' || base === 'index' || base === 'mod' ? folders : [...folders, base];
    }));
  }
}

/** One signal's firing on a document or file: the first issue text that fired it, its largest strength. */
interface Firing {
  why: string;
  factor: number;
}

/** Records a firing on `key`: the first `why` stays unless a later one fires stronger. */
function raise(set: Map<number, Firing>, key: number, why: string, factor: number): void {
  const had = set.get(key);
  if (had === undefined) set.set(key, { why, factor });
  else if (factor > had.factor) { had.why = why; had.factor = factor; }
}

/**
 * The indexed files of a stack frame, and whether they are surely the repository's own code: the
 * frame's class named them, or two or more trailing components of its path matched
 * (`node_modules/axios/lib/utils.js` → `lib/utils.js` when the repository is axios), not a bare
 * file name.
 */
export interface ResolvedFrame {
  files: number[];
  own: boolean;
}

/**
 * Strength of a frame's signals for frames of other languages than Python, whose reports say
 * which frame is the crash site: a report's own place (a panic's location, a compiler error, a
 * failing test line, an undefined symbol) and the top application frame (the first frame, innermost
 * first, of its language that names indexed files and is no library frame — or a library frame
 * whose path surely names the repository's own files, as Python's site-packages frames do when the
 * repository is that package) fire fully; further application frames at {@link DEEPER_FRAME};
 * other library frames (runtime, standard library, installed dependencies: `StackFrame.library`)
 * and notes (compiler notes, the include chain) at {@link CONTEXT_FRAME}. Python frames, and any
 * frame on a Python file, fire fully, as they always have.
 */
export function frameFactors(frames: readonly IssueSignals['frames'][number][], resolved: readonly ResolvedFrame[]): number[] {
  const topSeen = new Set<string>();
  return frames.map((frame, i) => {
    if (frame.language === 'python') return 1;
    if ((frame.library && !resolved[i].own) || frame.kind === 'note') return CONTEXT_FRAME;
    if (frame.kind === 'site') return 1;
    if (resolved[i].files.length === 0 || topSeen.has(frame.language)) return DEEPER_FRAME;
    topSeen.add(frame.language);
    return 1;
  });
}

/** Strength of the application frames below a report's top one (see {@link frameFactors}). */
export const DEEPER_FRAME = 0.75;
/** Strength of library frames and compiler notes (see {@link frameFactors}). */
export const CONTEXT_FRAME = 0.5;

/**
 * A trie of module paths read backwards (see `buildModuleTrie`): `paths[f]` is file f's module
 * path (undefined: not in the trie).
 */
function trieOf(paths: readonly (readonly string[] | undefined)[]): ModuleTrie {
  const edges = new Map<string, number>();
  const files: number[][] = [[]];
  paths.forEach((path, f) => {
    if (path === undefined) return;
    let node = 0;
    for (let k = path.length - 1; k >= 0; k--) {
      const key = `${node}/${path[k]}`;
      let child = edges.get(key);
      if (child === undefined) {
        child = files.length;
        edges.set(key, child);
        files.push([]);
      }
      node = child;
      files[node].push(f);
    }
  });
  return { edges, files };
}

function isPythonLanguage(language: Language | undefined): boolean {
  return language === 'python' || language === 'cython';
}

/**
 * The longest match of a name's parts against a {@link ModuleTrie}: for each end part i (last
 * first), the module paths are walked backwards from parts[i - 1]; the deepest node reached is the
 * match, its files and the parts after i (`rest`, joined by dots). A match of one part only counts
 * when `acceptSingle(files, i)` says so.
 */
function longestModuleMatch(trie: ModuleTrie, parts: readonly string[], acceptSingle: (files: readonly number[], i: number) => boolean): { files: number[]; rest: string } {
  for (let i = parts.length; i >= 1; i--) {
    let node = 0;
    let n = 0;
    while (n < i) {
      const child = trie.edges.get(`${node}/${parts[i - 1 - n]}`);
      if (child === undefined) break;
      node = child;
      n++;
    }
    if (n === 0) continue;
    const files = trie.files[node];
    if (n === 1 && !acceptSingle(files, i)) continue;
    return { files: files.slice(), rest: parts.slice(i).join('.') };
  }
  return { files: [], rest: '' };
}

interface ModuleTrie {
  edges: Map<string, number>;
  files: number[][];
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}


