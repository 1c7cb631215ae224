// `issueloc train` end to end on a tiny repository built here: features, fit, model file; bad
// input gives one line naming it and exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RankingModel, TREE_MODEL_FORMAT } from '../../src/ltr/model.js';
import { historyEvidenceRead } from '../../src/ltr/features/history.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');
/** `issueloc ARGS…` by the executable; the other runs go through the CLI's main in-process (runInProcess): their process is not under test. */
const run = (args: string[]) => {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

const SOURCES: Record<string, string> = {
  'app/parser.py': 'def parse_header(line):\n    return line.split(":")\n\n\ndef parse_body(text):\n    return text.strip()\n',
  'app/render.py': 'def render_page(page):\n    return "<html>" + page\n\n\ndef render_header(header):\n    return header.upper()\n',
  'app/cache.py': 'def cache_get(key):\n    return None\n\n\ndef cache_put(key, value):\n    pass\n',
};

function record(id: string, commit: string, repoPath: string, title: string, gold: string) {
  return {
    issue: { id, title, body: '', bodyRaw: '', type: 'Bug', category: 'Bug', created: '2020-02-01T00:00:00Z', resolved: null, labels: [] },
    repo: 'test/app', commits: [], aprioriCommit: commit, positives: [gold.split(':')[0]], positiveFunctions: [gold],
    candidates: 3, variant: 'test', provenance: { repoPath },
  };
}

test('train fits a model on dataset records and writes a loadable model file', async () => {
  const fx = fixtureRepo([
    { id: 'A', message: 'initial', files: SOURCES },
    { id: 'B', parents: ['A'], message: 'Fix header parsing crash', files: { 'app/parser.py': `${SOURCES['app/parser.py']}# fixed\n` } },
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-train-'));
  try {
    const data = join(dir, 'd.jsonl');
    writeFileSync(data, [
      record('1', fx.sha('B'), fx.dir, 'header parse fails on colon', 'app/parser.py:parse_header'),
      record('2', fx.sha('B'), fx.dir, 'rendered header is not upper case', 'app/render.py:render_header'),
      record('3', fx.sha('B'), fx.dir, 'cache put loses value for key', 'app/cache.py:cache_put'),
    ].map((r) => JSON.stringify(r)).join('\n'));
    const model = join(dir, 'm.json');
    const r = run(['train', '--dataset', data, '-o', model, '--cache-dir', join(dir, 'cache'), '--features-cache', join(dir, 'features'), '--restarts', '0', '--no-progress']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /trained lambdamart on 3 issues/);
    const m = RankingModel.load(model);
    assert.equal(m.file.format, TREE_MODEL_FORMAT);
    assert.ok(m.scorers.function.ensemble, 'trees');
    assert.equal(m.scorers.file, m.scorers.function, 'by default the function trees rank every level');
    assert.deepEqual(m.file.training?.issueIds, ['1', '2', '3']);
    // the log of the repository (`<repo>.json`; a base commit's co-changes are `<repo>-<commit>.cochange-….json`)
    assert.equal(readdirSync(join(dir, 'cache', 'test+app', 'history')).filter((f) => /^[0-9a-f]+\.json$/.test(f)).length, 1, 'history cached per repository');
    assert.equal(readdirSync(join(dir, 'features')).length, 1);
    // second run: features come from the cache
    const again = await runInProcess(['train', '--dataset', data, '-o', model, '--cache-dir', join(dir, 'cache'), '--features-cache', join(dir, 'features'),
      '--learner', 'coordinate-ascent', '--restarts', '0', '--bags', '2', '--level-objective', 'file=file:MRR', '--level-features', 'file=pipeline,fileBm25f', '--no-progress']);
    assert.equal(again.code, 0, again.err);
    const perLevel = RankingModel.load(model);
    assert.ok(perLevel.file.levels?.file, 'own file weights');
    assert.deepEqual(Object.keys(perLevel.file.levels!.file!).filter((f) => !['pipeline', 'fileBm25f'].includes(f)), []);
    // localize --model ranks with it (history read from git and cached beside the index)
    const loc = await runInProcess(['localize', '--repo', fx.dir, '--issue', 'parse_header fails on a colon', '--model', model, '--json', '--cache-dir', join(dir, 'loc'), '--no-progress']);
    assert.equal(loc.code, 0, loc.err);
    const out = JSON.parse(loc.out) as { functions: { id: string }[]; files: { id: string }[] };
    assert.equal(out.functions[0].id, 'app/parser.py:parse_header');
    assert.equal(out.files[0].id, 'app/parser.py');
    // the history is read only for a model that reads a history feature (`RankingModel.reads`)
    const historyFiles = () => (existsSync(join(dir, 'loc', 'history')) ? readdirSync(join(dir, 'loc', 'history')).filter((f) => /^[0-9a-f]+\.json$/.test(f)).length : 0);
    assert.equal(historyFiles(), Object.values(historyEvidenceRead(perLevel.reads)).some(Boolean) ? 1 : 0);
    const builtIn = await runInProcess(['localize', '--repo', fx.dir, '--issue', 'parse_header fails on a colon', '--model', 'default', '--json', '--cache-dir', join(dir, 'loc'), '--no-progress']);
    assert.equal(builtIn.code, 0, builtIn.err);
    assert.equal((JSON.parse(builtIn.out) as { files: { id: string }[] }).files[0].id, 'app/parser.py');
    assert.equal(historyFiles(), 1, 'the built-in model reads the file history: read from git and cached');
    const missing = await runInProcess(['localize', '--repo', fx.dir, '--issue', 'parse', '--model', join(dir, 'none.json'), '--cache-dir', join(dir, 'loc'), '--no-progress']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /cannot read model .*none\.json/);
  } finally {
    fx.remove();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('train: unknown feature, unknown dataset kind and a bad objective are one-line errors', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-train-'));
  try {
    const data = join(dir, 'd.jsonl');
    writeFileSync(data, '{"hello": 1}\n');
    const cases: [string[], RegExp][] = [
      [['--features', 'pipeline,nope'], /unknown feature 'nope'/],
      [['--objective', 'file:NDCG'], /unknown metric 'NDCG'/],
      [['--level-objective', 'function=function:MAP'], /takes file=… or module=…/],
      [['--learner', 'forest'], /--learner takes lambdamart or coordinate-ascent/],
      [['--learner', 'coordinate-ascent', '--trees', '5'], /--trees applies to --learner lambdamart only/],
      [['--level-trees', 'function'], /--level-trees takes file, module or none/],
      [['--learning-rate', '0'], /--learning-rate takes a positive number/],
      [[], /unknown dataset kind/],
    ];
    for (const [extra, re] of cases) {
      const r = await runInProcess(['train', '--dataset', data, '-o', join(dir, 'm.json'), '--no-progress', ...extra]);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, re);
      assert.equal(r.err.trim().split('\n').length, 1);
    }
    assert.equal(existsSync(join(dir, 'm.json')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
