/**
 * Agreement between the gold functions a source gives (Denchmark's per-hunk method names, kept
 * as `provenance.givenFunctions`, `path:name`) and ours (`positiveFunctions`, our span rules on
 * the fix's diff). Names are compared per file by their last segment (`a.b.fork`, `Foo::fork`
 * and `Foo.fork` are all `fork`): the sources qualify names each their own way.
 */
import type { DatasetRecord } from '../record.js';

/** Agreement figures over the records that carry given functions. */
export interface FunctionAgreement {
  /** Records with given functions or positive functions of ours. */
  records: number;
  /** Distinct (file, short name) pairs given by the source. */
  given: number;
  /** Distinct (file, short name) pairs of ours. */
  ours: number;
  /** Pairs in both. */
  both: number;
  /** `both / given` (share of the source's methods we find), 0 when none given. */
  givenFoundByOurs: number;
  /** `both / ours` (share of ours the source names). */
  oursFoundInGiven: number;
  /** Records whose two sets are equal. */
  identicalRecords: number;
}

/** `path:a.b.c` / `path:A::c` → `path|c`. */
function shortKey(id: string): string {
  const colon = id.indexOf(':');
  const path = id.slice(0, colon);
  const segments = id.slice(colon + 1).split(/::|\.|:/).filter(Boolean);
  return `${path}|${segments[segments.length - 1] ?? ''}`;
}

/** The agreement of given and our gold functions over `records` (those with `givenFunctions`). */
export function functionAgreement(records: readonly DatasetRecord[]): FunctionAgreement {
  const a: FunctionAgreement = { records: 0, given: 0, ours: 0, both: 0, givenFoundByOurs: 0, oursFoundInGiven: 0, identicalRecords: 0 };
  for (const r of records) {
    const givenList = r.provenance.givenFunctions;
    if (!Array.isArray(givenList)) continue;
    const given = new Set(givenList.filter((g): g is string => typeof g === 'string').map(shortKey));
    const ours = new Set(r.positiveFunctions.map(shortKey));
    if (given.size === 0 && ours.size === 0) continue;
    a.records++;
    a.given += given.size;
    a.ours += ours.size;
    let both = 0;
    for (const g of given) if (ours.has(g)) both++;
    a.both += both;
    if (both === given.size && both === ours.size) a.identicalRecords++;
  }
  a.givenFoundByOurs = a.given === 0 ? 0 : Number((a.both / a.given).toFixed(4));
  a.oursFoundInGiven = a.ours === 0 ? 0 : Number((a.both / a.ours).toFixed(4));
  return a;
}
