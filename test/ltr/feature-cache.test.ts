// The feature cache is keyed by everything an issue's features are a function of (issue 12, item 3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FeatureCache } from '../../src/ltr/feature-cache.js';
import { FEATURES } from '../../src/ltr/features/registry.js';
import { SimilarIssues } from '../../src/history/similar-issues.js';
import type { LabelledIssue } from '../../src/ltr/labelled-issues.js';
import type { TrainingQuery } from '../../src/ltr/objective.js';

const day = 86_400_000;
const issue: LabelledIssue = {
  id: 'o/r#2', repo: 'o/r', commit: 'a'.repeat(40), text: 'parser crash', created: 5 * day,
  gold: { file: ['p.py'], module: [], function: [] },
};
const query: TrainingQuery = {
  id: issue.id, repo: issue.repo, n: 1, features: new Float32Array(FEATURES.length).fill(0.5),
  ids: ['p.py:f'], paths: ['p.py'], modules: ['p.py:f'], gold: issue.gold,
};

test('feature cache: an entry is found again, and not for another issue text or base commit', () => {
  const root = mkdtempSync(join(tmpdir(), 'issueloc-fcache-'));
  try {
    const cache = new FeatureCache(root, { history: true });
    cache.set(issue, query);
    assert.deepEqual(cache.get(issue)?.features, query.features);
    assert.equal(cache.get({ ...issue, text: 'parser crash on empty input' }), undefined, 'edited issue text');
    assert.equal(cache.get({ ...issue, commit: 'b'.repeat(40) }), undefined, 'other base commit');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('feature cache: with similar-issue evidence, keyed by the earlier issues (later ones change nothing)', () => {
  const root = mkdtempSync(join(tmpdir(), 'issueloc-fcache-'));
  const earlier = { id: 'o/r#1', text: 'parser crash on input', time: 1 * day, files: ['p.py'] };
  const later = { id: 'o/r#3', text: 'parser fails', time: 9 * day, files: ['q.py'] };
  try {
    const make = (list: ConstructorParameters<typeof SimilarIssues>[0]) => {
      const s = new SimilarIssues(list);
      return new FeatureCache(root, { similar: true }, () => s);
    };
    make([earlier]).set(issue, query);
    assert.ok(make([earlier, later]).get(issue), 'a later issue does not change the key');
    assert.equal(make([]).get(issue), undefined, 'without the earlier issue');
    assert.equal(make([{ ...earlier, files: ['other.py'] }]).get(issue), undefined, 'an earlier issue fixed other files');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
