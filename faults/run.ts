/**
 * faults/run: the fault suite's probes against the built CLI (`node bin/issueloc.js …`), on
 * small repositories built in a temporary folder, with a table of tries and failures per area.
 *
 *   npm run build && node dist/faults/run.js [--quick] [--json] [--seed N] [--repeat N]
 *       [--area kill,cache,…] [--probe NAME,…] [--list] [--keep] [--help]
 *
 * A failure is a silently wrong result, a crash (exit code outside 0/1/2, a signal, a stack trace
 * or "internal error" on stderr) or a hang (past the stated bound, or above the memory bound).
 * `--quick` runs the fast subset (what test/faults/ runs); `--repeat` multiplies the randomised
 * tries (kill moments, corruptions); `--seed` makes them repeatable. Exit 1 when any try failed.
 * Bounds and option names: faults/interface.ts; what is probed: docs/reliability.md.
 */
import { parseArgs } from 'node:util';
import { AREAS, Shared, type Try } from './probe.js';
import { allProbes, failuresOf, runProbe, summarize, summaryTable } from './suite.js';

const USAGE = 'node dist/faults/run.js [--quick] [--json] [--seed N] [--repeat N] [--area kill,cache,…] [--probe NAME,…] [--list] [--keep] [--help]';

const OPTIONS = {
  quick: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  seed: { type: 'string', default: '1' },
  repeat: { type: 'string', default: '1' },
  area: { type: 'string' },
  probe: { type: 'string' },
  list: { type: 'boolean', default: false },
  keep: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

async function main(): Promise<number> {
  const { values: args } = parseArgs({ options: OPTIONS });
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const areas = args.area ? args.area.split(',') : [...AREAS];
  const unknown = areas.filter((a) => !(AREAS as readonly string[]).includes(a));
  if (unknown.length > 0) throw new Error(`unknown area ${unknown.join(', ')} (areas: ${AREAS.join(', ')})`);
  const names = args.probe ? new Set(args.probe.split(',')) : undefined;
  const probes = allProbes().filter((p) => areas.includes(p.area) && (!args.quick || p.quick) && (!names || names.has(p.name)));
  if (names) for (const n of names) if (!probes.some((p) => p.name === n)) throw new Error(`no probe ${n} (see --list)`);
  if (args.list) {
    for (const p of probes) process.stdout.write(`${p.area.padEnd(12)} ${p.name.padEnd(36)} ${p.quick ? 'quick' : '     '}  ${p.expect}\n`);
    return 0;
  }
  const seed = Number(args.seed);
  const repeat = Number(args.repeat);
  if (!Number.isInteger(seed) || !Number.isInteger(repeat) || repeat < 1) throw new Error('--seed and --repeat take whole numbers (--repeat ≥ 1)');
  const shared = new Shared();
  const tries: Try[] = [];
  const t0 = performance.now();
  try {
    for (const probe of probes) {
      process.stderr.write(`${probe.area}/${probe.name} `);
      const mine = await runProbe(probe, shared, {
        quick: args.quick!, seed, repeat,
        onTry: (t) => process.stderr.write(t.failure ? 'F' : '.'),
      });
      tries.push(...mine);
      const failed = failuresOf(mine).length;
      process.stderr.write(` ${mine.length - failed}/${mine.length} passed\n`);
    }
  } finally {
    if (args.keep) process.stderr.write(`kept ${shared.root}\n`);
    else await shared.remove();
  }
  const summary = summarize(tries);
  const failures = failuresOf(tries);
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ seed, repeat, quick: args.quick, seconds, areas: summary, tries })}\n`);
  } else {
    process.stdout.write(`fault suite${args.quick ? ' (quick)' : ''}, seed ${seed}, ${seconds} s\n\n${summaryTable(summary)}\n`);
    if (failures.length > 0) {
      process.stdout.write('\nfailures:\n');
      for (const t of failures) process.stdout.write(`- ${t.area}/${t.probe} [${t.label}] ${t.failure!.kind}: ${t.failure!.detail}\n`);
    }
    const notes = tries.filter((t) => t.notes);
    if (notes.length > 0) {
      process.stdout.write('\nnotes:\n');
      for (const t of notes) process.stdout.write(`- ${t.area}/${t.probe} [${t.label}]: ${t.notes!.join('; ')}\n`);
    }
  }
  return failures.length > 0 ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (e: Error) => {
  process.stderr.write(`fault-suite: ${e.message}\n`);
  process.exitCode = 2;
});

