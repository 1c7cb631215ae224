/**
 * `issueloc dataset import`: argument parsing, progress and the summary line only; the work is
 * `src/dataset/import/run.ts`, the output format that of `dataset build` (`src/dataset/output.ts`).
 */
import { Command, Option } from 'commander';
import { readTypeTable } from '../issues/category.js';
import type { FunctionAgreement } from '../dataset/import/agreement.js';
import { IMPORT_SOURCES, runImport, type ImportSource } from '../dataset/import/run.js';
import { sidecarPaths, writeDatasetFiles } from '../dataset/output.js';
import { progressBar } from '../util/progress-bar.js';

/** The agreement figures in one line. */
function agreementLine(a: FunctionAgreement): string {
  const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
  return `${a.records} records · given ${a.given}, ours ${a.ours}, both ${a.both} · given found by ours ${pct(a.givenFoundByOurs)} · ours named by the source ${pct(a.oursFoundInGiven)} · identical records ${a.identicalRecords}`;
}

/** Registers `dataset import` on the `dataset` command. */
export function registerImport(dataset: Command): void {
  dataset
    .command('import')
    .description("turn a benchmark file (SWE-bench, Loc-Bench, Ye et al. Tomcat) or a training set's folder (Denchmark, SWE-bench dev, Defects4J) or file (SWE-PolyBench) into a dataset file like `dataset build` writes")
    .addOption(new Option('--from <format>', 'benchmark format').choices([...IMPORT_SOURCES]).makeOptionMandatory())
    .requiredOption('--input <file>', 'benchmark JSONL file; for denchmark, swebench-dev and defects4j the fetched folder (JSonSet/simplejson, projects, framework/projects + data/BugReport); for polybench the tasks JSONL or the artifact folder (data/tasks.jsonl)')
    .requiredOption('-o, --out <file>', 'dataset file to write (JSONL); <name>.dropped.jsonl and <name>.meta.json go beside it')
    .option('--repo <path>', 'the one repository of every row (e.g. apache/tomcat)')
    .option('--mirrors <dir>', 'folder of fetched mirrors (OWNER+NAME/repo, swe-bench+OWNER__NAME/repo) for multi-repository sets')
    .option('--variant <name>', "records' variant (default: swebench, locbench, ye2014)")
    .option('--keep-without-functions', 'SWE-bench: keep instances whose patch edits no existing function')
    .option('--type-table <file>', 'JSON {"type": "category"} merged over the default issue-type table')
    .option('--skip-invalid', 'skip (and count) corrupt rows instead of failing')
    .option('--no-progress', 'no progress bar on stderr')
    .action(async (o) => {
      const bar = progressBar('importing rows', o.progress);
      const run = await runImport({
        from: o.from as ImportSource,
        input: o.input,
        repo: o.repo,
        mirrors: o.mirrors,
        variant: o.variant,
        keepWithoutFunctions: o.keepWithoutFunctions === true,
        typeTable: o.typeTable ? readTypeTable(o.typeTable) : undefined,
        skipInvalid: o.skipInvalid === true,
        progress: (done, total) => bar.update(done, total),
      }).finally(() => bar.stop());
      writeDatasetFiles(o.out, run.records, run.dropped, run.meta);
      const c = run.meta.counts;
      const side = sidecarPaths(o.out);
      const lines = [
        `rows ${c.rows}${c.invalidRows ? ` (${c.invalidRows} invalid rows skipped)` : ''} · in dataset ${c.inDataset} · positive functions ${c.positiveFunctions} · records without any ${c.recordsWithoutFunctions} · fix changes tests ${c.changesTests}${c.pureRenames ? ` · pure renames ${c.pureRenames} (not positives)` : ''}`,
        ...(run.meta.agreement ? [`gold functions vs the source's own: ${agreementLine(run.meta.agreement)}`] : []),
        `dropped: ${Object.entries(run.meta.dropReasons).map(([r, n]) => `${r} ${n}`).join(', ') || 'none'}`,
        ...(run.meta.byLanguage ? [`by language: ${Object.entries(run.meta.byLanguage).sort(([a], [b]) => a.localeCompare(b)).map(([l, c]) => `${l} ${c.records} kept / ${c.dropped} dropped`).join(', ')}`] : []),
        `wrote ${run.records.length} records to ${o.out} (dropped rows: ${side.dropped}; counts: ${side.meta}) in ${(run.meta.millis.total / 1000).toFixed(1)} s`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      if (run.records.length === 0) process.exitCode = 1;
    });
}
