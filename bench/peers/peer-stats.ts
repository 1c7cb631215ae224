/**
 * The arithmetic of bench/peers: reading the Lucene program's output, summarising per-query times,
 * and the ratios of issueloc to its peer. Pure functions (tested without Java or data).
 */

/** One timed query: wall and CPU milliseconds. */
export interface QueryTime {
  wallMs: number;
  cpuMs: number;
}

/** What LucenePeer.java printed. */
export interface LuceneRun {
  indexMillis: number;
  docs: number;
  /** The timed rounds' queries, in the order run. */
  times: QueryTime[];
  /** Total hits of each query of the first timed round, by query number. */
  hits: number[];
}

/**
 * Parses LucenePeer's standard output: `index MILLIS DOCS`, then `q ROUND QUERY WALL_NANOS
 * CPU_NANOS HITS` lines.
 * @throws Error naming the first line that is neither, or when the `index` line is missing.
 */
export function parseLuceneOutput(text: string): LuceneRun {
  let index: { indexMillis: number; docs: number } | undefined;
  const times: QueryTime[] = [];
  const hits: number[] = [];
  for (const [n, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const parts = line.trim().split(/\s+/);
    const nums = parts.slice(1).map(Number);
    if (parts[0] === 'index' && nums.length === 2 && nums.every(Number.isFinite)) {
      index = { indexMillis: nums[0], docs: nums[1] };
    } else if (parts[0] === 'q' && nums.length === 5 && nums.every((x) => Number.isFinite(x) && x >= 0)) {
      const [round, query, wall, cpu, total] = nums;
      times.push({ wallMs: wall / 1e6, cpuMs: cpu / 1e6 });
      if (round === 0) hits[query] = total;
    } else {
      throw new Error(`unexpected line ${n + 1} of the Lucene output: ${JSON.stringify(line.slice(0, 80))}`);
    }
  }
  if (!index) throw new Error('the Lucene output has no index line');
  return { ...index, times, hits };
}

/** Median and 90th percentile of wall time, mean CPU time per query (ms). */
export interface TimeSummary {
  queries: number;
  medianMs: number;
  p90Ms: number;
  cpuMs: number;
}

/** The q-quantile of `xs` by the nearest-rank rule (the value at rank ⌈q·n⌉); NaN when empty. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

/** Summary of timed queries: median and p90 wall time, mean CPU time. */
export function summarise(times: readonly QueryTime[]): TimeSummary {
  const cpu = times.reduce((s, t) => s + t.cpuMs, 0);
  return {
    queries: times.length,
    medianMs: quantile(times.map((t) => t.wallMs), 0.5),
    p90Ms: quantile(times.map((t) => t.wallMs), 0.9),
    cpuMs: times.length > 0 ? cpu / times.length : NaN,
  };
}

/** issueloc's figures over the peer's, each a ratio (below 1: issueloc is faster). */
export function ratios(ours: TimeSummary, peer: TimeSummary): { median: number; p90: number; cpu: number } {
  return { median: ours.medianMs / peer.medianMs, p90: ours.p90Ms / peer.p90Ms, cpu: ours.cpuMs / peer.cpuMs };
}

/** A Markdown table: one row per configuration, its figures, and its ratios to the peer's row. */
export function ratioTable(peer: { name: string; summary: TimeSummary }, rows: readonly { name: string; summary: TimeSummary }[]): string {
  const f = (x: number) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const lines = [
    `| engine | median (ms) | p90 (ms) | CPU / query (ms) | × ${peer.name} median | × p90 | × CPU |`,
    '|---|---|---|---|---|---|---|',
    `| ${peer.name} | ${f(peer.summary.medianMs)} | ${f(peer.summary.p90Ms)} | ${f(peer.summary.cpuMs)} | 1 | 1 | 1 |`,
  ];
  for (const { name, summary } of rows) {
    const r = ratios(summary, peer.summary);
    lines.push(`| ${name} | ${f(summary.medianMs)} | ${f(summary.p90Ms)} | ${f(summary.cpuMs)} | ${r.median.toFixed(2)} | ${r.p90.toFixed(2)} | ${r.cpu.toFixed(2)} |`);
  }
  return lines.join('\n');
}

/**
 * The Lucene 4 jars (core, analyzers-common) among the file names of a folder such as
 * /usr/share/java, newest version first; undefined when either is missing.
 */
export function luceneJars(names: readonly string[]): { core: string; analyzers: string } | undefined {
  const pick = (prefix: string) => names.filter((n) => new RegExp(`^${prefix}-4\\.[0-9.]+\\.jar$`).test(n))
    .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))[0];
  const core = pick('lucene-core');
  const analyzers = pick('lucene-analyzers-common');
  return core && analyzers ? { core, analyzers } : undefined;
}

/**
 * One line of a query for LucenePeer: `term<TAB>weight…`; terms holding white space (which the
 * peer's whitespace tokeniser would split) are left out, as the corpus export leaves them out.
 */
export function queryLine(query: ReadonlyMap<string, number>): string {
  const parts: string[] = [];
  for (const [term, weight] of query) if (weight > 0 && !/\s/.test(term)) parts.push(term, String(weight));
  return parts.join('\t');
}
