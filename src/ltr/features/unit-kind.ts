/**
 * Unit-kind features of a candidate: a method (a function inside a class, struct or impl), a
 * top-level function, a class, or a whole file (a file without functions, or a language indexed
 * by file only).
 */
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';
import type { IndexedUnit } from '../../index/code-index.js';

/** The kind of a unit as the features tell it. */
export type UnitRole = 'method' | 'function' | 'class' | 'file';

/** The role of an indexed unit: a function with an enclosing part after its namespaces is a method. */
export function unitRole(u: Pick<IndexedUnit, 'kind' | 'qualifiedName' | 'namespaceParts'>): UnitRole {
  if (u.kind !== 'function') return u.kind;
  return u.qualifiedName.split('.').length > (u.namespaceParts ?? 0) + 1 ? 'method' : 'function';
}

const is = (k: UnitRole) => (r: UnitRole) => (r === k ? 1 : 0);

const features = {
  isMethod: { doc: '1 for a method (a function inside a class, struct, impl or function)', normalise: 'none', value: is('method') },
  isTopFunction: { doc: '1 for a top-level function (namespaces aside)', normalise: 'none', value: is('function') },
  isClassUnit: { doc: '1 for a class (struct, interface, impl, …) document', normalise: 'none', value: is('class') },
  isFileUnit: { doc: '1 for a whole-file document', normalise: 'none', value: is('file') },
} satisfies Record<string, FeatureSpec<UnitRole>>;

export const unitKindGroup: FeatureGroup<UnitRole, keyof typeof features> = {
  name: 'unit kind',
  features,
  prepare(ctx: CandidateContext) {
    const { units } = ctx.codeIndex;
    return (i) => unitRole(units[ctx.docs[i]]);
  },
};
