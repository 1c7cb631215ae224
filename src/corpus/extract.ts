import { createRequire } from 'node:module';
import { Language as Grammar, Parser, type Node } from 'web-tree-sitter';
import { languageOf } from './languages.js';
import { specFor, type LanguageSpec } from './extract-specs.js';

export { extractorKey, extractorOf } from './extract-specs.js';
import type { CodeUnit, UnitKind } from './types.js';
import { editedTree, type KeptParse } from './reparse.js';
import { IssuelocError } from '../errors.js';

const require = createRequire(import.meta.url);

let initialised: Promise<void> | undefined;
const parsers = new Map<string, Promise<Parser>>();
/** The grammar loads, one after another (settled, never rejected). */
let loads: Promise<void> = Promise.resolve();
/** Grammar loads asked for and not settled. */
let loading = 0;

/**
 * One Parser per grammar, its wasm loaded on first use. Loads run one
 * at a time and no parse runs while one is under way ({@link noLoadUnderWay}): web-tree-sitter
 * links a grammar into the wasm memory the parsers share across awaits, and a parse in between
 * gave wrong trees (files of another language lost most of their units when several languages
 * were extracted at once: test/corpus/extract-concurrency.test.ts).
 */
function parserFor(grammar: string): Promise<Parser> {
  let p = parsers.get(grammar);
  if (!p) {
    loading++;
    p = loads.then(async () => {
      initialised ??= Parser.init();
      await initialised;
      // the grammars of the languages indexed by function, as the GitHub Action has them (made from the
      // tree-sitter-wasms package by `npm run build:action`) and the npm package ships them (package.json
      // `files`): 15 grammars, not that package's 36; the path is from dist/src/corpus/, in a checkout
      // and an installed package alike
      const wasm = require.resolve(`../../../action/bundle/grammars/tree-sitter-${grammar}.wasm`);
      const parser = new Parser();
      parser.setLanguage(await Grammar.load(wasm));
      return parser;
    });
    loads = p.then(() => undefined, () => undefined).finally(() => {
      loading--;
    });
    p.catch(() => parsers.delete(grammar)); // a failed load may be retried
    parsers.set(grammar, p);
  }
  return p;
}

/** The first line of an error's message. */
const oneLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0];

/** Settles when no grammar load is under way (check `loading` again before a parse: another may start). */
async function noLoadUnderWay(): Promise<void> {
  while (loading > 0) await loads;
}


/** The whole-file unit: id = path, qualifiedName ''. */
export function fileUnit(path: string, text: string): CodeUnit {
  // the number of `sourceLines`, less the empty one after a final line break
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  if (text.endsWith('\n')) lines--;
  return { id: path, path, kind: 'file', qualifiedName: '', startLine: 1, endLine: Math.max(1, lines), text };
}

/**
 * The code units of one source file: first the file unit, then its classes and functions in
 * line order (pre-order of the tree).
 *
 * Rules (the SWE-bench / LocAgent protocol, `extract_functions` of the reference evaluator ref_eval.py, for
 * Python; the same ideas for the other languages, see `extract-specs.ts`):
 * - units are top-level functions, classes (and other class-like containers), and the methods of
 *   classes; nested classes qualify: `Outer.Inner.method`; id = `path:Qualified.name`;
 * - module- and class-level `if`/`try`/`with`/`for`/`while` blocks are looked into;
 * - functions nested in functions are part of their parent, never units of their own;
 * - test-only items inside source files (Rust `#[cfg(test)] mod tests { … }`, `#[test] fn`) are
 *   no units, nor is anything inside them (their text stays in the file unit), unless
 *   `testItems` ({@link ExtractOptions});
 * - spans are 1-based inclusive line numbers and include decorators / annotations / attributes;
 *   `text` is those lines, or, when the first and last lines hold more than
 *   {@link MAX_TEXT_OUTSIDE_UNIT} characters outside the unit (minified code: many functions on one
 *   line), exactly the unit's own source range (from its decorators to its last token);
 * - ids need not be unique: overloads and redefinitions (a property and its setter) share one,
 *   as in the reference protocol (consumers keep the first occurrence when ranking; the lines an id
 *   shows are its unit of most lines, `shownUnit` in ./names.ts).
 *
 * Languages without a spec, files tree-sitter cannot parse at all, and files longer than
 * {@link MAX_PARSE_CHARS} characters yield the file unit only (the whole text). At most
 * {@link MAX_UNITS_PER_FILE} class and function units are kept per file (the first in line
 * order); the file unit still holds the whole text. So time and memory stay linear in the size
 * of the file, however its lines are laid out.
 * Grammars load lazily, once; parsers are reused; only module- and class-level nodes are visited.
 *
 * @param path repository-relative path (its extension picks the language).
 * @param text decoded source (see `decodeSource`: LF line ends).
 * @param reparse a parse of another version of the file to re-parse from, and where to hand the
 *   new parse (./reparse.ts); the units are the same with or without it, only faster.
 * @throws IssuelocError (exit 2) naming the grammar file when the language's grammar cannot be
 *   loaded (missing from `action/bundle/grammars`, unreadable): never the file unit alone in its
 *   place, which the blob cache would keep as the file's units for every later build.
 */
export async function extractUnits(path: string, text: string, reparse?: Reparse): Promise<CodeUnit[]> {
  return (await extractUnitSpans(path, text, reparse)).map(({ from, to, ...u }) => ({
    id: u.kind === 'file' ? path : `${path}:${u.qualifiedName}`, path, kind: u.kind, qualifiedName: u.qualifiedName,
    ...(u.namespaceParts ? { namespaceParts: u.namespaceParts } : {}),
    startLine: u.startLine, endLine: u.endLine, text: from === 0 && to === text.length ? text : text.slice(from, to),
  }));
}

/** Options of {@link extractUnitSpans}. */
export interface ExtractOptions {
  /**
   * Keep the units of test-only items inside source files (Rust `#[cfg(test)] mod tests { … }`,
   * `#[test] fn`; `LanguageSpec.testOnly`). Default false: test code is no unit, as test files
   * are left out of the default index; an index with tests (`includeTests`) keeps them.
   */
  testItems?: boolean;
}

/** A code unit of {@link extractUnitSpans}: where its text lies in the file's text instead of the text. */
export interface UnitSpan {
  kind: UnitKind;
  qualifiedName: string;
  /** As `CodeUnit.namespaceParts` (absent: none). */
  namespaceParts?: number;
  startLine: number;
  endLine: number;
  /** The unit's `text` is `text.slice(from, to)` of the file's text. */
  from: number;
  to: number;
}

/**
 * The units of {@link extractUnits} (same order, rules and lines) with the range of their text in
 * `text` instead of the text: the index tokenizes a file's words once for all its units.
 * @throws as {@link extractUnits}.
 */
export async function extractUnitSpans(path: string, text: string, reparse?: Reparse, options: ExtractOptions = {}): Promise<UnitSpan[]> {
  const { startLine, endLine } = fileUnit(path, text);
  const file: UnitSpan = { kind: 'file', qualifiedName: '', startLine, endLine, from: 0, to: text.length };
  const spec = specFor(path, languageOf(path));
  if (!spec || text.length > MAX_PARSE_CHARS) return [file];
  let parser: Parser;
  try {
    parser = await parserFor(spec.grammar);
    await noLoadUnderWay();
  } catch (e) {
    // never the file unit alone: it would be cached as this blob's units (src/index/blob-terms.ts)
    // and every later index of a commit holding it would lack its functions
    throw new IssuelocError(`grammar tree-sitter-${spec.grammar}.wasm cannot be loaded (${oneLine(e)}): it belongs beside the build, in action/bundle/grammars`);
  }
  // `loading` is 0 here and stays 0 until the parse below is done: it runs without an await
  const found = unitsIn(parser, spec, text, reparse, options.testItems === true);
  if (found.length === 0) return [file];
  const lineStart = lineStarts(text);
  const units = [file];
  for (const f of found) {
    // the unit's lines, from the start of its first line to the end of its last
    const from = lineStart[f.startLine - 1];
    const to = f.endLine < lineStart.length ? lineStart[f.endLine] - 1 : text.length;
    const outside = (f.startIndex - from) + Math.max(0, to - f.endIndex);
    const own = outside > MAX_TEXT_OUTSIDE_UNIT;
    units.push({
      kind: f.kind, qualifiedName: f.qualifiedName,
      ...(f.namespaceParts > 0 ? { namespaceParts: f.namespaceParts } : {}),
      startLine: f.startLine, endLine: f.endLine, from: own ? f.startIndex : from, to: own ? f.endIndex : to,
    });
  }
  return units;
}

/**
 * Incremental re-parsing for {@link extractUnits}: `previous` (if its grammar is the file's) is
 * edited into the new text and parsed from; the new parse is handed to `keep` (its tree now
 * belongs to the caller, who deletes it). Only the plain parse takes part, not a masked copy.
 */
export interface Reparse {
  previous?: KeptParse;
  keep(parse: KeptParse): void;
}

/**
 * The units the parse of `text` yields; when that parse has errors and the spec has a `mask`,
 * those of the masked copy if it yields more (C/C++ macros, see `c-macros.ts`).
 */
function unitsIn(parser: Parser, spec: LanguageSpec, text: string, reparse: Reparse | undefined, testItems: boolean): Found[] {
  const parsed = (source: string, reuse?: Reparse): { found: Found[]; hasError: boolean } => {
    const previous = reuse?.previous?.grammar === spec.grammar ? editedTree(reuse.previous, source) : undefined;
    const tree = parser.parse(source, previous);
    previous?.delete();
    if (!tree) return { found: [], hasError: true };
    let kept = false;
    try {
      const found = walk(tree.rootNode, spec, MAX_UNITS_PER_FILE, testItems);
      if (reuse) {
        reuse.keep({ grammar: spec.grammar, text: source, tree });
        kept = true;
      }
      return { found, hasError: tree.rootNode.hasError };
    } finally {
      if (!kept) tree.delete();
    }
  };
  const plain = parsed(text, reparse);
  if (!plain.hasError || !spec.mask) return plain.found;
  const masked = parsed(spec.mask(text));
  return masked.found.length > plain.found.length ? masked.found : plain.found;
}

/**
 * Files longer than this many characters (4 Mi) are not parsed: they are indexed whole (the file
 * unit only). Above the default `--max-file-bytes` (1 MiB), so it only bounds parsing when that
 * option is raised; tree-sitter's tree takes several times the text's size in memory.
 */
export const MAX_PARSE_CHARS = 4 << 20;

/**
 * The most class and function units kept per file (the first in line order). The largest file of
 * the SWE-bench Lite base commits holds about 2,100 functions (sympy's rubi `constraints.py`); a
 * minified file of the default `--max-file-bytes` (1 MiB) holds up to about 35,000 (30 bytes each),
 * all kept, so no function of such a file is lost.
 */
export const MAX_UNITS_PER_FILE = 50_000;

/**
 * A unit's text is its lines unless they hold more than this many characters outside the unit
 * (before its start on the first line plus after its end on the last), as minified code does;
 * then it is the unit's own source range. Formatted code never comes near it, so its units keep
 * the whole lines, as the SWE-bench protocol takes them.
 */
export const MAX_TEXT_OUTSIDE_UNIT = 1000;

/** Index in `text` where each line starts (line 1 at 0). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

interface Found {
  kind: UnitKind;
  qualifiedName: string;
  /** Leading parts of the name that are namespaces (`CodeUnit.namespaceParts`; 0: none). */
  namespaceParts: number;
  startLine: number;
  endLine: number;
  /** Where the unit's source starts and ends in the text (string indexes, end exclusive). */
  startIndex: number;
  endIndex: number;
}

/** Where a unit found at a node starts: its decorators, `export`, attributes (0-based row, string index). */
interface Start {
  row: number;
  index: number;
}

interface Visit {
  node: Node;
  prefix: string;
  /** Leading parts of `prefix` that are namespaces. */
  namespaces: number;
  /** Whether `prefix` is namespaces only (a namespace met now adds its parts). */
  inNamespace: boolean;
  start: Start;
}

/** The earlier of two starts (`undefined`: none). */
const earlier = (a: Start, b: Start | undefined): Start => (b && b.index < a.index ? b : a);
const startOf = (n: Node): Start => ({ row: n.startPosition.row, index: n.startIndex });

/**
 * Iterative pre-order walk over module- and class-level nodes (see `Role` in extract-specs);
 * stops after `limit` units.
 */
function walk(root: Node, spec: LanguageSpec, limit: number, testItems: boolean): Found[] {
  const testOnly = testItems ? undefined : spec.testOnly;
  const found: Found[] = [];
  const stack: Visit[] = [];
  const leading = spec.leading ?? [];
  const pushChildren = (node: Node, prefix: string, namespaces: number, inNamespace: boolean, wrapStart: Start | undefined): void => {
    const kids = node.namedChildren;
    const visits: Visit[] = [];
    let lead: Start | undefined;
    const leadTexts: string[] = [];
    for (const kid of kids) {
      if (!kid) continue;
      if (leading.includes(kid.type)) {
        lead ??= startOf(kid);
        if (testOnly) leadTexts.push(kid.text);
        continue;
      }
      if (kid.type.includes('comment')) continue;
      if (Object.hasOwn(spec.roles, kid.type) && !(leadTexts.length > 0 && testOnly?.(leadTexts))) {
        visits.push({ node: kid, prefix, namespaces, inNamespace, start: earlier(earlier(startOf(kid), wrapStart), lead) });
      }
      lead = undefined;
      leadTexts.length = 0;
    }
    for (let i = visits.length - 1; i >= 0; i--) stack.push(visits[i]);
  };

  // namespace paths opened so far (`ns`, `ns.inner`): an out-of-line `ns::inner::Foo::baz` after
  // them has `ns.inner` as namespace qualifiers too
  const namespacePaths = new Set<string>();
  const namespacePartsOf = (qualifiedName: string, inScope: number): number => {
    const parts = qualifiedName.split('.');
    let n = inScope;
    while (n + 1 < parts.length && namespacePaths.has(parts.slice(0, n + 1).join('.'))) n++;
    return n;
  };
  pushChildren(root, '', 0, true, undefined);
  while (stack.length > 0 && found.length < limit) {
    const { node, prefix, namespaces, inNamespace, start } = stack.pop()!;
    const given = spec.roles[node.type];
    const role = given.as === 'pick' ? given.pick(node) : given;
    switch (role?.as) {
      case 'descend':
        pushChildren(node, prefix, namespaces, inNamespace, undefined);
        break;
      case 'wrap':
        pushChildren(node, prefix, namespaces, inNamespace, start);
        break;
      case 'scope': {
        const name = role.name(node);
        if (name === null) break;
        if (name === '') pushChildren(node, prefix, namespaces, inNamespace, undefined);
        else if (role.namespace && inNamespace) {
          const path = `${prefix}${name}`;
          for (let at = path.indexOf('.', prefix.length); at >= 0; at = path.indexOf('.', at + 1)) namespacePaths.add(path.slice(0, at));
          namespacePaths.add(path);
          pushChildren(node, `${path}.`, namespaces + name.split('.').length, true, undefined); // `a::b`: two
        }
        else pushChildren(node, `${prefix}${name}.`, namespaces, false, undefined);
        break;
      }
      case 'class':
      case 'function': {
        const name = role.name ? role.name(node) : node.childForFieldName('name')?.text ?? null;
        if (name === null || name === '') break;
        const qualifiedName = prefix + name;
        const end = endOf(node, spec);
        const namespaceParts = inNamespace ? namespacePartsOf(qualifiedName, namespaces) : namespaces;
        found.push({ kind: role.as, qualifiedName, namespaceParts, startLine: start.row + 1, endLine: end.line, startIndex: start.index, endIndex: end.index });
        if (role.as === 'class') pushChildren(node, `${qualifiedName}.`, namespaceParts, false, undefined);
        break;
      }
    }
  }
  return found;
}

/**
 * Where a node ends: its 1-based last line (a node ending at column 0 ends on the line before)
 * and the string index after its last token.
 */
function endOf(node: Node, spec: LanguageSpec): { line: number; index: number } {
  let last = node;
  if (spec.trimTrailingComments) {
    // Follow the last non-comment child down to a token: where `ast` ends the statement.
    for (;;) {
      let next: Node | null = null;
      for (let i = last.childCount - 1; i >= 0; i--) {
        const c = last.child(i);
        if (c && c.type !== 'comment' && c.endIndex > c.startIndex) { next = c; break; }
      }
      if (!next) break;
      last = next;
    }
  }
  const end = last.endPosition;
  const start = node.startPosition;
  return { line: end.column === 0 && end.row > start.row ? end.row : end.row + 1, index: last.endIndex };
}
