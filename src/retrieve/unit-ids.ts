/**
 * The ids of the function-level documents of a loaded index (`path:Qualified.name`, and their
 * module's `path:TopLevelName`), made once per document and kept with the index: a query reads
 * the ids of its candidates and of its shown files' units, most of them asked before.
 */
import type { CodeIndex, IndexedUnit } from '../index/code-index.js';
import type { UnitTable } from '../index/unit-table.js';
import { moduleIdOf } from '../corpus/names.js';

/** `path` for a file-level unit, `path:Qualified.name` otherwise. */
export function unitId(u: Pick<IndexedUnit, 'path' | 'qualifiedName'>): string {
  return u.qualifiedName ? `${u.path}:${u.qualifiedName}` : u.path;
}

/**
 * The ids of one index's documents, each made on first use, and a number per id: the first
 * document asked of those sharing it (`unitNumber`, `moduleNumber`), so that a query tells
 * documents of one id apart by reading a typed array, not by hashing strings.
 */
export class UnitIds {
  private readonly ids: (string | undefined)[];
  private readonly modules: (string | undefined)[];
  /** Per document, the number of its id and of its module id (−1: not asked yet). */
  private readonly unitNumbers: Int32Array;
  private readonly moduleNumbers: Int32Array;
  /** Per id and per module id asked so far, its number. */
  private readonly numberOfId = new Map<string, number>();
  private readonly numberOfModule = new Map<string, number>();

  constructor(private readonly table: UnitTable) {
    this.ids = new Array<string | undefined>(table.length);
    this.modules = new Array<string | undefined>(table.length);
    this.unitNumbers = new Int32Array(table.length).fill(-1);
    this.moduleNumbers = new Int32Array(table.length).fill(-1);
  }

  /** A number of document `d`'s id ({@link id}), the same for every document of that id: one of them. */
  unitNumber(d: number): number {
    let k = this.unitNumbers[d];
    if (k < 0) this.unitNumbers[d] = k = numberOf(this.numberOfId, this.id(d), d);
    return k;
  }

  /** Every {@link unitNumber} and {@link moduleNumber} is below this: the index's documents. */
  get numberBound(): number {
    return this.table.length;
  }

  /** The {@link unitNumber} of the documents of id `id`, when one of them was asked (undefined: none was). */
  numberOfUnitId(id: string): number | undefined {
    return this.numberOfId.get(id);
  }

  /** A number of document `d`'s module id ({@link module}), the same for every document of that module: one of them. */
  moduleNumber(d: number): number {
    let k = this.moduleNumbers[d];
    if (k < 0) this.moduleNumbers[d] = k = numberOf(this.numberOfModule, this.module(d), d);
    return k;
  }

  /** `unitId` of document `d`. */
  id(d: number): string {
    const { table } = this;
    return (this.ids[d] ??= unitId({ path: table.path(d), qualifiedName: table.qualifiedName(d) }));
  }

  /** `moduleIdOf` of document `d`. */
  module(d: number): string {
    const { table } = this;
    return (this.modules[d] ??= moduleIdOf({ path: table.path(d), qualifiedName: table.qualifiedName(d), namespaceParts: table.namespaceParts(d) }));
  }
}

/** The number `numbers` holds for `key`, else `d`, kept as its number. */
function numberOf(numbers: Map<string, number>, key: string, d: number): number {
  const k = numbers.get(key);
  if (k !== undefined) return k;
  numbers.set(key, d);
  return d;
}

const byIndex = new WeakMap<object, UnitIds>();

/** The {@link UnitIds} of a loaded index (one per index object). */
export function unitIdsOf(codeIndex: Pick<CodeIndex, 'table'>): UnitIds {
  let ids = byIndex.get(codeIndex.table);
  if (!ids) byIndex.set(codeIndex.table, (ids = new UnitIds(codeIndex.table)));
  return ids;
}

/** Per loaded index, each file path's file-level document, built on first use. */
const fileNumbers = new WeakMap<Pick<CodeIndex, 'filePaths'>, Map<string, number>>();

/** The file-level document of `path` in a loaded index, or undefined when the index has no such file. */
export function fileNumberOf(index: Pick<CodeIndex, 'filePaths'>, path: string): number | undefined {
  let m = fileNumbers.get(index);
  if (!m) {
    m = new Map(index.filePaths.map((p, f) => [p, f]));
    fileNumbers.set(index, m);
  }
  return m.get(path);
}
