/**
 * Regressions as data, as Anserini keeps them: each file of bench/regressions/ holds the command of
 * a bench script, the dataset it reads and that file's sha256, the repositories it needs, the
 * expected metrics per row and a tolerance. bench/verify.ts runs one and compares; bench/tables.ts
 * writes the docs' tables from them. The format: bench/regressions/README.md.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { IssuelocError } from '../../src/errors.js';
import { mirrorPath } from '../../src/repo/mirrors.js';
import { COLUMNS } from './metrics-table.js';

/** The checkout's root folder (commands run there; relative paths are read from there). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The folder of the project's regressions. */
export const REGRESSIONS_DIR = join(ROOT, 'bench', 'regressions');

/** Metric values of one row, keyed `level metric` (`file Acc@1`, `file MRR`), in the bench's units. */
export type Metrics = Record<string, number>;

/** A table row written in the regression itself (a published figure, a reference run): shown, never run. */
export interface StaticRow { label: string; metrics: Partial<Metrics> }

/** A table row showing the expected metrics of the regression's row `row`. */
export interface MeasuredRow { row: string; label: string }

/** How the docs show a regression (bench/tables.ts). */
export interface TableSpec {
  /** `levels`: one column per level (`file Acc@1/3/5`, cells `60.2 / 76.6 / 82.1`); `metrics`: one per metric. */
  layout: 'levels' | 'metrics';
  /** Header of the first column (the rows' labels). */
  first: string;
  /** When set, a last column with this header holds the mean of the row's metrics. */
  mean?: string;
  rows: (StaticRow | MeasuredRow)[];
}

/** One regression (a file of bench/regressions/). */
export interface Regression {
  /** The file's name without `.json`. */
  name: string;
  /** The file it was read from. */
  path: string;
  description: string;
  /** `node SCRIPT ARGS…`, run from {@link ROOT}; arguments may hold {@link PLACEHOLDERS}. */
  command: string[];
  /** The dataset the command reads (path with placeholders, relative to {@link ROOT}) and its sha256. */
  dataset: DatasetFile;
  /** Further datasets the command reads (none: absent), checked as `dataset` is. */
  datasets?: DatasetFile[];
  /** Repositories (`owner/name`) that must be under MIRRORS. */
  repositories: string[];
  /** Issues the bench must evaluate. */
  evaluated: number;
  /** Largest difference from an expected value that is not drift, in the metric's units. */
  tolerance: number;
  /** Expected metrics per row name of the bench's output (none yet: `bench:verify --record` writes them). */
  expected: Record<string, Metrics>;
  table?: TableSpec;
}

/** A dataset file of a regression: its path (placeholders allowed) and sha256. */
export interface DatasetFile { path: string; sha256: string }

/** Folders and files an argument may name by a placeholder: `NAME` or `NAME/rest`. */
export const PLACEHOLDERS = ['DATA', 'MIRRORS', 'CACHE', 'FEATURES', 'IMPORTS'] as const;
export type Places = Record<(typeof PLACEHOLDERS)[number], string>;

/** An argument with its leading placeholder replaced (`DATA/x.jsonl` → `/data/x.jsonl`). */
export function resolvePlaceholder(arg: string, places: Places): string {
  for (const name of PLACEHOLDERS) {
    if (arg === name) return places[name];
    if (arg.startsWith(`${name}/`)) return join(places[name], arg.slice(name.length + 1));
  }
  return arg;
}

/** The absolute path of a regression's dataset file (default its `dataset`). */
export function datasetPath(reg: Regression, places: Places, file: DatasetFile = reg.dataset): string {
  return resolve(ROOT, resolvePlaceholder(file.path, places));
}

/** The command with placeholders resolved. */
export function resolvedCommand(reg: Regression, places: Places): string[] {
  return reg.command.map((a) => resolvePlaceholder(a, places));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isMetrics = (v: unknown): v is Metrics => isObject(v) && Object.values(v).every((x) => typeof x === 'number' && Number.isFinite(x));

/**
 * Reads and checks one regression file.
 * @throws IssuelocError (exit 2) naming the file and the field at fault.
 */
export function readRegression(path: string): Regression {
  const bad = (what: string) => new IssuelocError(`${path}: ${what}`, 2);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw bad(`not a readable JSON file (${(e as Error).message})`);
  }
  if (!isObject(raw)) throw bad('expected a JSON object');
  const { description, command, dataset, datasets, repositories, evaluated, tolerance, expected, table } = raw;
  if (typeof description !== 'string') throw bad('"description" must be a string');
  if (!isStrings(command) || command.length < 2 || command[0] !== 'node') throw bad('"command" must be ["node", SCRIPT, ARGS…]');
  if (!isDatasetFile(dataset)) throw bad('"dataset" must be {"path": FILE, "sha256": 64 hex digits}');
  if (datasets !== undefined && !(Array.isArray(datasets) && datasets.every(isDatasetFile))) throw bad('"datasets" must be a list of {"path": FILE, "sha256": 64 hex digits}');
  if (!isStrings(repositories) || repositories.some((r) => !/^[^/\s]+\/[^/\s]+$/.test(r))) throw bad('"repositories" must be a list of "owner/name"');
  if (!Number.isInteger(evaluated) || (evaluated as number) < 1) throw bad('"evaluated" must be a positive integer');
  if (typeof tolerance !== 'number' || !(tolerance >= 0)) throw bad('"tolerance" must be a number ≥ 0');
  if (!isObject(expected) || !Object.values(expected).every(isMetrics)) {
    throw bad('"expected" must map each row name to {"level metric": number, …}');
  }
  const reg: Regression = {
    name: basename(path).replace(/\.json$/, ''), path, description, command,
    dataset: { path: dataset.path, sha256: dataset.sha256 }, repositories,
    ...(datasets ? { datasets: (datasets as DatasetFile[]).map((d) => ({ path: d.path, sha256: d.sha256 })) } : {}), evaluated: evaluated as number, tolerance,
    expected: expected as Record<string, Metrics>,
  };
  if (table !== undefined) reg.table = tableSpecOf(table, reg, bad);
  return reg;
}

function isDatasetFile(v: unknown): v is DatasetFile {
  return isObject(v) && typeof v.path === 'string' && typeof v.sha256 === 'string' && /^[0-9a-f]{64}$/.test(v.sha256);
}

function tableSpecOf(v: unknown, reg: Regression, bad: (what: string) => Error): TableSpec {
  if (!isObject(v) || (v.layout !== 'levels' && v.layout !== 'metrics') || typeof v.first !== 'string' || !Array.isArray(v.rows)) {
    throw bad('"table" must be {"layout": "levels"|"metrics", "first": HEADER, "mean"?: HEADER, "rows": […]}');
  }
  if (v.mean !== undefined && typeof v.mean !== 'string') throw bad('"table.mean" must be a header');
  const rows = v.rows.map((r: unknown, i: number) => {
    if (isObject(r) && typeof r.label === 'string' && typeof r.row === 'string') {
      if (!(r.row in reg.expected)) throw bad(`table row ${i + 1} shows row "${r.row}", which "expected" does not hold`);
      return { row: r.row, label: r.label };
    }
    if (isObject(r) && typeof r.label === 'string' && isMetrics(r.metrics)) return { label: r.label, metrics: r.metrics };
    throw bad(`table row ${i + 1} must be {"row": NAME, "label": TEXT} or {"label": TEXT, "metrics": {…}}`);
  });
  return { layout: v.layout, first: v.first, ...(v.mean !== undefined ? { mean: v.mean as string } : {}), rows };
}

/** Names of the regressions in `dir` (its `*.json` files), sorted. */
export function regressionNames(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}

/**
 * The regression `name` of `dir`.
 * @throws IssuelocError (exit 2) for an unknown name (listing the known ones) or a bad file.
 */
export function loadRegression(dir: string, name: string): Regression {
  const path = join(dir, `${name}.json`);
  if (!/^[\w.-]+$/.test(name) || !existsSync(path)) {
    throw new IssuelocError(`no regression ${name} in ${dir} (there: ${regressionNames(dir).join(', ') || 'none'})`, 2);
  }
  return readRegression(path);
}

/** sha256 of a file, in hex. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Why the regression cannot run here, in one line, or null when it can: the script not built,
 * the imported-sets folder (IMPORTS) absent, a dataset missing or of another version (sha256),
 * repositories missing under MIRRORS.
 */
export async function missingInput(reg: Regression, places: Places): Promise<string | null> {
  const script = resolve(ROOT, reg.command[1]);
  if (!existsSync(script)) return `${reg.command[1]} is not built (npm run build)`;
  const files = [reg.dataset, ...(reg.datasets ?? [])];
  const imported = (f: DatasetFile) => f.path === 'IMPORTS' || f.path.startsWith('IMPORTS/');
  if (files.some(imported) && !existsSync(places.IMPORTS)) {
    return `imported-sets folder ${places.IMPORTS} absent (set --imports DIR or ISSUELOC_IMPORTS; bench/import-training-sets.ts writes it)`;
  }
  for (const file of files) {
    const data = datasetPath(reg, places, file);
    if (!existsSync(data)) return `dataset ${file.path} not found (${data}; set ${imported(file) ? '--imports DIR or ISSUELOC_IMPORTS' : '--data DIR or ISSUELOC_DATA'})`;
    const digest = await sha256OfFile(data);
    if (digest !== file.sha256) return `dataset ${data} has sha256 ${digest}, the regression expects ${file.sha256} (another version of the data set)`;
  }
  const missing = reg.repositories.filter((r) => mirrorPath(places.MIRRORS, r) === null);
  if (missing.length > 0) {
    const some = missing.length > 5 ? `${missing.slice(0, 5).join(', ')}, …` : missing.join(', ');
    return `${missing.length} of ${reg.repositories.length} repositories not under ${places.MIRRORS}: ${some} (set --mirrors DIR or ISSUELOC_MIRRORS)`;
  }
  return null;
}

/** What a bench's `--json` output says: issues evaluated and the metrics of each row. */
export interface BenchOutput { evaluated: number; rows: Map<string, Metrics> }

/**
 * Reads the `--json` output of bench/swebench-lite (`configs[].accuracy`: per level the Acc@k of
 * SweRank's cut-offs) or of bench/locbench (`keys` and `rows[].values`).
 * @throws Error when the output has neither shape (a bench changed its `--json` output).
 */
export function benchOutputOf(json: unknown): BenchOutput {
  if (!isObject(json) || typeof json.evaluated !== 'number') throw new Error('the bench output has no "evaluated" count');
  const rows = new Map<string, Metrics>();
  if (Array.isArray(json.configs)) {
    const columns = COLUMNS.swebench;
    for (const c of json.configs as unknown[]) {
      if (!isObject(c) || typeof c.name !== 'string' || !isObject(c.accuracy)) throw new Error('a "configs" entry has no name or accuracy');
      const metrics: Metrics = {};
      for (const [level, names] of Object.entries(columns)) {
        const values = c.accuracy[level];
        if (!Array.isArray(values) || values.length !== names.length) throw new Error(`"${c.name}": accuracy.${level} does not hold ${names.join(', ')}`);
        names.forEach((m, i) => { metrics[`${level} ${m}`] = values[i] as number; });
      }
      rows.set(c.name, metrics);
    }
  } else if (Array.isArray(json.rows) && isStrings(json.keys)) {
    const keys = json.keys;
    for (const r of json.rows as unknown[]) {
      if (!isObject(r) || typeof rowName(r) !== 'string' || !Array.isArray(r.values) || r.values.length !== keys.length) throw new Error('a "rows" entry does not match "keys"');
      rows.set(rowName(r)!, Object.fromEntries(keys.map((k, i) => [k, (r.values as unknown[])[i] as number])));
    }
  } else {
    throw new Error('the bench output has neither "configs" (bench/swebench-lite) nor "keys" and "rows" (bench/locbench, bench/multi-swe)');
  }
  return { evaluated: json.evaluated, rows };
}

/**
 * The name of an output row: bench/locbench's `name`; bench/multi-swe's `system` for the group
 * `all` and `system [group]` for a language or fold (`model default [cpp]`).
 */
function rowName(r: Record<string, unknown>): string | undefined {
  if (typeof r.name === 'string') return r.name;
  if (typeof r.system !== 'string' || typeof r.group !== 'string') return undefined;
  return r.group === 'all' ? r.system : `${r.system} [${r.group}]`;
}

/** How a value reads in a drift line. */
const show = (v: number | undefined) => (v === undefined ? 'nothing' : Number.isNaN(v) ? 'NaN' : String(+v.toFixed(4)));

/**
 * One line per expected value the output misses or moves beyond the tolerance
 * (`ROW: METRIC: expected X, got Y (+D)`), plus one for a different issue count; empty when none.
 */
export function driftLines(reg: Regression, out: BenchOutput): string[] {
  const lines: string[] = [];
  if (out.evaluated !== reg.evaluated) lines.push(`issues evaluated: expected ${reg.evaluated}, got ${out.evaluated}`);
  for (const [row, metrics] of Object.entries(reg.expected)) {
    const got = out.rows.get(row);
    if (!got) { lines.push(`${row}: not in the output (rows: ${[...out.rows.keys()].join(', ')})`); continue; }
    for (const [key, want] of Object.entries(metrics)) {
      const value = got[key];
      const diff = value - want;
      // NaN and a missing value are drift too: the comparison below is false for them
      if (Math.abs(diff) <= reg.tolerance + 1e-9) continue;
      const delta = value === undefined || Number.isNaN(value) ? '' : ` (${diff > 0 ? '+' : ''}${show(diff)})`;
      lines.push(`${row}: ${key}: expected ${show(want)}, got ${show(value)}${delta}`);
    }
  }
  return lines;
}

/** Number of expected values of a regression. */
export function expectedCount(reg: Regression): number {
  return Object.values(reg.expected).reduce((n, m) => n + Object.keys(m).length, 0);
}

/**
 * The regression's file text with `expected` and `evaluated` taken from `out` (values to 4
 * decimals): the rows it already expects, or every row of the output when it expects none.
 */
export function recordedText(reg: Regression, out: BenchOutput): string {
  const raw = JSON.parse(readFileSync(reg.path, 'utf8')) as Record<string, unknown>;
  const names = Object.keys(reg.expected).length > 0 ? Object.keys(reg.expected) : [...out.rows.keys()];
  const expected: Record<string, Metrics> = {};
  for (const name of names) {
    const got = out.rows.get(name);
    if (!got) throw new IssuelocError(`${reg.path}: row "${name}" is not in the output: nothing recorded`, 2);
    expected[name] = Object.fromEntries(Object.entries(got).map(([k, v]) => [k, +v.toFixed(4)]));
  }
  return formatJson({ ...raw, evaluated: out.evaluated, expected });
}

/**
 * JSON with two-space indent, but on one line each: lists of plain values, objects of numbers
 * (a row's metrics) and other objects of plain values up to 160 characters.
 */
export function formatJson(value: unknown): string {
  const fmt = (v: unknown, indent: string): string => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    const list = Array.isArray(v);
    const entries: [string | null, unknown][] = list ? v.map((x) => [null, x]) : Object.entries(v);
    const inner = entries.map(([k, x]) => `${k === null ? '' : `${JSON.stringify(k)}: `}${fmt(x, `${indent}  `)}`);
    const [open, close] = list ? ['[', ']'] : ['{', '}'];
    const one = `${open}${inner.join(', ')}${close}`;
    const plain = entries.every(([, x]) => x === null || typeof x !== 'object');
    if (inner.length === 0 || (plain && (list || one.length <= 160 || entries.every(([, x]) => typeof x === 'number')))) return one;
    return `${open}\n${inner.map((s) => `${indent}  ${s}`).join(',\n')}\n${indent}${close}`;
  };
  return `${fmt(value, '')}\n`;
}
