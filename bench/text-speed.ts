/**
 * Speed of the text stage (prints numbers, asserts nothing).
 *
 *   npx tsc -p tsconfig.json && node dist/bench/text-speed.js \
 *       [--repo MIRRORS/sympy+sympy/repo] [--rev HEAD] [--ext .py]
 *
 * Data and mirrors: bench/lib/data.ts (`ISSUELOC_DATA`, `ISSUELOC_MIRRORS`).
 *
 * 1. tokenize every source file of a repository at a commit (default: sympy, the largest
 *    SWE-bench Lite corpus): cold (fresh tokenizer, empty memo), warm, and with Porter stemming;
 * 2. extractIssueSignals and countIdentifiers on the SWE-bench Lite problem statements and on
 *    1 MB issue bodies built to be hard (one long line, many frames, many anchors);
 * 3. htmlToText / jiraWikiToText / markdownToText on the Maven Jira descriptions;
 * 4. extractIssueSignals + SignalResolver.boosts (what `localize` does with an issue's signals) on
 *    700 KB issue texts built to be hard, against a small synthetic index (needs no repository
 *    and no data folder).
 * `--only tokenize|signals|clean|adversarial` runs one part.
 * Files are read with `git cat-file --batch` (GitRepo), so a bare mirror works.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createTokenizer } from '../src/text/tokenize.js';
import { countIdentifiers, extractIssueSignals } from '../src/text/issue-signals.js';
import { htmlToText, jiraWikiToText, markdownToText } from '../src/text/clean.js';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../src/index/code-index.js';
import type { UnitTerms } from '../src/index/blob-terms.js';
import { SignalResolver } from '../src/retrieve/signals.js';
import { dataFile, mirrorRepo } from './lib/data.js';
import { GitRepo } from '../src/repo/git.js';

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

const repo = arg('--repo', mirrorRepo('sympy+sympy'));
const rev = arg('--rev', 'HEAD');
const ext = arg('--ext', '.py');

function ms(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/**
 * Best of `reps` runs of `f`: wall-clock ms and CPU ms (user + system of this process; on a shared
 * 2-core machine the CPU figure is the steadier one).
 */
function best(reps: number, f: () => void): { wall: number; cpu: number } {
  let wall = Infinity;
  let cpu = Infinity;
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    f();
    wall = Math.min(wall, ms(t0));
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1000);
  }
  return { wall, cpu };
}

function fmt(t: { wall: number; cpu: number }): string {
  return `${t.wall.toFixed(1).padStart(7)} ms wall ${t.cpu.toFixed(1).padStart(7)} ms cpu`;
}

/** Contents of the files ending in `suffix` at `revision` of `gitDir`, read with one cat-file process. */
async function readSources(gitDir: string, revision: string, suffix: string): Promise<string[]> {
  const repo = await GitRepo.open(gitDir);
  try {
    const { entries } = await repo.listFiles(revision);
    const out: string[] = [];
    for await (const [, buf] of repo.readBlobs(entries.filter((e) => e.path.endsWith(suffix)).map((e) => e.blob))) {
      if (buf) out.push(buf.toString('utf8'));
    }
    return out;
  } finally {
    await repo.close();
  }
}

async function benchTokenize(): Promise<void> {
  if (!existsSync(repo)) {
    console.log(`tokenize: skipped, no repository at ${repo}`);
    return;
  }
  const sources = await readSources(repo, rev, ext);
  const chars = sources.reduce((a, s) => a + s.length, 0);
  console.log(`tokenize: ${sources.length} ${ext} files, ${(chars / 1e6).toFixed(1)} M chars (${repo} @ ${rev})`);
  for (const [label, opts, warm] of [
    ['cold memo', {}, false],
    ['warm memo (2nd pass)', {}, true],
    ['stem, cold memo', { stem: true }, false],
  ] as const) {
    let tokens = 0;
    let tk = createTokenizer(opts);
    const t = best(3, () => {
      if (!warm) tk = createTokenizer(opts);
      tokens = 0;
      for (const s of sources) tokens += tk.tokenize(s).length;
    });
    console.log(`  ${label.padEnd(22)} ${fmt(t)}  ${tokens} tokens  ${(chars / 1e3 / t.wall).toFixed(1)} M chars/s`);
  }
}

function oneMegabyte(unit: string): string {
  return unit.repeat(Math.ceil((1 << 20) / unit.length));
}

function benchSignals(): void {
  const rows = readFileSync(dataFile('swebench-lite/swebench_lite.jsonl'), 'utf8').trim().split('\n')
    .map((l) => JSON.parse(l) as { problem_statement: string });
  let frames = 0;
  const tAll = best(3, () => {
    frames = 0;
    for (const r of rows) frames += extractIssueSignals(r.problem_statement).frames.length;
  });
  const tCount = best(3, () => {
    for (const r of rows) countIdentifiers(r.problem_statement);
  });
  console.log(`issue signals: ${rows.length} SWE-bench Lite issues: extractIssueSignals ${fmt(tAll)} (${frames} frames); countIdentifiers ${fmt(tCount)}`);
  const bodies: [string, string][] = [
    ['one line of letters', oneMegabyte('a')],
    ['python traceback', oneMegabyte('  File "/x/sympy/core/basic.py", line 12, in subs\n    return 1\n')],
    ['java trace', oneMegabyte('\tat org.apache.maven.DefaultMaven.execute(DefaultMaven.java:12)\n')],
    ['"at " without newline', oneMegabyte('at at a.b(c at ')],
    ['dots and parens', oneMegabyte('a.b.c.D(x.py:1:2 ')],
    ['quotes, no close', oneMegabyte('File "')],
    ['go and rust anchors', oneMegabyte('.go:1 .rs:1:2 panicked at ')],
    ['snake and camel words', oneMegabyte('foo_bar HTTPServer org.apache.Foo MAX_SIZE ')],
    ['compiler anchors', oneMegabyte('a.cpp:1:2: error: x.h(3): note ./y.go:4: z.ts(1,2): error TS1 ')],
    ['report lines', oneMegabyte('In file included from a.h:1,\n  --> src/x.rs:1:2\nf@x.js:1:2\nundefined reference to `ns::f()\'\n')],
    ['"@" and "undefined"', oneMegabyte('a@b@c:1:2 undefined reference to `')],
  ];
  for (const [label, body] of bodies) {
    let s = extractIssueSignals('');
    const t = best(3, () => {
      s = extractIssueSignals(body);
    });
    console.log(`  1 MB ${label.padEnd(24)} ${fmt(t)}  (${s.frames.length} frames, ${s.identifiers.length} identifiers)`);
  }
}

function benchClean(): void {
  const rows = readFileSync(dataFile('jira/maven_mng_bugs.jsonl'), 'utf8').trim().split('\n')
    .map((l) => JSON.parse(l) as { description_html: string | null });
  const html = rows.map((r) => r.description_html ?? '');
  const chars = html.reduce((a, s) => a + s.length, 0);
  for (const code of ['keep', 'remove', 'marker'] as const) {
    const t = best(3, () => {
      for (const h of html) htmlToText(h, { mode: 'remove-formatting', code });
    });
    console.log(`clean: htmlToText code=${code} on ${html.length} Maven descriptions (${(chars / 1e6).toFixed(1)} M chars): ${fmt(t)}`);
  }
  const wiki = oneMegabyte('h2. Title\n*bold* _it_ [link|http://x.org] !img.png! {code}x = 1{code} (y) :) ----\n');
  console.log(`clean: jiraWikiToText 1 MB: ${fmt(best(3, () => jiraWikiToText(wiki, { mode: 'remove-formatting', code: 'marker' })))}`);
  const md = oneMegabyte('# T\n**b** _i_ [l](http://x.org) ![i](a.png) ```py\nx\n``` :smile:\n');
  console.log(`clean: markdownToText 1 MB: ${fmt(best(3, () => markdownToText(md, { mode: 'remove-formatting', code: 'marker' })))}`);
  const tags = oneMegabyte('<p>x <a href="http://x.org">http://x.org</a></p>');
  console.log(`clean: htmlToText 1 MB of tags: ${fmt(best(3, () => htmlToText(tags)))}`);
}

/** Signals of 700 KB adversarial texts, extracted and resolved against a five-file index. */
function benchAdversarial(): void {
  const fn = (qualifiedName: string): UnitTerms => ({ kind: 'function', qualifiedName, startLine: 1, endLine: 3, body: [['x', 1]], bodyLength: 1 });
  const file = (): UnitTerms => ({ ...fn(''), kind: 'file' });
  const files = ['main.py', 'pkg/mainx/main.py', 'django/db/models/query.py', 'web/index/index.js', 'src/x.py']
    .map((path) => ({ path, units: [file(), fn('main')] }));
  const resolver = new SignalResolver(buildCodeIndex('c', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 }));
  const n = 700 * 1024;
  const fill = (unit: string) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  const shapes: [string, string][] = [
    ["'main.' * N", fill('main.')],
    ["'pkg.' * N + 'main'", `${fill('pkg.')}main`],
    ['distinct dotted names', Array.from({ length: 60_000 }, (_, i) => `main.f${i}`).join(' ').slice(0, n)],
    ['dots', fill('.')],
    ['spaces', fill(' ')],
    ['slashes', fill('/')],
    ["'at ' lines", fill('\tat a.b.C.d(C.java:1)\n')],
    ["'at ' without frames", fill('at ')],
    ['distinct Python frames', Array.from({ length: 20_000 }, (_, i) => `  File "/x/m${i}/main.py", line ${i}, in f${i}\n`).join('').slice(0, n)],
    ['one line of letters', fill('a')],
  ];
  console.log('adversarial 700 KB issue texts: extractIssueSignals + SignalResolver.boosts');
  for (const [label, body] of shapes) {
    const t = best(2, () => resolver.boosts(extractIssueSignals(body)));
    console.log(`  ${label.padEnd(24)} ${fmt(t)}`);
  }
}

const parts: Record<string, () => void | Promise<void>> = { tokenize: benchTokenize, signals: benchSignals, clean: benchClean, adversarial: benchAdversarial };
const only = arg('--only', '');
for (const [name, run] of Object.entries(parts)) if (only === '' || only === name) await run();
