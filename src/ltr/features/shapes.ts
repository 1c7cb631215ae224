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
  /** Distinct tokens of the file name without extension. */
  nameTokens: string[];
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
  /** Distinct tokens of the own name. */
  nameTokens: string[];
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
  private readonly files: (FileShape | undefined)[] = [];
  private readonly units: (UnitShape | undefined)[] = [];
  private readonly candidates: (CandidateShape | undefined)[] = [];

  constructor(private readonly codeIndex: CodeIndex) {}

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
        nameTokens: [...new Set(tokenize(base, { stem: this.codeIndex.settings.stem }))],
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
        nameTokens: name ? [...new Set(tokenize(name, { stem: this.codeIndex.settings.stem }))] : [],
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
