import { createRequire } from 'node:module';
import { Language as Grammar, Parser, type Node } from 'web-tree-sitter';
import { languageOf } from './languages.js';
import { specFor, type LanguageSpec } from './extract-specs.js';
import type { CodeUnit, UnitKind } from './types.js';

const require = createRequire(import.meta.url);

let initialised: Promise<void> | undefined;
const parsers = new Map<string, Promise<Parser>>();

/** One Parser per grammar, its wasm loaded on first use (tree-sitter-wasms package). */
function parserFor(grammar: string): Promise<Parser> {
  let p = parsers.get(grammar);
  if (!p) {
    initialised ??= Parser.init();
    p = initialised.then(async () => {
      const wasm = require.resolve(`tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`);
      const parser = new Parser();
      parser.setLanguage(await Grammar.load(wasm));
      return parser;
    });
    p.catch(() => parsers.delete(grammar)); // a failed load may be retried
    parsers.set(grammar, p);
  }
  return p;
}

/**
 * Which extractor handles `path`: its grammar name, or `file` for languages indexed as whole
 * files. Two paths with the same extractor give the same units for the same bytes.
 */
export function extractorOf(path: string): string {
  return specFor(path, languageOf(path))?.grammar ?? 'file';
}

/** The whole-file unit: id = path, qualifiedName ''. */
export function fileUnit(path: string, text: string): CodeUnit {
  const lines = text.length === 0 ? 1 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return { id: path, path, kind: 'file', qualifiedName: '', startLine: 1, endLine: Math.max(1, lines), text };
}

/**
 * The code units of one source file: first the file unit, then its classes and functions in
 * line order (pre-order of the tree).
 *
 * Rules (the SWE-bench / LocAgent protocol, `extract_functions` of shared/tools/ref_eval.py, for
 * Python; the same ideas for the other languages, see `extract-specs.ts`):
 * - units are top-level functions, classes (and other class-like containers), and the methods of
 *   classes; nested classes qualify: `Outer.Inner.method`; id = `path:Qualified.name`;
 * - module- and class-level `if`/`try`/`with`/`for`/`while` blocks are looked into;
 * - functions nested in functions are part of their parent, never units of their own;
 * - spans are 1-based inclusive line numbers and include decorators / annotations / attributes;
 *   `text` is those lines;
 * - ids need not be unique: overloads and redefinitions (a property and its setter) share one,
 *   as in the reference protocol (consumers keep the first occurrence when ranking).
 *
 * Languages without a spec, and files tree-sitter cannot parse at all, yield the file unit only.
 * Grammars load lazily, once; parsers are reused; only module- and class-level nodes are visited.
 *
 * @param path repository-relative path (its extension picks the language).
 * @param text decoded source (see `decodeSource`: LF line ends).
 */
export async function extractUnits(path: string, text: string): Promise<CodeUnit[]> {
  const file = fileUnit(path, text);
  const spec = specFor(path, languageOf(path));
  if (!spec) return [file];
  let parser: Parser;
  try {
    parser = await parserFor(spec.grammar);
  } catch {
    return [file];
  }
  const tree = parser.parse(text);
  if (!tree) return [file];
  try {
    const found = walk(tree.rootNode, spec);
    if (found.length === 0) return [file];
    const lines = text.split('\n');
    const units = [file];
    for (const f of found) {
      units.push({
        id: `${path}:${f.qualifiedName}`, path, kind: f.kind, qualifiedName: f.qualifiedName,
        startLine: f.startLine, endLine: f.endLine, text: lines.slice(f.startLine - 1, f.endLine).join('\n'),
      });
    }
    return units;
  } finally {
    tree.delete();
  }
}

interface Found {
  kind: UnitKind;
  qualifiedName: string;
  startLine: number;
  endLine: number;
}

interface Visit {
  node: Node;
  prefix: string;
  /** 0-based row where a unit found at this node starts (decorators, `export`, attributes). */
  startRow: number;
}

/** Iterative pre-order walk over module- and class-level nodes (see `Role` in extract-specs). */
function walk(root: Node, spec: LanguageSpec): Found[] {
  const found: Found[] = [];
  const stack: Visit[] = [];
  const leading = spec.leading ?? [];
  const pushChildren = (node: Node, prefix: string, wrapRow: number): void => {
    const kids = node.namedChildren;
    const visits: Visit[] = [];
    let leadRow = -1;
    for (const kid of kids) {
      if (!kid) continue;
      if (leading.includes(kid.type)) {
        if (leadRow < 0) leadRow = kid.startPosition.row;
        continue;
      }
      if (kid.type.includes('comment')) continue;
      if (Object.hasOwn(spec.roles, kid.type)) {
        let row = kid.startPosition.row;
        if (wrapRow >= 0 && wrapRow < row) row = wrapRow;
        if (leadRow >= 0 && leadRow < row) row = leadRow;
        visits.push({ node: kid, prefix, startRow: row });
      }
      leadRow = -1;
    }
    for (let i = visits.length - 1; i >= 0; i--) stack.push(visits[i]);
  };

  pushChildren(root, '', -1);
  while (stack.length > 0) {
    const { node, prefix, startRow } = stack.pop()!;
    const role = spec.roles[node.type];
    switch (role.as) {
      case 'descend':
        pushChildren(node, prefix, -1);
        break;
      case 'wrap':
        pushChildren(node, prefix, startRow);
        break;
      case 'scope': {
        const name = role.name(node);
        if (name !== null) pushChildren(node, name === '' ? prefix : `${prefix}${name}.`, -1);
        break;
      }
      case 'class':
      case 'function': {
        const name = role.name ? role.name(node) : node.childForFieldName('name')?.text ?? null;
        if (name === null || name === '') break;
        const qualifiedName = prefix + name;
        found.push({ kind: role.as, qualifiedName, startLine: startRow + 1, endLine: endLine(node, spec) });
        if (role.as === 'class') pushChildren(node, `${qualifiedName}.`, -1);
        break;
      }
    }
  }
  return found;
}

/** 1-based last line of a node (a node ending at column 0 ends on the line before). */
function endLine(node: Node, spec: LanguageSpec): number {
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
  return end.column === 0 && end.row > start.row ? end.row : end.row + 1;
}
