// The built-in model: loads, and was trained without any SWE-bench Lite issue or repository
// (evaluation issues never leak into defaults).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_MODEL_PATH, RankingModel } from '../../src/ltr/model.js';
import { sharedDataOrSkip } from '../fixtures/data.js';

const LITE_REPOS = [
  'django/django', 'sympy/sympy', 'scikit-learn/scikit-learn', 'matplotlib/matplotlib', 'pytest-dev/pytest', 'sphinx-doc/sphinx',
  'psf/requests', 'astropy/astropy', 'pylint-dev/pylint', 'pydata/xarray', 'mwaskom/seaborn', 'pallets/flask',
];

test('the built-in model loads and names its training issues', () => {
  const model = RankingModel.load(DEFAULT_MODEL_PATH);
  const training = model.file.training ?? {};
  assert.ok(Array.isArray(training.issueIds) && (training.issueIds as string[]).length >= 100, 'lists its training issues');
  assert.ok(model.candidates.depth >= 50);
});

test('the built-in model was trained on no SWE-bench Lite repository, nor on an issue of one', () => {
  const training = RankingModel.load(DEFAULT_MODEL_PATH).file.training ?? {};
  const repos = training.repos as string[];
  assert.ok(repos.length > 0);
  for (const r of LITE_REPOS) assert.ok(!repos.includes(r), `trained on ${r}`);
  // SWE-bench instance ids are OWNER__NAME-NUMBER
  const litePrefixes = LITE_REPOS.map((r) => `${r.replace('/', '__')}-`);
  const ids = training.issueIds as string[];
  for (const id of ids) assert.ok(!litePrefixes.some((p) => id.startsWith(p)), `trained on ${id}`);
});

test('the built-in model was trained on none of the 300 SWE-bench Lite issues', (t) => {
  const file = sharedDataOrSkip(t, 'swebench-lite/swebench_lite.jsonl');
  if (!file) return;
  const lite = new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean)
    .map((l) => (JSON.parse(l) as { instance_id: string }).instance_id));
  assert.equal(lite.size, 300);
  const ids = RankingModel.load(DEFAULT_MODEL_PATH).file.training?.issueIds as string[];
  assert.equal(ids.filter((id) => lite.has(id)).length, 0);
});
