// Per-repository adaptation (src/ltr/adapt.ts, src/ltr/adapted-models.ts) on a tiny repository
// built here: only ancestors of the base commit are learned from (a later commit that gives the
// answer away changes nothing), the cache keeps one model per base commit and rebuilds a corrupt
// one, and `localize --model repo@REV` refuses a REV that is not in the base commit's past.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { commitFiles, git, tempDir, cleanup } from '../repo/git-fixture.js';
import { adaptedModel, adaptedModelFile, adaptedModelKey } from '../../src/ltr/adapted-models.js';
import { minedPseudoIssues } from '../../src/ltr/adapt-source.js';
import { ADAPT_DEFAULTS, type PseudoIssueSource } from '../../src/ltr/adapt.js';
import { GitRepo } from '../../src/repo/git.js';
import { openLocalizer, IssuelocError } from '../../src/index.js';
import { execInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

let root: string, work: string, base: string, future: string;
const TOPICS = ['parser json input', 'network socket timeout', 'cache entry eviction', 'render html template'];
const SETTINGS = { limit: 40, snapshots: 1, maxTrees: 20, holdOut: 0.25, minExamples: 4 };

const fn = (name: string, k: number) => `def ${name}(x):\n    """${name.replace(/_/g, ' ')}"""\n    return x + ${k}\n`;

before(() => {
  root = tempDir('issueloc-adapt-');
  work = join(root, 'repo');
  const files: Record<string, string> = {};
  TOPICS.forEach((t, i) => { files[`pkg/m${i}.py`] = fn(t.replace(/ /g, '_'), 0); });
  commitFiles(work, files, 'initial import of the package');
  for (let round = 1; round <= 4; round++) {
    TOPICS.forEach((t, i) => commitFiles(work, { [`pkg/m${i}.py`]: fn(t.replace(/ /g, '_'), round) }, `fix the ${t} handling, round ${round}`));
  }
  base = git(work, 'rev-parse', 'HEAD');
  // the future: a commit whose message is the issue and whose change is its answer
  future = commitFiles(work, { 'pkg/m3.py': fn('render_html_template', 99) }, 'the json parser breaks on empty input');
});
after(() => cleanup(root));

/** A source that records the commits it handed out. */
function recording(seen: Set<string>): PseudoIssueSource {
  return async (repo, at, limit, cacheDir) => {
    const out = await minedPseudoIssues(repo, at, limit, cacheDir);
    for (const p of out) seen.add(p.sha);
    return out;
  };
}

test('an adapted model learns from the base commit\'s ancestors only, and a future commit changes nothing', async () => {
  const repo = await GitRepo.open(work);
  try {
    const seen = new Set<string>();
    const cacheDir = join(root, 'cache-a');
    const first = await adaptedModel(repo, base, { cacheDir, settings: SETTINGS, source: recording(seen) });
    assert.ok(first.trained, 'trained now');
    assert.equal(first.trained.mined, 16);
    assert.ok(!seen.has(future), 'the future commit is never a training example');
    const ancestors = new Set(git(work, 'rev-list', base).split('\n'));
    for (const c of seen) assert.ok(ancestors.has(c), `${c} is an ancestor of the base commit`);
    // the same model from a repository where the future commit never happened
    const past = join(root, 'past');
    git(root, 'clone', '-q', '--no-local', work, past);
    git(past, 'reset', '-q', '--hard', base);
    git(past, 'reflog', 'expire', '--expire=now', '--all');
    git(past, 'gc', '-q', '--prune=now');
    const pastRepo = await GitRepo.open(past);
    try {
      const other = await adaptedModel(pastRepo, base, { cacheDir: join(root, 'cache-b'), settings: SETTINGS, source: minedPseudoIssues });
      const strip = (m: typeof first.model) => JSON.stringify({ ...m.file, training: { ...m.file.training, adapted: { ...(m.file.training!.adapted as object), key: '' } } });
      assert.equal(strip(other.model), strip(first.model));
    } finally {
      await pastRepo.close();
    }
    // cached: read back without training; another base commit is another entry
    const again = await adaptedModel(repo, base, { cacheDir, settings: SETTINGS, source: recording(seen) });
    assert.equal(again.trained, undefined);
    assert.equal(again.file, first.file);
    assert.notEqual(adaptedModelFile(cacheDir, adaptedModelKey(repo, future, { ...ADAPT_DEFAULTS, ...SETTINGS })), first.file);
    // a corrupt entry: one warning, trained again
    writeFileSync(first.file, '{"format": "nonsense"');
    const warnings: string[] = [];
    const rebuilt = await adaptedModel(repo, base, { cacheDir, settings: SETTINGS, onWarning: (m) => warnings.push(m) });
    assert.ok(rebuilt.trained);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /unreadable .* training it again/);
    assert.match(readFileSync(first.file, 'utf8'), /"adapted"/);
  } finally {
    await repo.close();
  }
});

test('a model adapted in a shallow clone is not reused once the clone is deepened', async () => {
  const shallow = join(root, 'shallow');
  git(root, 'clone', '-q', '--depth', '2', `file://${work}`, shallow);
  const cacheDir = join(root, 'cache-shallow');
  const open = async () => GitRepo.open(shallow);
  let repo = await open();
  const cut = await adaptedModel(repo, future, { cacheDir, settings: SETTINGS, source: async () => [] });
  await repo.close();
  git(shallow, 'fetch', '-q', '--unshallow');
  repo = await open();
  try {
    assert.equal(repo.isShallow, false);
    const whole = await adaptedModel(repo, future, { cacheDir, settings: SETTINGS, source: async () => [] });
    assert.ok(whole.trained, 'trained again on the whole history');
    assert.notEqual(whole.file, cut.file);
  } finally {
    await repo.close();
  }
});

test('localize --model repo@REV adapts at REV, and refuses a REV that is not an ancestor of the base commit', async () => {
  const cacheDir = join(root, 'cache-c');
  const localizer = await openLocalizer({ repo: work, cacheDir, model: `repo@${base.slice(0, 10)}` });
  try {
    const result = await localizer.localize('the html template render is wrong', { rev: future });
    assert.ok(result.files.length > 0);
    assert.deepEqual(result.stages, ['lexical', 'model']);
    await assert.rejects(localizer.localize('the html template render is wrong', { rev: `${base}~3` }), (e: Error) => {
      assert.ok(e instanceof IssuelocError);
      assert.match(e.message, /^model repo@[0-9a-f]+: [0-9a-f]{12} is not an ancestor of the base commit [0-9a-f]{12} \(an adapted model may learn only from the base commit's past\)$/);
      return true;
    });
  } finally {
    await localizer.close();
  }
  await assert.rejects(openLocalizer({ repo: work, cacheDir, model: 'repo@' }), /^IssuelocError: model 'repo@' needs a revision/);
});

test('issueloc adapt says when too few past commits were usable, rather than that no tree won', () => {
  const bin = join(dirname(fileURLToPath(import.meta.url)), '../../src/cli/bin.js');
  const out = execFileSync(process.execPath, [...BASELINE_WASM_ARGS, bin, 'adapt', '--repo', work, '--rev', base, '--cache-dir', join(root, 'cli-cache')], { encoding: 'utf8' });
  assert.match(out, new RegExp(`fewer than ${ADAPT_DEFAULTS.minExamples} usable past commits: the model is the built-in one`));
});

test('issueloc adapt --json from the cache carries the fields of the run that trained the model, marked as from the cache', async () => {
  // through the CLI's main in-process (execInProcess): the process is not under test
  const adapt = async () => JSON.parse((await execInProcess(['adapt', '--repo', work, '--rev', base, '--cache-dir', join(root, 'cli-json-cache'), '--json', '--no-progress'])).stdout);
  const first = await adapt();
  const cached = await adapt();
  assert.equal(first.trained, true);
  assert.equal(first.fromCache, false);
  assert.equal(first.commits, 16);
  assert.equal(cached.fromCache, true);
  assert.equal(cached.trained, false);
  assert.deepEqual(Object.keys(cached), Object.keys(first));
  const training = ({ trained: _t, fromCache: _c, seconds: _s, ...rest }: Record<string, unknown>) => rest;
  assert.deepEqual(training(cached), training(first));
});
