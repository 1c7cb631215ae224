// The learned ranker's code-graph features (calls resolved to functions, imports of the files the
// issue names, the class of a method it names), candidate expansion over imports, and the
// built-in model: it reads no graph feature, so opening the graph changes none of its rankings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCodeGraph } from '../../src/graph/open-graph.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { FeatureExtractor } from '../../src/ltr/features/extract.js';
import { FEATURES, type FeatureName } from '../../src/ltr/features/registry.js';
import { RankingModel } from '../../src/ltr/model.js';
import { ModelRanker, readsGraph } from '../../src/ltr/model-ranker.js';
import { GitRepo } from '../../src/repo/git.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

const FILES = {
  'app/render.py': 'from app.palette import blend_colours\n\ndef render_scene(scene):\n    return blend_colours(scene)\n\nclass Canvas:\n    def paint_scene(self):\n        return 1\n\n    def clear_canvas(self):\n        return 0\n',
  'app/palette.py': 'def blend_colours(scene):\n    return scene\n',
  'app/loader.py': 'from app.render import render_scene\n\ndef load_file(path):\n    return path\n',
  'app/unrelated.py': 'def other_thing(x):\n    return x\n',
};

async function setUp() {
  const fx = fixtureRepo([{ id: 'A', message: 'init', files: FILES }]);
  const cacheDir = mkdtempSync(join(tmpdir(), 'issueloc-graphfeat-'));
  const repo = await GitRepo.open(fx.dir);
  const { codeIndex } = await indexCommit(repo, fx.sha('A'), { cacheDir });
  const { graph } = await openCodeGraph(repo, codeIndex, cacheDir);
  return {
    codeIndex, graph,
    async done() { await repo.close(); fx.remove(); rmSync(cacheDir, { recursive: true, force: true }); },
  };
}

const value = (set: { ids: string[]; features: Float32Array }, id: string, f: FeatureName) => {
  const i = set.ids.indexOf(id);
  assert.ok(i >= 0, `${id} is a candidate`);
  return set.features[i * FEATURES.length + FEATURES.indexOf(f)];
};

test('graph features: callers and callees among the top candidates, imports of a named file, the class of a named method', async () => {
  const s = await setUp();
  try {
    const text = 'render_scene crashes in app/render.py when Canvas.paint_scene() is called';
    const issue = parseIssue(text);
    const set = new FeatureExtractor(s.codeIndex, { graph: s.graph }).extract(issue);
    assert.ok(value(set, 'app/palette.py:blend_colours', 'graphCalledByTop') > 0, 'called by render_scene');
    assert.ok(value(set, 'app/render.py:render_scene', 'graphCallsTop') > 0, 'calls blend_colours');
    assert.equal(value(set, 'app/unrelated.py:other_thing', 'graphCalledByTop'), 0);
    assert.equal(value(set, 'app/palette.py:blend_colours', 'importedByNamedFile'), 1, 'render.py imports palette.py');
    assert.equal(value(set, 'app/loader.py:load_file', 'importsNamedFile'), 1, 'loader.py imports render.py');
    assert.equal(value(set, 'app/unrelated.py:other_thing', 'importsNamedFile'), 0);
    assert.equal(value(set, 'app/render.py:Canvas.clear_canvas', 'sameClassAsNamed'), 1, 'Canvas holds paint_scene');
    assert.equal(value(set, 'app/render.py:render_scene', 'sameClassAsNamed'), 0);
    // without the graph: every graph feature is 0
    const bare = new FeatureExtractor(s.codeIndex).extract(issue);
    assert.equal(value(bare, 'app/palette.py:blend_colours', 'graphCalledByTop'), 0);
    assert.equal(value(bare, 'app/render.py:Canvas.clear_canvas', 'sameClassAsNamed'), 0);
  } finally {
    await s.done();
  }
});

test('candidate expansion adds the best function of the files the top files import or are imported by', async () => {
  const s = await setUp();
  try {
    const text = 'render_scene fails';
    const issue = parseIssue(text);
    const plain = new FeatureExtractor(s.codeIndex, { graph: s.graph, depth: 1 }).extract(issue);
    assert.deepEqual(plain.ids, ['app/render.py:render_scene']);
    const expanded = new FeatureExtractor(s.codeIndex, { graph: s.graph, depth: 1, expand: 1 }).extract(issue);
    assert.deepEqual(expanded.ids.slice(1).sort(), ['app/loader.py:load_file', 'app/palette.py:blend_colours']);
  } finally {
    await s.done();
  }
});

test('the built-in model reads no graph feature: with the graph opened its rankings are the same', async () => {
  const s = await setUp();
  try {
    const model = RankingModel.load('default');
    assert.equal(readsGraph(model), false);
    for (const text of ['render_scene crashes in app/render.py', 'Canvas.paint_scene() returns the wrong value', 'blend_colours of the scene']) {
      const issue = parseIssue(text);
      assert.deepEqual(new ModelRanker(s.codeIndex, model, { graph: s.graph }).localize(issue), new ModelRanker(s.codeIndex, model).localize(issue), text);
    }
    assert.equal(readsGraph(new RankingModel({ weights: { pipeline: 1, graphCalledByTop: 0.5 }, candidates: model.candidates })), true);
  } finally {
    await s.done();
  }
});
