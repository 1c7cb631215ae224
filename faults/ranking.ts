/** The rankings of a `localize --json` answer, and comparing them. */
import type { RunResult } from './cli.js';
import { badEnd, firstLine, wrong, type Failure } from './probe.js';

const LEVELS = ['files', 'modules', 'functions'] as const;

/** Per level, the ranked ids with their scores (as printed). */
export type Ranking = Partial<Record<(typeof LEVELS)[number], { id: string; score: number }[]>>;

/** The rankings in a `localize --json` stdout, or a reason why there are none. */
export function parseRanking(stdout: string): Ranking | string {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(stdout) as Record<string, unknown>;
  } catch (e) {
    return `stdout is not one JSON object (${stdout.length} bytes: ${(e as Error).message})`;
  }
  if (!v || typeof v !== 'object') return 'stdout is not a JSON object';
  const r: Ranking = {};
  for (const l of LEVELS) {
    const items = v[l];
    if (items === undefined) continue;
    if (!Array.isArray(items)) return `"${l}" is not a list`;
    r[l] = items.map((it: { id?: unknown; score?: unknown }) => ({ id: String(it?.id), score: it?.score === null ? NaN : Number(it?.score) }));
  }
  if (Object.keys(r).length === 0) return 'no ranking in the JSON answer';
  return r;
}

/** Where two rankings first differ (ids, and scores when `scores`), or undefined when equal. */
export function rankingDiff(got: Ranking, want: Ranking, opts: { scores?: boolean; top?: number } = {}): string | undefined {
  for (const l of LEVELS) {
    const g = (got[l] ?? []).slice(0, opts.top);
    const w = (want[l] ?? []).slice(0, opts.top);
    const n = Math.max(g.length, w.length);
    for (let i = 0; i < n; i++) {
      if (g[i]?.id !== w[i]?.id) return `${l} #${i + 1}: ${JSON.stringify(g[i]?.id ?? null)} instead of ${JSON.stringify(w[i]?.id ?? null)}`;
      if (opts.scores && g[i].score !== w[i].score && !(Number.isNaN(g[i].score) && Number.isNaN(w[i].score))) {
        return `${l} #${i + 1} ${JSON.stringify(g[i].id)}: score ${g[i].score} instead of ${w[i].score}`;
      }
    }
  }
  return undefined;
}

/**
 * The reference ranking of a run that must succeed (probe set-up: a clean run).
 * @throws Error when the run does not exit 0 with rankings (the fixture or the CLI is broken).
 */
export function referenceRanking(r: RunResult): Ranking {
  const bad = badEnd(r);
  if (bad) throw new Error(`reference run failed: ${bad.detail}`);
  if (r.code !== 0) throw new Error(`reference run exit ${r.code}: ${firstLine(r.stderr)}`);
  const ranking = parseRanking(r.stdout);
  if (typeof ranking === 'string') throw new Error(`reference run: ${ranking}`);
  return ranking;
}

/**
 * Checks a run that must exit 0 with the rankings `want`.
 * @param opts.scores compare scores too (default true).
 * @param opts.warning a warning line on stderr is required (`true`), forbidden (`false`) or not looked at (undefined).
 */
export function expectRanking(r: RunResult, want: Ranking, opts: { scores?: boolean; warning?: boolean; top?: number } = {}): Failure | undefined {
  const bad = badEnd(r);
  if (bad) return bad;
  if (r.code !== 0) return wrong(r, `exit ${r.code} instead of a result: ${firstLine(r.stderr)}`);
  const got = parseRanking(r.stdout);
  if (typeof got === 'string') return wrong(r, got);
  const diff = rankingDiff(got, want, { scores: opts.scores ?? true, top: opts.top });
  if (diff) return wrong(r, `ranking differs from the reference: ${diff}`);
  const warned = /^issueloc: warning: /m.test(r.stderr);
  if (opts.warning === true && !warned) return wrong(r, 'same ranking but no warning on stderr (silent)');
  if (opts.warning === false && warned) return wrong(r, `unexpected warning: ${firstLine(r.stderr.split('\n').find((l) => l.includes('warning')) ?? '')}`);
  return undefined;
}
