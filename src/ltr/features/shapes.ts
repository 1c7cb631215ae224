/**
 * The shapes of the candidates: what their paths and names say, computed once per index
 * document and reused across queries (the name, call-link and shape features read them).
 */
import type { CodeIndex } from '../../index/code-index.js';
import { isTestPath } from '../../corpus/languages.js';
import { fileStem, lastNamePart } from '../../corpus/names.js';
import { tokenize } from '../../text/tokenize.js';
import { languageFamily, moduleNameOf, type LanguageFamily } from './path-facts.js';

/** Path features of a file-level document. */
export interface FileShape {
  /** Path depth / 10, at most 1. */
  depth: number;
  isTest: number;
  /** 1 for `__init__.py`, `index.*`, `mod.rs` and the Rust crate roots `lib.rs`, `main.rs`. */
  isInit: number;
  /** Distinct tokens of the file name without extension, by their number ({@link CandidateShapes.queryTokens}). */
  nameTokens: Int32Array;
  /** The language family of the path (src/ltr/features/language.ts). */
  family: LanguageFamily;
  /** The Go package or Rust module an issue would call the file by ('' for none: `moduleNameOf`). */
  moduleName: string;
  /** 1 for a Go `doc.go`. */
  isDocGo: number;
  /** The folder of the file ('' at the root). */
  folder: string;
}

/** Name and size features of a function-level document. */
export interface UnitShape {
  /** ln(1 + lines) / ln(1000), at most 1. */
  length: number;
  /** 1 for a class or file document. */
  notFunction: number;
  /** 1 for a `__name__`. */
  isDunder: number;
  /** 1 for a `_name` that is not a dunder; in Go also for an unexported (lower-case) name. */
  isPrivate: number;
  /** Distinct tokens of the own name, by their number ({@link CandidateShapes.queryTokens}). */
  nameTokens: Int32Array;
  /** Own name and top-level class name ('' when none). */
  name: string;
  className: string;
  /** Term id of the name's whole-identifier token in the function-level index (−1: none). */
  nameTerm: number;
}

/** The shapes of a candidate: its own and its file's. */
export interface CandidateShape { unit: UnitShape; file: FileShape }

/** Memo of {@link FileShape}s and {@link UnitShape}s of one index (what of a candidate does not depend on the issue). */
export class CandidateShapes {
  /** Per file-level and function-level document, its shapes once made (arrays of the index's size, not sparse ones). */
  private readonly files: (FileShape | undefined)[];
  private readonly units: (UnitShape | undefined)[];
  private readonly candidates: (CandidateShape | undefined)[];
  /** The name tokens met, numbered in order of first use; per number, the query that last held it. */
  private readonly tokenNumbers = new Map<string, number>();
  private inQuery = new Uint32Array(1024);
  private query = 0;

  constructor(private readonly codeIndex: CodeIndex) {
    this.files = new Array<FileShape | undefined>(codeIndex.filePaths.length).fill(undefined);
    this.units = new Array<UnitShape | undefined>(codeIndex.fileOfUnit.length).fill(undefined);
    this.candidates = new Array<CandidateShape | undefined>(codeIndex.fileOfUnit.length).fill(undefined);
  }

  /**
   * Which name tokens `tokens` holds (a query's terms): `has(k)` for token number k of a
   * `nameTokens` list made before this call. Valid until the next call (one query at a time).
   */
  queryTokens(tokens: Iterable<string>): { has(k: number): boolean } {
    if (this.inQuery.length < this.tokenNumbers.size) this.inQuery = new Uint32Array(2 * this.tokenNumbers.size);
    if (++this.query === 0xffffffff) {
      this.inQuery.fill(0);
      this.query = 1;
    }
    const { inQuery, query } = this;
    for (const t of tokens) {
      const k = this.tokenNumbers.get(t);
      if (k !== undefined) inQuery[k] = query;
    }
    return { has: (k) => inQuery[k] === query };
  }

  /** The numbers of the distinct tokens of `text` (tokenized like the index). */
  private nameTokens(text: string): Int32Array {
    const tokens = [...new Set(tokenize(text, { stem: this.codeIndex.settings.stem }))];
    return Int32Array.from(tokens, (t) => {
      let k = this.tokenNumbers.get(t);
      if (k === undefined) this.tokenNumbers.set(t, (k = this.tokenNumbers.size));
      return k;
    });
  }

  /** The shapes of function-level document `d` and of its file. */
  of(d: number): CandidateShape {
    return (this.candidates[d] ??= { unit: this.unit(d), file: this.file(this.codeIndex.fileOfUnit[d]) });
  }

  /** Path features of file-level document `f`. */
  file(f: number): FileShape {
    let shape = this.files[f];
    if (!shape) {
      const path = this.codeIndex.filePaths[f];
      const base = fileStem(path);
      shape = this.files[f] = {
        depth: Math.min(1, (path.split('/').length - 1) / 10),
        isTest: isTestPath(path) ? 1 : 0,
        isInit: base === '__init__' || base === 'index' || base === 'mod' || ((base === 'lib' || base === 'main') && path.endsWith('.rs')) ? 1 : 0,
        nameTokens: this.nameTokens(base),
        family: languageFamily(path),
        moduleName: moduleNameOf(path),
        isDocGo: path === 'doc.go' || path.endsWith('/doc.go') ? 1 : 0,
        folder: path.slice(0, Math.max(0, path.lastIndexOf('/'))),
      };
    }
    return shape;
  }

  /** Name and size features of function-level document `d`. */
  unit(d: number): UnitShape {
    let shape = this.units[d];
    if (!shape) {
      const u = this.codeIndex.table.unit(d);
      const name = lastNamePart(u.qualifiedName);
      const dunder = /^__\w+__$/.test(name);
      shape = this.units[d] = {
        length: Math.min(1, Math.log1p(Math.max(0, u.endLine - u.startLine + 1)) / Math.log(1000)),
        notFunction: u.kind === 'function' ? 0 : 1,
        isDunder: dunder ? 1 : 0,
        isPrivate: (name.startsWith('_') && !dunder) || (u.path.endsWith('.go') && /^[a-z]/.test(name)) ? 1 : 0,
        nameTokens: name ? this.nameTokens(name) : new Int32Array(0),
        name,
        className: classNameOf(u.qualifiedName, u.namespaceParts ?? 0),
        nameTerm: -1,
      };
      const whole = name.length >= 3 ? tokenize(name, { stem: this.codeIndex.settings.stem })[0] : undefined;
      if (whole !== undefined) shape.nameTerm = this.codeIndex.index.termIds.get(whole) ?? -1;
    }
    return shape;
  }
}

/** The top-level class of a qualified name: its first part after the namespace qualifiers when more parts follow ('' for a top-level function). */
function classNameOf(qualifiedName: string, namespaceParts: number): string {
  const parts = qualifiedName.split('.');
  return parts.length > namespaceParts + 1 ? parts[namespaceParts] : '';
}
