/**
 * Cross-check of our gold items (src/dataset/gold.ts, tree-sitter units) against the reference:
 *
 * - SWE-bench Lite: ref_eval.py's output (`gold` of each evaluated instance; skipped instances
 *   must get no gold function from us either);
 * - Loc-Bench V1: the dataset's own `edit_functions`, for instances whose repository is mirrored
 *   and holds the base commit.
 *
 * Usage (from the repo root, after `npx tsc`; REF_EVAL = the reference evaluator ref_eval.py,
 * docs/benchmark-gold.md; data and mirrors folders default as bench/lib/data.ts says):
 *   python3 REF_EVAL --data DATA/swebench-lite/swebench_lite.jsonl --mirrors MIRRORS --out OUT/ref_bm25.json
 *   node dist/bench/gold-check.js --ref OUT/ref_bm25.json [--mirrors MIRRORS] [--swebench FILE]
 *       [--locbench FILE] [--json out.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { benchArgs } from './lib/args.js';
import { goldForPatch, type Gold } from '../src/dataset/gold.js';
import { RepoPool } from '../src/repo/mirrors.js';
import { MIRRORS_DIR, dataFile } from './lib/data.js';

interface RefInstance {
  instance_id: string;
  gold: { file: string[]; module: string[]; function: string[] };
}
interface RefReport {
  instances: RefInstance[];
  skipped: { instance_id: string; reason: string }[];
}
interface Row {
  instance_id: string;
  repo: string;
  base_commit: string;
  patch: string;
  edit_functions?: string[];
}

interface Mismatch {
  id: string;
  level: string;
  onlyOurs: string[];
  onlyTheirs: string[];
  orderOnly?: boolean;
}

const { values } = benchArgs({
  options: {
    ref: { type: 'string' },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    swebench: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    locbench: { type: 'string', default: dataFile('locbench/locbench_v1.jsonl') },
    json: { type: 'string' },
  },
});

function readJsonl(path: string): Row[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
}

function diff(id: string, level: string, ours: string[], theirs: string[], out: Mismatch[]): boolean {
  const o = new Set(ours);
  const t = new Set(theirs);
  const onlyOurs = ours.filter((x) => !t.has(x));
  const onlyTheirs = theirs.filter((x) => !o.has(x));
  if (onlyOurs.length === 0 && onlyTheirs.length === 0) {
    if (ours.join('\n') === theirs.join('\n')) return true;
    out.push({ id, level, onlyOurs, onlyTheirs, orderOnly: true });
    return false;
  }
  out.push({ id, level, onlyOurs, onlyTheirs });
  return false;
}

async function main(): Promise<void> {
  if (values.ref === undefined) throw new Error('gold-check: --ref FILE (the JSON output of ref_eval.py) is required');
  const pool = new RepoPool(values.mirrors!);
  const t0 = Date.now();

  // ---- SWE-bench Lite vs ref_eval.py
  const ref = JSON.parse(readFileSync(values.ref!, 'utf8')) as RefReport;
  const refGold = new Map(ref.instances.map((r) => [r.instance_id, r.gold]));
  const refSkipped = new Map(ref.skipped.map((s) => [s.instance_id, s.reason]));
  const swe = { total: 0, evaluated: 0, exact: 0, fileExact: 0, moduleExact: 0, skippedAgree: 0, skippedDisagree: 0, noRepo: 0, blankLineRuleDiffers: [] as string[] };
  const sweMismatches: Mismatch[] = [];
  for (const row of readJsonl(values.swebench!)) {
    swe.total++;
    const repo = await pool.open(row.repo);
    if (!repo) {
      swe.noRepo++;
      continue;
    }
    const ours: Gold = await goldForPatch(repo, row.base_commit, row.patch);
    const theirs = refGold.get(row.instance_id);
    if (!theirs) {
      // ref_eval found no gold function here
      if (ours.functions.length === 0) swe.skippedAgree++;
      else {
        swe.skippedDisagree++;
        sweMismatches.push({ id: row.instance_id, level: `function (ref skipped: ${refSkipped.get(row.instance_id)})`, onlyOurs: ours.functions, onlyTheirs: [] });
      }
      continue;
    }
    swe.evaluated++;
    const noBlank = await goldForPatch(repo, row.base_commit, row.patch, { ignoreBlankLines: true });
    if (noBlank.functions.join('\n') !== ours.functions.join('\n')) swe.blankLineRuleDiffers.push(row.instance_id);
    const fOk = diff(row.instance_id, 'function', ours.functions, theirs.function, sweMismatches);
    if (fOk) swe.exact++;
    if (diff(row.instance_id, 'file', ours.files, theirs.file, fOk ? sweMismatches : [])) swe.fileExact++;
    if (diff(row.instance_id, 'module', ours.modules, theirs.module, fOk ? sweMismatches : [])) swe.moduleExact++;
  }

  // ---- Loc-Bench vs edit_functions
  const loc = { total: 0, checked: 0, setExact: 0, setExactIgnoringBlankLines: 0, noRepo: 0, noBase: 0 };
  const locMismatches: Mismatch[] = [];
  for (const row of readJsonl(values.locbench!)) {
    loc.total++;
    const repo = await pool.open(row.repo);
    if (!repo) {
      loc.noRepo++;
      continue;
    }
    try {
      await repo.resolveCommit(row.base_commit);
    } catch {
      loc.noBase++;
      continue;
    }
    loc.checked++;
    const ours = await goldForPatch(repo, row.base_commit, row.patch);
    const theirs = row.edit_functions ?? [];
    const m: Mismatch[] = [];
    diff(row.instance_id, 'function', ours.functions, theirs, m);
    const real = m.filter((x) => !x.orderOnly);
    if (real.length === 0) loc.setExact++;
    locMismatches.push(...real);
    const noBlank = await goldForPatch(repo, row.base_commit, row.patch, { ignoreBlankLines: true });
    const m2: Mismatch[] = [];
    diff(row.instance_id, 'function', noBlank.functions, theirs, m2);
    if (m2.every((x) => x.orderOnly)) loc.setExactIgnoringBlankLines++;
    else locMismatches.push(...m2.map((x) => ({ ...x, level: 'function, blank lines ignored' })));
  }
  await pool.close();

  const seconds = (Date.now() - t0) / 1000;
  console.log(`SWE-bench Lite: ${swe.total} instances, ${swe.noRepo} without mirror`);
  console.log(`  ref_eval evaluated ${swe.evaluated}: functions exact (same items, same order) ${swe.exact}; files exact ${swe.fileExact}; modules exact ${swe.moduleExact}`);
  console.log(`  with blank lines ignored (Loc-Bench's rule) the gold functions would differ in ${swe.blankLineRuleDiffers.length}: ${swe.blankLineRuleDiffers.join(' ')}`);
  console.log(`  ref_eval skipped ${swe.skippedAgree + swe.skippedDisagree}: we also find no gold function in ${swe.skippedAgree}`);
  for (const m of sweMismatches) {
    console.log(`  MISMATCH ${m.id} [${m.level}]${m.orderOnly ? ' order only' : ''} ours-only=${JSON.stringify(m.onlyOurs)} ref-only=${JSON.stringify(m.onlyTheirs)}`);
  }
  console.log(`Loc-Bench V1: ${loc.total} instances; ${loc.noRepo} repo not mirrored, ${loc.noBase} base commit missing; checked ${loc.checked}: same function set ${loc.setExact} (ref_eval rule), ${loc.setExactIgnoringBlankLines} (blank lines ignored)`);
  for (const m of locMismatches) {
    console.log(`  MISMATCH ${m.id} [${m.level}] ours-only=${JSON.stringify(m.onlyOurs)} edit_functions-only=${JSON.stringify(m.onlyTheirs)}`);
  }
  console.log(`wall ${seconds.toFixed(1)} s`);
  if (values.json) writeFileSync(values.json, JSON.stringify({ swe, sweMismatches, loc, locMismatches, seconds }, null, 1));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 2;
});
