/**
 * The fault suite: every probe of every area, running them, and the per-area table of tries and
 * failures (faults/run.ts prints it; test/faults/ runs the quick probes as tests).
 */
import { AREAS, brokeProbe, ProbeContext, type Area, type FailureKind, type Probe, type Shared, type SuiteOptions, type Try } from './probe.js';
import { killProbes } from './areas/kill.js';
import { cacheProbes } from './areas/cache.js';
import { concurrencyProbes } from './areas/concurrency.js';
import { endpointProbes } from './areas/endpoints.js';
import { hostileProbes } from './areas/hostile.js';
import { inputProbes } from './areas/inputs.js';
import { pipeProbes } from './areas/pipe.js';
import { consistencyProbes } from './areas/consistency.js';
import { protocolProbes } from './areas/protocol.js';
import { serviceProbes } from './areas/service.js';
import { cachefsProbes } from './areas/cachefs.js';
import { revisionProbes } from './areas/revisions.js';
import { batchProbes } from './areas/batch.js';

/** Every probe, area by area. */
export function allProbes(): Probe[] {
  return [
    ...killProbes, ...cacheProbes, ...concurrencyProbes, ...endpointProbes,
    ...hostileProbes, ...inputProbes, ...pipeProbes, ...consistencyProbes, ...protocolProbes, ...serviceProbes, ...cachefsProbes, ...revisionProbes, ...batchProbes,
  ];
}

/** The probes of one area (`quick`: only the fast subset). */
export function probesOf(area: Area, quick: boolean): Probe[] {
  return allProbes().filter((p) => p.area === area && (!quick || p.quick));
}

/** Runs one probe and returns its tries (a probe that breaks or records no try adds a failed try). */
export async function runProbe(probe: Probe, shared: Shared, opts: SuiteOptions): Promise<Try[]> {
  const ctx = new ProbeContext(probe, shared, opts);
  const t0 = performance.now();
  try {
    await probe.run(ctx);
    if (ctx.tries.length === 0) ctx.record('(probe)', { kind: 'probe', detail: 'the probe recorded no try' });
  } catch (e) {
    ctx.record('(probe)', brokeProbe(e), performance.now() - t0);
  }
  return ctx.tries;
}

/** The failed tries. */
export function failuresOf(tries: readonly Try[]): Try[] {
  return tries.filter((t) => t.failure);
}

/** Tries and failures of one area. */
export interface AreaSummary {
  area: Area;
  probes: number;
  tries: number;
  failures: number;
  byKind: Record<FailureKind, number>;
}

export function summarize(tries: readonly Try[]): AreaSummary[] {
  return AREAS.map((area) => {
    const mine = tries.filter((t) => t.area === area);
    const byKind: Record<FailureKind, number> = { wrong: 0, crash: 0, hang: 0, probe: 0 };
    for (const t of mine) if (t.failure) byKind[t.failure.kind]++;
    return { area, probes: new Set(mine.map((t) => t.probe)).size, tries: mine.length, failures: mine.filter((t) => t.failure).length, byKind };
  }).filter((s) => s.tries > 0);
}

/** The Markdown table of {@link summarize}. */
export function summaryTable(rows: readonly AreaSummary[]): string {
  const lines = ['| area | probes | tries | failures | wrong | crash | hang | probe broke |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.area} | ${r.probes} | ${r.tries} | ${r.failures} | ${r.byKind.wrong} | ${r.byKind.crash} | ${r.byKind.hang} | ${r.byKind.probe} |`);
  const sum = (f: (r: AreaSummary) => number) => rows.reduce((a, r) => a + f(r), 0);
  lines.push(`| **all** | ${sum((r) => r.probes)} | ${sum((r) => r.tries)} | ${sum((r) => r.failures)} | ${sum((r) => r.byKind.wrong)} | ${sum((r) => r.byKind.crash)} | ${sum((r) => r.byKind.hang)} | ${sum((r) => r.byKind.probe)} |`);
  return lines.join('\n');
}
