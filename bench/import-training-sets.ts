/**
 * Rebuilds the imported training sets of issue 27 from the fetched snapshots in one command (the
 * converted records are not committed: Denchmark_BRs and swe-bench-dataset state no licence,
 * Defects4J's bug list comes with report texts of another repository, SWE-PolyBench's rows hold
 * the projects' issue texts and patches under the projects' licences). For each set it copies the
 * set's folders out of the sources' bare snapshots (blobs a snapshot lacks are skipped and
 * counted), then runs `issueloc dataset import --from <set>` against the mirrors folder and prints
 * the summary lines.
 *
 * Usage (from the repo root, after `npx tsc`):
 *   node dist/bench/import-training-sets.js --out OUT [--mirrors MIRRORS] [--only denchmark|swebench-dev|defects4j|polybench]
 *       [--polybench-tasks FILE]
 *
 * Snapshots: `MIRRORS/RosePasta+Denchmark_BRs/repo` (`JSonSet/simplejson`) and
 * `MIRRORS/yogendrahexo+swe-bench-dataset/repo` (`projects`), `MIRRORS/rjust+defects4j/repo`
 * (`framework/projects`) with `MIRRORS/Trustworthy-Software+Quatrain/repo` (`data/BugReport`),
 * `MIRRORS/ictu-se+swe-polybench-traceability-artifact/repo` (`data`); code repositories as
 * `MIRRORS/OWNER+NAME/repo`. A snapshot lacks files of 4 MiB and more, the artifact's
 * `data/tasks.jsonl` (6.3 MB) among them: `--polybench-tasks FILE` reads that file (or any JSONL of
 * SWE-PolyBench rows) instead of the snapshot. Writes `OUT/<set>.jsonl` (+ `.dropped.jsonl`, `.meta.json`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './lib/args.js';
import { GitRepo } from '../src/repo/git.js';
import { MIRRORS_DIR } from './lib/data.js';

const { values } = benchArgs({
  options: {
    mirrors: { type: 'string', default: MIRRORS_DIR },
    out: { type: 'string' },
    only: { type: 'string' },
    'polybench-tasks': { type: 'string' },
  },
});
if (!values.out) throw new Error('--out OUT is required');
const out = values.out;
const mirrors = values.mirrors;

/** The training sets: the `--from` format, the input folder, and the snapshot folders it is copied from. */
const SETS = [
  { from: 'denchmark', input: 'JSonSet/simplejson', parts: [{ snapshot: 'RosePasta+Denchmark_BRs', folder: 'JSonSet/simplejson' }] },
  { from: 'swebench-dev', input: 'projects', parts: [{ snapshot: 'yogendrahexo+swe-bench-dataset', folder: 'projects' }] },
  {
    from: 'defects4j',
    input: '.',
    parts: [{ snapshot: 'rjust+defects4j', folder: 'framework/projects' }, { snapshot: 'Trustworthy-Software+Quatrain', folder: 'data/BugReport' }],
  },
  { from: 'polybench', input: 'data/tasks.jsonl', parts: [{ snapshot: 'ictu-se+swe-polybench-traceability-artifact', folder: 'data' }] },
];

/** Copies `folder` of the snapshot's HEAD to `dest`; returns files written and blobs missing. */
async function extract(snapshot: string, folder: string, dest: string): Promise<{ written: number; missing: string[] }> {
  const repo = await GitRepo.open(join(mirrors, snapshot, 'repo'));
  try {
    const listing = await repo.listFiles('HEAD');
    const files = listing.entries.filter((f) => f.path.startsWith(`${folder}/`));
    const byBlob = new Map<string, string[]>();
    for (const f of files) byBlob.set(f.blob, [...(byBlob.get(f.blob) ?? []), f.path]);
    let written = 0;
    const missing: string[] = [];
    for await (const [blob, data] of repo.readBlobs([...byBlob.keys()])) {
      for (const path of byBlob.get(blob) ?? []) {
        if (!data) {
          missing.push(path);
          continue;
        }
        const target = join(dest, path);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, data);
        written++;
      }
    }
    return { written, missing };
  } finally {
    await repo.close();
  }
}

const BIN = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
for (const set of SETS) {
  if (values.only && values.only !== set.from) continue;
  const src = join(out, 'sources', set.from);
  const given = set.from === 'polybench' ? values['polybench-tasks'] : undefined;
  for (const part of given ? [] : set.parts) {
    const { written, missing } = await extract(part.snapshot, part.folder, src);
    process.stdout.write(`${set.from}: ${written} files from ${part.snapshot}${missing.length ? `, ${missing.length} blobs missing from the snapshot (${missing.slice(0, 3).join(', ')}…)` : ''}\n`);
  }
  const r = spawnSync(process.execPath, [BIN, 'dataset', 'import', '--from', set.from, '--input', given ?? join(src, set.input),
    '--mirrors', mirrors, '-o', join(out, `${set.from}.jsonl`), '--skip-invalid', '--no-progress'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  process.stdout.write(r.stdout + r.stderr);
  if (r.status !== 0 && r.status !== 1) process.exitCode = r.status ?? 3;
}
