/**
 * `issueloc dataset import`: one benchmark file (SWE-bench, Loc-Bench, Ye et al. 2014 Tomcat)
 * into the dataset format of `dataset build` — records, dropped rows and a meta file — so one
 * evaluation code path and `dataset stats` serve mined and imported datasets alike.
 */
import { existsSync, statSync } from 'node:fs';
import { IssuelocError } from '../../errors.js';
import { GitRepo } from '../../repo/git.js';
import type { IssueSourceOptions } from '../../issues/types.js';
import type { UnitExtractor } from '../function-positives.js';
import type { DatasetRecord } from '../record.js';
import type { DroppedSample, ImportOptions, ImportResult, RepoOpener } from './common.js';
import { importDefects4j } from './defects4j.js';
import { importDenchmark } from './denchmark.js';
import { functionAgreement, type FunctionAgreement } from './agreement.js';
import { importLocbench } from './locbench.js';
import { importPolybench } from './polybench.js';
import { importSwebenchDev } from './swebench-dev.js';
import { RepoPool } from '../../repo/mirrors.js';
import { importSwebench } from './swebench.js';
import { importTomcat } from './tomcat.js';

/** The benchmark formats `dataset import` reads. */
export const IMPORT_SOURCES = ['swebench', 'locbench', 'tomcat', 'denchmark', 'swebench-dev', 'defects4j', 'polybench'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** Options of {@link runImport}. Exactly one of `repo` and `mirrors` is required. */
export interface RunImportOptions extends IssueSourceOptions {
  from: ImportSource;
  /** The benchmark JSONL file. */
  input: string;
  /** One repository for every row (single-repository sets, e.g. Tomcat). */
  repo?: string;
  /** Folder of fetched mirrors (`OWNER+NAME/repo` or `swe-bench+OWNER__NAME/repo`), for multi-repository sets. */
  mirrors?: string;
  /** The records' `variant` (default: the benchmark's name). */
  variant?: string;
  /** SWE-bench: keep instances whose patch edits no existing function (default false, as ref_eval). */
  keepWithoutFunctions?: boolean;
  /** Code-unit extractor (default: the corpus extractor). */
  extract?: UnitExtractor;
  /** Rows done / rows in the file. */
  progress?: (done: number, total: number) => void;
}

/** A row that gave no record, as `<name>.dropped.jsonl` holds it (the shape of a build's drops). */
export interface ImportDropped {
  id: string;
  /** Stable code (`DroppedSample.code`). */
  reason: string;
  detail: string;
  /** `file:line` of the row. */
  origin: string;
  /** The row's language, where the source names one (SWE-PolyBench). */
  language?: string;
}

/** `<name>.meta.json` of an import. */
export interface ImportMeta {
  tool: 'issueloc dataset import';
  from: ImportSource;
  input: string;
  repo: string | null;
  mirrors: string | null;
  variant: string;
  counts: {
    /** Rows read (records + dropped + invalid). */
    rows: number;
    /** Corrupt rows skipped (`skipInvalid`). */
    invalidRows: number;
    /** Distinct issues with a record (Table 2: in dataset). */
    inDataset: number;
    samples: number;
    dropped: number;
    /** Records without any positive function. */
    recordsWithoutFunctions: number;
    positiveFunctions: number;
    /** Records whose fix also changes tests (`changesTests === true`). */
    changesTests: number;
    /**
     * Files renamed by a gold patch without a text diff, over all records (`provenance.pureRenames`):
     * not positives under the protocol, counted so none goes unnoticed.
     */
    pureRenames: number;
  };
  dropReasons: Record<string, number>;
  /** Where the source names each row's language (SWE-PolyBench): records and drops per language. */
  byLanguage?: Record<string, { records: number; dropped: number; dropReasons: Record<string, number> }>;
  /**
   * Where a source gives its own gold functions (`provenance.givenFunctions`, e.g. Denchmark's
   * per-hunk method names): how far they agree with ours (`agreement.ts`).
   */
  agreement?: FunctionAgreement;
  /** `file:line: reason` of each corrupt row skipped. */
  invalid: string[];
  millis: { total: number };
}

/** What {@link runImport} returns. */
export interface ImportRun {
  records: DatasetRecord[];
  dropped: ImportDropped[];
  meta: ImportMeta;
}

/** Records and drops per language, when the source names languages (`provenance.language`, `DroppedSample.language`); else undefined. */
function languageCounts(records: readonly DatasetRecord[], dropped: readonly DroppedSample[]): ImportMeta['byLanguage'] {
  const out: NonNullable<ImportMeta['byLanguage']> = {};
  const of = (lang: string) => (out[lang] ??= { records: 0, dropped: 0, dropReasons: {} });
  for (const r of records) if (typeof r.provenance.language === 'string') of(r.provenance.language).records++;
  for (const d of dropped) {
    if (d.language === undefined) continue;
    const l = of(d.language);
    l.dropped++;
    l.dropReasons[d.code] = (l.dropReasons[d.code] ?? 0) + 1;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Where an import's repositories come from, and how to let them go. */
interface RepoSource {
  open: RepoOpener;
  close: () => Promise<void>;
}

/** One repository for every row; fails on a row that names a second repository. */
async function singleRepo(path: string, input: string): Promise<RepoSource> {
  const repo = await GitRepo.open(path);
  let name: string | undefined;
  return {
    open: async (ownerName) => {
      name ??= ownerName;
      if (ownerName !== name) {
        throw new IssuelocError(`${input}: rows name more than one repository (${name}, ${ownerName}); use --mirrors DIR instead of --repo`);
      }
      return repo;
    },
    close: () => repo.close(),
  };
}

function mirrorPool(dir: string): RepoSource {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new IssuelocError(`mirrors folder ${dir} does not exist`);
  const pool = new RepoPool(dir);
  return { open: pool.open, close: () => pool.close() };
}

/** Options of {@link importBenchmark}: the importers' own, with their repositories from `openRepo`. */
export interface BenchmarkImportOptions extends ImportOptions {
  /** SWE-bench: keep instances whose patch edits no existing function (default false, as ref_eval). */
  keepWithoutFunctions?: boolean;
  /** Tomcat: compute positive functions (default true; false = file level only, faster). */
  functions?: boolean;
  /** Where the repositories come from, for the error when apache/tomcat is missing. */
  reposFrom?: string;
}

/**
 * The records of one benchmark file by its format: `importSwebench`, `importLocbench` (gold as
 * given; with `openRepo` also the candidate counts and repository paths) or `importTomcat`
 * (apache/tomcat from `openRepo`). The one dispatch over the importers, behind `dataset import`
 * ({@link runImport}) and `loadDataset` (src/dataset/import/load.ts).
 *
 * @throws IssuelocError when Tomcat's repository is not available, or from the importers.
 */
export async function importBenchmark(from: ImportSource, input: string, options: BenchmarkImportOptions): Promise<ImportResult> {
  const { keepWithoutFunctions, functions, reposFrom, openRepo, ...common } = options;
  if (from === 'tomcat') {
    const repo = openRepo ? await openRepo('apache/tomcat') : null;
    if (!repo) throw new IssuelocError(`${input}: the Tomcat set needs apache/tomcat: no apache+tomcat/repo under ${reposFrom ?? 'the mirrors folder'}`);
    return importTomcat(input, { ...common, repo, functions });
  }
  if (from === 'locbench') return importLocbench(input, { ...common, openRepo });
  if (from === 'denchmark') return importDenchmark(input, { ...common, openRepo });
  if (from === 'swebench-dev') return importSwebenchDev(input, { ...common, openRepo });
  if (from === 'defects4j') return importDefects4j(input, { ...common, openRepo });
  if (from === 'polybench') return importPolybench(input, { ...common, openRepo });
  return importSwebench(input, { ...common, openRepo, keepWithoutFunctions });
}

/**
 * Imports a benchmark file against its repositories.
 *
 * Records are those of the importer (`importSwebench`, `importLocbench`, `importTomcat`); a row
 * whose repository is not among the mirrors is dropped (`repo-not-available`: it could not be
 * evaluated), as are the importers' own drops, each with a stable code and the words.
 *
 * @throws IssuelocError when neither or both of `repo`/`mirrors` are given, the repository or the
 *   mirrors folder is missing, `repo` is given for rows of several repositories, or the input is
 *   unreadable or has a corrupt row (without `skipInvalid`; named `file:line`).
 */
export async function runImport(options: RunImportOptions): Promise<ImportRun> {
  const started = Date.now();
  if ((options.repo === undefined) === (options.mirrors === undefined)) {
    throw new IssuelocError('dataset import needs exactly one of --repo PATH (one repository) and --mirrors DIR (fetched mirrors)');
  }
  const source = options.repo !== undefined ? await singleRepo(options.repo, options.input) : mirrorPool(options.mirrors as string);
  let result: ImportResult;
  try {
    result = await importBenchmark(options.from, options.input, {
      skipInvalid: options.skipInvalid, typeTable: options.typeTable, extract: options.extract,
      variant: options.variant, progress: options.progress,
      openRepo: source.open, keepWithoutFunctions: options.keepWithoutFunctions, reposFrom: options.mirrors,
    });
  } finally {
    await source.close();
  }
  const dropped: DroppedSample[] = [...result.dropped];
  const records: DatasetRecord[] = [];
  for (const r of result.records) {
    if (typeof r.provenance.repoPath === 'string' || options.from === 'tomcat') records.push(r);
    else dropped.push({ id: r.issue.id, origin: String(r.provenance.origin ?? ''), reason: `repository ${r.repo ?? '?'} not available`, code: 'repo-not-available' });
  }
  const dropReasons: Record<string, number> = {};
  for (const d of dropped) dropReasons[d.code] = (dropReasons[d.code] ?? 0) + 1;
  const byLanguage = languageCounts(records, dropped);
  return {
    records,
    dropped: dropped.map((d) => ({ id: d.id, reason: d.code, detail: d.reason, origin: d.origin, ...(d.language !== undefined ? { language: d.language } : {}) })),
    meta: {
      tool: 'issueloc dataset import',
      from: options.from,
      input: options.input,
      repo: options.repo ?? null,
      mirrors: options.mirrors ?? null,
      variant: options.variant ?? records[0]?.variant ?? options.from,
      counts: {
        rows: result.records.length + result.dropped.length + result.invalid.length,
        invalidRows: result.invalid.length,
        inDataset: new Set(records.map((r) => r.issue.id)).size,
        samples: records.length,
        dropped: dropped.length,
        recordsWithoutFunctions: records.filter((r) => r.positiveFunctions.length === 0).length,
        positiveFunctions: records.reduce((n, r) => n + r.positiveFunctions.length, 0),
        changesTests: records.filter((r) => r.changesTests === true).length,
        pureRenames: records.reduce((n, r) => n + (Array.isArray(r.provenance.pureRenames) ? r.provenance.pureRenames.length : 0), 0),
      },
      dropReasons,
      ...(byLanguage ? { byLanguage } : {}),
      ...(records.some((r) => Array.isArray(r.provenance.givenFunctions)) ? { agreement: functionAgreement(records) } : {}),
      invalid: result.invalid,
      millis: { total: Date.now() - started },
    },
  };
}
