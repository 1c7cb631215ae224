import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';
import { Localizer } from '../../src/retrieve/localize.js';
import { DEFAULT_TITLE_WEIGHT } from '../../src/retrieve/query.js';
import { FeatureExtractor } from '../../src/ltr/features/extract.js';
import { FEATURES } from '../../src/ltr/features/registry.js';
import { RankingModel, MODEL_FORMAT } from '../../src/ltr/model.js';
import { ModelRanker } from '../../src/ltr/model-ranker.js';
import { DEFAULT_CANDIDATES } from '../../src/ltr/train.js';
import { withCpuTime } from '../util/load-bound.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

const fn = (qualifiedName: string, line: number, words: string[], lines = 2): UnitTerms => ({
  kind: 'function', qualifiedName, startLine: line, endLine: line + lines,
  body: [...words.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>())], bodyLength: words.length,
});
const file = (words: string[]): UnitTerms => ({ ...fn('', 1, words), kind: 'file' });

function sampleIndex() {
  const files = [
    { path: 'pkg/printing/latex.py', units: [file(['latex', 'print', 'mul']), fn('LatexPrinter._print_Mul', 10, ['print', 'mul', 'latex', 'needs_brackets'], 40), fn('LatexPrinter.__init__', 3, ['settings']), fn('LatexPrinter._needs_brackets', 60, ['brackets', 'latex'])] },
    { path: 'pkg/core/mul.py', units: [file(['mul', 'args']), fn('Mul.flatten', 5, ['mul', 'args', 'flatten'], 100)] },
    { path: 'pkg/__init__.py', units: [file(['version'])] },
  ];
  return buildCodeIndex('c0ffee', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 });
}

const col = (name: string) => FEATURES.indexOf(name as (typeof FEATURES)[number]);

test('features of candidates: lexical scores in [0, 1], signals, names, history and shape', () => {
  const ci = sampleIndex();
  const text = 'latex printing of Mul is wrong: `_print_Mul()` drops the sign\nneeds_brackets is not asked';
  const ex = new FeatureExtractor(ci, DEFAULT_CANDIDATES);
  const set = ex.extract(parseIssue(text), {
    files: new Map([['pkg/core/mul.py', { changes: 9, fixes: 3, fixRecency: 0.5, fixWeighted: 0.2, changeRecency: 0.9 }]]),
    messageScores: new Map([['pkg/printing/latex.py', 0.3]]),
  });
  assert.ok(set.docs.length >= 2);
  assert.equal(set.features.length, set.docs.length * FEATURES.length);
  for (const v of set.features) assert.ok(v >= 0 && v <= 1 + 1e-6, `feature value ${v}`);
  const row = (id: string) => {
    const i = set.ids.indexOf(id);
    assert.ok(i >= 0, `${id} is a candidate`);
    return (name: string) => set.features[i * FEATURES.length + col(name)];
  };
  const printMul = row('pkg/printing/latex.py:LatexPrinter._print_Mul');
  assert.equal(printMul('namedFunction'), 1);
  assert.equal(printMul('nameCoverage'), 1, 'print and mul are both in the issue');
  assert.equal(printMul('nameInText'), 1);
  assert.equal(printMul('classInText'), 0, 'LatexPrinter is not written');
  assert.equal(printMul('messageSim'), 1, 'the only message score is the max');
  assert.equal(printMul('pipeline'), 1, 'best candidate');
  const flatten = row('pkg/core/mul.py:Mul.flatten');
  assert.equal(flatten('fixes'), 1);
  assert.equal(flatten('fixRecency'), 0.5);
  assert.equal(flatten('namedFunction'), 0);
  assert.equal(flatten('classInText'), 1, 'Mul is written');
  assert.ok(flatten('length') > printMul('length'));
  const helper = row('pkg/printing/latex.py:LatexPrinter._needs_brackets');
  assert.equal(helper('calledByTop'), 1, 'called by the best candidate');
  assert.equal(printMul('calledByTop'), 0);
  assert.ok(printMul('callsTop') > 0 && printMul('callsTop') === helper('pipeline'));
  assert.ok(Math.abs(helper('calledByCount') - Math.log(2) / Math.log(11)) < 1e-6, 'one of the top candidates uses its name');
  assert.equal(flatten('calledByCount'), 0);
  // the title is the first line: 'latex printing of Mul is wrong: ...' names latex and mul
  assert.equal(printMul('titleBm25'), 1);
  assert.ok(helper('titleBm25') > 0 && helper('titleBm25') < 1, 'brackets is not in the title, latex is');
  assert.equal(printMul('fileTitleBm25'), 1);
  assert.equal(printMul('nameInTitle'), 1, '_print_Mul is written in the title');
  assert.equal(helper('nameInTitle'), 0, 'not written in the title');
  assert.equal(flatten('classInTitle'), 1, 'Mul is written in the title');
  assert.equal(printMul('titleName'), 1, 'print and mul: the best name-field match of the title');
  assert.ok(printMul('titlePath') > 0 && flatten('titlePath') > 0, 'latex and mul are in the paths');
  assert.ok(helper('titleName') < printMul('titleName'), 'only LatexPrinter of its name is in the title');
  assert.equal(printMul('withinFileRank'), 1);
  assert.ok(helper('withinFileRank') < 1);
  assert.deepEqual(set.signals.get(set.ids.indexOf('pkg/printing/latex.py:LatexPrinter._print_Mul')), ['namedFunction']);
});

test('a model of the pipeline score alone ranks like the lexical pipeline', () => {
  const ci = sampleIndex();
  const text = 'Mul flatten args and latex print';
  const model = new RankingModel({ weights: { pipeline: 1 }, candidates: DEFAULT_CANDIDATES });
  const issue = parseIssue(text);
  const query = issue.queryTerms({ stem: false, titleWeight: DEFAULT_TITLE_WEIGHT });
  const { signals } = issue;
  const byModel = new ModelRanker(ci, model).localize(issue);
  const lexical = new Localizer(ci, DEFAULT_CANDIDATES.ranking).localize(query, { signals });
  assert.deepEqual(byModel.functions.map((f) => f.id), lexical.functions.map((f) => f.id));
  assert.deepEqual(byModel.files.map((f) => f.id), lexical.files.map((f) => f.id));
  assert.deepEqual(byModel.modules.map((f) => f.id), lexical.modules.map((f) => f.id));
  assert.deepEqual(byModel.functions[0].matchedTerms, lexical.functions[0].matchedTerms);
  // a model that prefers long functions reorders
  const long = new RankingModel({ weights: { length: 1 }, candidates: DEFAULT_CANDIDATES });
  assert.equal(new ModelRanker(ci, long).localize(parseIssue(text)).functions[0].id, 'pkg/core/mul.py:Mul.flatten');
  // own file weights rank the files; functions keep the main weights
  const perLevel = new RankingModel({ weights: { pipeline: 1 }, levels: { file: { length: 1 } }, candidates: DEFAULT_CANDIDATES });
  const split = new ModelRanker(ci, perLevel).localize(parseIssue(text));
  assert.deepEqual(split.functions.map((f) => f.id), lexical.functions.map((f) => f.id));
  assert.equal(split.files[0].id, 'pkg/core/mul.py');
  assert.deepEqual(split.modules.map((f) => f.id), lexical.modules.map((f) => f.id));
});

test('model files: round trip, and bad files are named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-model-'));
  try {
    const path = join(dir, 'm.json');
    new RankingModel({ weights: { pipeline: 0.7, fixes: 0.3 }, candidates: DEFAULT_CANDIDATES }).save(path);
    const back = RankingModel.load(path);
    assert.equal(back.file.format, MODEL_FORMAT, 'a linear model keeps the linear format');
    assert.equal(back.scorers.function.weights[col('fixes')], 0.3);
    assert.equal(back.candidates.depth, DEFAULT_CANDIDATES.depth);
    const bad = (value: unknown, re: RegExp) => {
      writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
      assert.throws(() => RankingModel.load(path), re);
    };
    bad('{', /not JSON/);
    bad({ format: 'other' }, /not an issueloc model/);
    bad({ format: MODEL_FORMAT, weights: { nope: 1 }, candidates: { depth: 5 } }, /unknown feature 'nope'/);
    bad({ format: MODEL_FORMAT, weights: { pipeline: 'x' }, candidates: { depth: 5 } }, /not a finite number/);
    bad({ format: MODEL_FORMAT, weights: {}, candidates: { depth: 0 } }, /positive integer/);
    bad({ format: MODEL_FORMAT, weights: {}, levels: { function: {} }, candidates: { depth: 5 } }, /only file and module/);
    bad({ format: MODEL_FORMAT, weights: {}, levels: { file: { nope: 1 } }, candidates: { depth: 5 } }, /unknown feature 'nope'/);
    assert.throws(() => RankingModel.load(join(dir, 'missing.json')), /cannot read model .*missing\.json: no such file$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad input: no indexed word gives empty rankings; a 1 MB issue ranks in bounded time', () => {
  const ci = sampleIndex();
  const model = new RankingModel({ weights: { pipeline: 1, length: 0.2 }, candidates: DEFAULT_CANDIDATES });
  const ranker = new ModelRanker(ci, model);
  for (const text of ['', 'the of and', '!!! ??? ...']) {
    const loc = ranker.localize(parseIssue(text));
    assert.deepEqual([loc.functions.length, loc.files.length, loc.modules.length, loc.matchedQueryTerms], [0, 0, 0, 0]);
  }
  const big = `${'Traceback: File "pkg/core/mul.py", line 3, in flatten\n'.repeat(2000)}${'latex_printer mul_args x '.repeat(40_000)}`;
  assert.ok(big.length > 1_000_000);
  // CPU time, not wall-clock: a blow-up costs minutes of CPU, a loaded machine only waits for a core
  const { value: loc, cpuMs } = withCpuTime(() => ranker.localize(parseIssue(big)));
  assert.ok(cpuMs < 5000, `${cpuMs.toFixed(0)} ms of CPU`);
  assert.equal(loc.files[0].id, 'pkg/core/mul.py');
});
