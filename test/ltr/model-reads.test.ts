// A model knows which features its weights and trees read (`RankingModel.reads`); feature
// extraction and the localizer's history evidence compute only those, and no score changes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FeatureExtractor } from '../../src/ltr/features/extract.js';
import { FEATURES } from '../../src/ltr/features/registry.js';
import { historyEvidenceRead } from '../../src/ltr/features/history.js';
import { RankingModel } from '../../src/ltr/model.js';
import { HistoryField } from '../../src/history/history-field.js';
import { openLocalizer } from '../../src/pipeline/localizer.js';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

const fn = (qualifiedName: string, line: number, words: string[]): UnitTerms => ({
  kind: 'function', qualifiedName, startLine: line, endLine: line + 3,
  body: [...words.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>())], bodyLength: words.length,
});

test('a model reads the features of its non-zero weights and of its trees\' splits, at every level', () => {
  const model = new RankingModel({
    weights: { pipeline: 1, length: 0 },
    trees: { learningRate: 0.1, trees: [['fixes', 0.5, ['nameInText', 0.5, 1, 2], 3], 0.5] },
    levels: { file: { fileBm25f: 2 } },
    candidates: { depth: 10, ranking: {} },
  });
  assert.deepEqual([...model.reads].sort(), ['fileBm25f', 'fixes', 'nameInText', 'pipeline']);
  assert.deepEqual(historyEvidenceRead(model.reads), { files: true, messageScores: false, fieldScores: false, similarIssues: false });
  const builtIn = RankingModel.load('default');
  assert.ok(!builtIn.reads.has('historyField'), 'the built-in model does not read the history field');
  assert.equal(historyEvidenceRead(builtIn.reads).fieldScores, false);
});

test('features a model does not read are left at 0 and the model\'s scores are those of full extraction', () => {
  const files = [
    { path: 'pkg/printing/latex.py', units: [fn('LatexPrinter._print_Mul', 10, ['print', 'mul', 'latex']), fn('LatexPrinter._needs_brackets', 60, ['brackets', 'latex'])] },
    { path: 'pkg/core/mul.py', units: [fn('Mul.flatten', 5, ['mul', 'args', 'flatten'])] },
  ];
  const ci = buildCodeIndex('c0ffee', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 });
  const model = RankingModel.load('default');
  const text = 'latex printing of Mul is wrong: `_print_Mul()` drops the sign';
  const issue = parseIssue(text);
  const history = {
    files: new Map([['pkg/core/mul.py', { changes: 9, fixes: 3, fixRecency: 0.5, fixWeighted: 0.2, changeRecency: 0.9 }]]),
    fieldScores: new Map([['pkg/core/mul.py', 2], ['pkg/printing/latex.py', 1]]),
  };
  const all = new FeatureExtractor(ci, model.candidates).extract(issue, history);
  const read = new FeatureExtractor(ci, { ...model.candidates, reads: model.reads }).extract(issue, history);
  const field = FEATURES.indexOf('historyField');
  assert.ok(all.features[field] > 0, 'the field is computed when every feature is');
  for (let i = 0; i < read.docs.length; i++) assert.equal(read.features[i * FEATURES.length + field], 0);
  assert.deepEqual(read.ids, all.ids);
  for (const level of ['function', 'module', 'file'] as const) assert.deepEqual(model.score(read, level), model.score(all, level));
});

const dir = mkdtempSync(join(tmpdir(), 'issueloc-reads-'));
const fx = fixtureRepo([
  { id: 'A', message: 'initial import', files: { 'app/parser.py': 'def parse_header(line):\n    return line.split(":")\n' } },
  { id: 'B', parents: ['A'], message: 'Fix header parsing when the line has no colon', files: { 'app/parser.py': 'def parse_header(line):\n    return line.partition(":")\n' } },
]);
after(() => {
  fx.remove();
  rmSync(dir, { recursive: true, force: true });
});

test('the localizer scores the history field only for a model that reads it', async () => {
  const original = HistoryField.prototype.scores;
  let calls = 0;
  HistoryField.prototype.scores = function (this: HistoryField, ...args: Parameters<typeof original>) {
    calls++;
    return original.apply(this, args);
  };
  try {
    const ask = async (model: string | RankingModel) => {
      const localizer = await openLocalizer({ repo: fx.dir, cacheDir: join(dir, 'cache'), model });
      try {
        return await localizer.localize('header parsing fails without a colon', { top: 5 });
      } finally {
        await localizer.close();
      }
    };
    assert.ok((await ask('default')).files.length > 0);
    assert.equal(calls, 0, 'the built-in model does not read historyField');
    const builtIn = RankingModel.load('default');
    await ask(new RankingModel({ ...builtIn.file, weights: { ...builtIn.file.weights, historyField: 0.5 } }));
    assert.equal(calls, 1, 'a model that reads it gets it');
  } finally {
    HistoryField.prototype.scores = original;
  }
});
