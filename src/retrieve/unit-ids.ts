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

/** The ids of one index's documents, each made on first use. */
export class UnitIds {
  private readonly ids: (string | undefined)[];
  private readonly modules: (string | undefined)[];
  /** Per document, the number of its id and of its module id (−1: not made yet), from `numbers`. */
  private readonly idNumbers: Int32Array;
  private readonly moduleNumbers: Int32Array;
  private readonly numbers = new Map<string, number>();

  constructor(private readonly table: UnitTable) {
    this.ids = new Array<string | undefined>(table.length);
    this.modules = new Array<string | undefined>(table.length);
    this.idNumbers = new Int32Array(table.length).fill(-1);
    this.moduleNumbers = new Int32Array(table.length).fill(-1);
  }

  /**
   * A number for {@link id} of document `d`: equal for two documents exactly when their ids are,
   * below {@link numberBound} (the ids and module ids of an index numbered together, in order of
   * first use: compare them, never read an order in them).
   */
  idNumber(d: number): number {
    const k = this.idNumbers[d];
    return k >= 0 ? k : (this.idNumbers[d] = this.numberOf(this.id(d)));
  }

  /** The same for {@link module} of document `d` (a module id and an id that are the same string share their number). */
  moduleNumber(d: number): number {
    const k = this.moduleNumbers[d];
    return k >= 0 ? k : (this.moduleNumbers[d] = this.numberOf(this.module(d)));
  }

  /** Every number given is below this: twice the index's documents. */
  get numberBound(): number {
    return 2 * this.table.length;
  }

  private numberOf(key: string): number {
    let k = this.numbers.get(key);
    if (k === undefined) this.numbers.set(key, (k = this.numbers.size));
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
