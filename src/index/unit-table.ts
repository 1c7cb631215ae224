import { isAscii } from 'node:buffer';
import type { CodeUnit, UnitKind } from '../corpus/types.js';

/** A document of the index: where its unit is (a {@link CodeUnit} without its id and text). */
export type IndexedUnit = Omit<CodeUnit, 'id' | 'text'>;

/** Codes of the unit kinds in {@link UnitColumns.info} (its low 2 bits). */
export const KIND_CODES: readonly UnitKind[] = ['file', 'class', 'function'];

/**
 * The unit table as columns, D documents (typed arrays: at load, views of the index file's bytes):
 * - `fileOfUnit[d]`: the file-level document of d (its path is that document's path);
 * - `info[d]`: kind code ({@link KIND_CODES}) + 4 × namespaceParts;
 * - `startLine[d]`, `endLine[d]`: 1-based, inclusive;
 * - `nameStart[d] … nameStart[d + 1]`: the UTF-8 bytes of d's qualified name in `names` (D + 1 offsets).
 */
export interface UnitColumns {
  fileOfUnit: Uint32Array;
  info: Uint32Array;
  startLine: Uint32Array;
  endLine: Uint32Array;
  nameStart: Uint32Array;
  names: Uint8Array;
}

/**
 * The function-level documents of a code index, read from {@link UnitColumns} without an object
 * per document: a consumer reads a column of the documents it needs, and {@link unit} makes the
 * object of one document (the ones that are output). Qualified names are decoded on each call.
 */
export class UnitTable {
  readonly length: number;
  readonly fileOfUnit: Uint32Array;
  /** The names' bytes as a Buffer (a view, no copy), for decoding. */
  private readonly nameBuf: Buffer;
  private readonly nameEncoding: 'latin1' | 'utf8';
  private objects: IndexedUnit[] | undefined;

  constructor(readonly filePaths: readonly string[], readonly columns: UnitColumns) {
    this.length = columns.fileOfUnit.length;
    this.fileOfUnit = columns.fileOfUnit;
    const { names } = columns;
    this.nameBuf = Buffer.from(names.buffer, names.byteOffset, names.byteLength);
    this.nameEncoding = isAscii(names) ? 'latin1' : 'utf8';
  }

  /** The table of `units` (each unit's path must be its file's: `filePaths[fileOfUnit[d]]`). */
  static of(units: readonly IndexedUnit[], filePaths: readonly string[], fileOfUnit: Uint32Array): UnitTable {
    const D = units.length;
    const info = new Uint32Array(D);
    const startLine = new Uint32Array(D);
    const endLine = new Uint32Array(D);
    const nameStart = new Uint32Array(D + 1);
    const encoded = units.map((u) => Buffer.from(u.qualifiedName, 'utf8'));
    units.forEach((u, d) => {
      if (filePaths[fileOfUnit[d]] !== u.path) throw new Error(`unit ${d} is not in its file's document`);
      info[d] = KIND_CODES.indexOf(u.kind) + 4 * (u.namespaceParts ?? 0);
      startLine[d] = u.startLine;
      endLine[d] = u.endLine;
      nameStart[d + 1] = nameStart[d] + encoded[d].length;
    });
    const table = new UnitTable(filePaths, { fileOfUnit, info, startLine, endLine, nameStart, names: Buffer.concat(encoded) });
    table.objects = units as IndexedUnit[];
    return table;
  }

  /**
   * Whether the columns hold together: D + 1 ascending name offsets ending at the names' length,
   * every file below `filePaths.length`, every kind code known. One pass over typed arrays.
   */
  valid(): boolean {
    const { fileOfUnit, info, startLine, endLine, nameStart, names } = this.columns;
    const D = this.length;
    if (info.length !== D || startLine.length !== D || endLine.length !== D || nameStart.length !== D + 1) return false;
    if (nameStart[0] !== 0 || nameStart[D] !== names.length) return false;
    const F = this.filePaths.length;
    for (let d = 0; d < D; d++) {
      if (fileOfUnit[d] >= F || (info[d] & 3) === 3 || nameStart[d + 1] < nameStart[d]) return false;
    }
    return true;
  }

  path(d: number): string {
    return this.filePaths[this.fileOfUnit[d]];
  }

  kind(d: number): UnitKind {
    return KIND_CODES[this.columns.info[d] & 3];
  }

  namespaceParts(d: number): number {
    return this.columns.info[d] >>> 2;
  }

  startLine(d: number): number {
    return this.columns.startLine[d];
  }

  endLine(d: number): number {
    return this.columns.endLine[d];
  }

  /** The qualified name of document `d` ('' for a file-level unit), decoded now. */
  qualifiedName(d: number): string {
    const s = this.columns.nameStart;
    return this.nameBuf.toString(this.nameEncoding, s[d], s[d + 1]);
  }

  /** The object of document `d` (a new one, `namespaceParts` only when not 0). */
  unit(d: number): IndexedUnit {
    if (this.objects) return this.objects[d];
    const namespaceParts = this.namespaceParts(d);
    const path = this.path(d), kind = this.kind(d), qualifiedName = this.qualifiedName(d), startLine = this.startLine(d), endLine = this.endLine(d);
    return namespaceParts ? { path, kind, qualifiedName, namespaceParts, startLine, endLine } : { path, kind, qualifiedName, startLine, endLine };
  }

  /** Every document as an object, made on the first call and kept (for callers that pass over all of them). */
  toArray(): readonly IndexedUnit[] {
    if (!this.objects) this.objects = Array.from({ length: this.length }, (_, d) => this.unit(d));
    return this.objects;
  }
}
