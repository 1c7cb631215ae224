/**
 * The ids of the function-level documents of a loaded index (`path:Qualified.name`, and their
 * module's `path:TopLevelName`), made once per document and kept with the index: a query reads
 * the ids of its candidates and of its shown files' units, most of them asked before.
 */
import type { CodeIndex, IndexedUnit } from '../index/code-index.js';
import { moduleIdOf } from '../corpus/names.js';

/** `path` for a file-level unit, `path:Qualified.name` otherwise. */
export function unitId(u: IndexedUnit): string {
  return u.qualifiedName ? `${u.path}:${u.qualifiedName}` : u.path;
}

/** The ids of one index's documents, each made on first use. */
export class UnitIds {
  private readonly ids: (string | undefined)[];
  private readonly modules: (string | undefined)[];

  constructor(private readonly codeIndex: Pick<CodeIndex, 'units'>) {
    this.ids = new Array<string | undefined>(codeIndex.units.length);
    this.modules = new Array<string | undefined>(codeIndex.units.length);
  }

  /** `unitId` of document `d`. */
  id(d: number): string {
    return (this.ids[d] ??= unitId(this.codeIndex.units[d]));
  }

  /** `moduleIdOf` of document `d`. */
  module(d: number): string {
    return (this.modules[d] ??= moduleIdOf(this.codeIndex.units[d]));
  }
}

const byIndex = new WeakMap<object, UnitIds>();

/** The {@link UnitIds} of a loaded index (one per index object). */
export function unitIdsOf(codeIndex: Pick<CodeIndex, 'units'>): UnitIds {
  let ids = byIndex.get(codeIndex);
  if (!ids) byIndex.set(codeIndex, (ids = new UnitIds(codeIndex)));
  return ids;
}
