/**
 * Dataset statistics in the columns of the paper's Table 2 ("file localisation for issues at
 * large"): unknown issues, max linkable, linked, in dataset, and per issue the number of
 * candidate files and of positives (min, max, mean, median). The first four come from the
 * build's `<name>.meta.json` sidecar (null when it is missing or, for imported datasets, lacks
 * them); the distributions (files, positive files, positive functions) from the records.
 */
import { existsSync, readFileSync } from 'node:fs';
import { IssuelocError } from '../errors.js';
import { readDataset } from './read.js';
import type { BuildMeta } from './build.js';
import { sidecarPaths } from './output.js';

/** Min, max, mean and median of a list (all NaN-free; zeros for an empty list). */
export interface Summary {
  min: number;
  max: number;
  mean: number;
  median: number;
}

/** Table 2 row of one dataset. */
export interface DatasetStats {
  file: string;
  variant: string | null;
  /** Distinct keys commits name that the issue file lacks. */
  unknownIssues: number | null;
  maxLinkable: number | null;
  linked: number | null;
  /** Distinct issues with a record. */
  inDataset: number;
  /** Records (samples); equals `inDataset` except for Exact Commits. */
  samples: number;
  /** Candidate (source) files per sample. */
  files: Summary;
  /** Positive files per sample. */
  positives: Summary;
  /** Positive functions per sample (all zeros when the dataset has none). */
  functions: Summary;
  /** Samples without any positive function. */
  withoutFunctions: number;
  /** Drop reasons with counts (from the meta sidecar). */
  dropReasons: Record<string, number> | null;
}

/** {@link Summary} of `values`. */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { min: 0, max: 0, mean: 0, median: 0 };
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return {
    min: s[0],
    max: s[s.length - 1],
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    median: s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2,
  };
}

/**
 * Table 2 statistics of a dataset file (and its meta sidecar when present).
 *
 * @throws IssuelocError as {@link readDataset}, or for an unreadable meta sidecar.
 */
export function datasetStats(file: string): DatasetStats {
  const records = readDataset(file);
  const metaPath = sidecarPaths(file).meta;
  let meta: BuildMeta | null = null;
  if (existsSync(metaPath)) {
    try {
      meta = JSON.parse(readFileSync(metaPath, 'utf8')) as BuildMeta;
    } catch (e) {
      throw new IssuelocError(`cannot read ${metaPath}: ${(e as Error).message}`);
    }
  }
  return {
    file,
    variant: records[0]?.variant ?? meta?.variant ?? null,
    unknownIssues: meta?.counts.unknownKeys ?? null,
    maxLinkable: meta?.counts.maxLinkable ?? null,
    linked: meta?.counts.linked ?? null,
    inDataset: new Set(records.map((r) => r.issue.id)).size,
    samples: records.length,
    files: summarize(records.map((r) => r.candidates)),
    positives: summarize(records.map((r) => r.positives.length)),
    functions: summarize(records.map((r) => r.positiveFunctions?.length ?? 0)),
    withoutFunctions: records.filter((r) => (r.positiveFunctions?.length ?? 0) === 0).length,
    dropReasons: (meta?.dropReasons as Record<string, number> | undefined) ?? null,
  };
}
