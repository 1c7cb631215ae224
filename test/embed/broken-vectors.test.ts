// Broken embedding vectors (null, strings, empty, wrong dimension, not finite, all zero) from an
// OpenAI-compatible server on 127.0.0.1, and from any backend through the one check: the issue
// gets the lexical ranking with a one-line warning naming the endpoint and the fault, exit 0, and
// nothing of a broken batch is cached (a later run with a good server embeds again).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { startFakeOpenAI, type EmbeddingFault, type FakeOpenAI } from '../llm-rerank/fake-openai.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { checkVectors, EmbedderFailure, type Embedder } from '../../src/embed/embedder.js';
import { buildVectorIndex } from '../../src/embed/vector-index.js';
import { MODEL_TAG, VectorCache } from '../../src/embed/vector-cache.js';
import { readCheckedPayload } from '../../src/util/checked-file.js';
import { CommitChain } from '../../src/pipeline/commit-chain.js';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
const run = promisify(execFile);
let fake: FakeOpenAI, root: string, work: string, cacheDir: string;

before(async () => {
  fake = await startFakeOpenAI();
  root = tempDir('issueloc-broken-vectors-');
  work = join(root, 'repo');
  cacheDir = join(root, 'cache');
  const files: Record<string, string> = {};
  for (let i = 1; i <= 12; i++) {
    const n = String(i).padStart(3, '0');
    files[`pkg/mod${n}.py`] = `def f${n}(text):\n    # parser json ${'json '.repeat(i % 5)}socket ${'connect '.repeat(i % 3)}\n    return text\n`;
  }
  commitFiles(work, files);
});
after(async () => {
  await fake.close();
  cleanup(root);
});

const ISSUE = 'the json parser breaks on socket connect';
const localizeArgs = (extra: string[]) => ['localize', '--repo', work, '--issue', ISSUE, '--json', '--no-progress', '--cache-dir', cacheDir, '--top', '20', ...extra];
const localize = (extra: string[]) => run(process.execPath, [...BASELINE_WASM_ARGS, bin, ...localizeArgs(extra)]);
/**
 * The same run through the CLI's main in this file's worker thread (no process start-up): for the
 * cases after the first of each kind, which runs the executable. Exit 0 is asserted here, as
 * execFile (localize) rejects on any other.
 */
async function localizeInProcess(extra: string[]): Promise<{ stdout: string; stderr: string }> {
  const r = await runInProcess(localizeArgs(extra));
  assert.equal(r.code, 0, r.err);
  return { stdout: r.out, stderr: r.err };
}
const rankings = (stdout: string) => {
  const o = JSON.parse(stdout) as Record<string, unknown>;
  return { files: o.files, modules: o.modules, functions: o.functions };
};

/** Every file under `dir` whose name ends with `suffix`. */
function filesUnder(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(suffix) && statSync(join(dir, f)).isFile());
}
/** Cached vector files of one model: the `.f32` files beside the model.json that names it. */
function cachedVectorFiles(model: string): string[] {
  return filesUnder(cacheDir, 'model.json')
    .map((f) => join(cacheDir, f))
    .filter((f) => f.includes('vectors') && String((JSON.parse(readCheckedPayload(f, MODEL_TAG)!.toString('utf8')) as { model: string }).model).includes(`#${model}|`))
    .flatMap((f) => filesUnder(dirname(f), '.f32'));
}
/** Every `.f32` and model.json under the cache's vectors folders. */
const vectorFiles = () => [...filesUnder(cacheDir, '.f32'), ...filesUnder(cacheDir, 'model.json')].filter((f) => f.includes('vectors'));

const KINDS: { kind: string; fault: EmbeddingFault; says: RegExp }[] = [
  { kind: 'null', fault: () => null, says: /answer item 1 of 12: the embedding is null, not a list of numbers/ },
  { kind: 'string', fault: () => 'AAAAAA==', says: /answer item 1 of 12: the embedding is a string, not a list of numbers/ },
  { kind: 'strings', fault: (v) => v.map(String), says: /answer item 1 of 12: the embedding holds "\d" at dimension 1, not a number/ },
  { kind: 'empty', fault: () => [], says: /vector 1 of 12 is empty/ },
  { kind: 'dimension', fault: (v, i) => (i === 1 ? v.slice(0, 8) : v), says: /vector 2 of 12 has 8 dimensions, expected 16/ },
  { kind: 'nan', fault: (v) => `raw:[${v.map(() => 'NaN').join(',')}]`, says: /answered with a body that is not JSON/ },
  { kind: 'infinity', fault: (v) => `raw:[1e999${',0'.repeat(v.length - 1)}]`, says: /vector 1 of 12 holds Infinity at dimension 1/ },
  { kind: 'overflow', fault: (v) => v.map(() => -1e39), says: /vector 1 of 12 holds -Infinity at dimension 1/ },
  { kind: 'zero', fault: (v) => v.map(() => 0), says: /vector 1 of 12 is all zeros/ },
];

test('CLI: each kind of broken vector gives exit 0, one warning naming the endpoint and the fault, the lexical ranking, nothing cached; a good server then embeds again', async () => {
  const lexical = rankings((await localize(['--model', 'none'])).stdout); // also builds the index once for the runs below
  for (const k of KINDS) fake.embeddingFault.set(`m-${k.kind}`, k.fault);
  const broken = await Promise.all(KINDS.map((k, i) => (i === 0 ? localize : localizeInProcess)(['--embedder', `openai:${fake.url}#m-${k.kind}`])));
  broken.forEach(({ stdout, stderr }, i) => {
    const k = KINDS[i];
    const endpoint = `${fake.url}/embeddings`.replace(/[.]/g, '\\$&');
    assert.match(stderr, new RegExp(`^issueloc: warning: dense retrieval skipped, lexical ranking only: .*${endpoint}.*\n$`), `${k.kind}: ${stderr}`);
    assert.match(stderr, k.says, k.kind);
    assert.deepEqual(rankings(stdout), lexical, `${k.kind}: the lexical ranking`);
  });
  assert.deepEqual(vectorFiles(), [], 'no vector and no dimension cached from a broken batch');
  // The same model names, now answered well: every function is embedded again, no warning.
  fake.embeddingFault.clear();
  fake.requests.length = 0;
  const good = await Promise.all(KINDS.map((k, i) => (i === 0 ? localize : localizeInProcess)(['--embedder', `openai:${fake.url}#m-${k.kind}`])));
  good.forEach(({ stderr }, i) => {
    const k = KINDS[i];
    assert.equal(stderr, '', k.kind);
    const inputs = fake.requests.filter((r) => r.body.model === `m-${k.kind}`).flatMap((r) => r.body.input as string[]);
    assert.equal(inputs.filter((t) => t.startsWith('pkg/')).length, 12, `${k.kind}: all 12 functions embedded again`);
    assert.equal(cachedVectorFiles(`m-${k.kind}`).length, 12, `${k.kind}: now cached`);
  });
});

test('CLI: a broken issue vector (functions cached) leaves the lexical ranking for that issue, with a warning', async () => {
  // the set-up runs in-process: the runs checked below are one of each kind
  const lexical = rankings((await localizeInProcess(['--model', 'none'])).stdout);
  await localizeInProcess(['--embedder', `openai:${fake.url}#q-check`]); // caches the functions' vectors
  for (const [fault, says, inProcess] of [
    [(v: number[]) => v.map(() => 0), /vector 1 of 1 is all zeros/, false],
    [(v: number[]) => v.slice(0, 4), /vector 1 of 1 has 4 dimensions, expected 16/, true],
  ] as const) {
    fake.embeddingFault.set('q-check', fault);
    fake.requests.length = 0;
    const { stdout, stderr } = await (inProcess ? localizeInProcess : localize)(['--embedder', `openai:${fake.url}#q-check`]);
    assert.equal(fake.requests.length, 1, 'only the issue was embedded');
    assert.match(stderr, /^issueloc: warning: dense retrieval skipped for this issue, lexical ranking only: embedder http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings \(model q-check\) answered unusable vectors: /);
    assert.match(stderr, says);
    assert.equal(stderr.split('\n').length, 2, 'one line');
    assert.deepEqual(rankings(stdout), lexical);
  }
  fake.embeddingFault.clear();
});

test('checkVectors: the one check every backend goes through', () => {
  const ok = [new Float32Array([1, 0]), new Float32Array([0, 2])];
  assert.equal(checkVectors(ok, 2, 'e'), 2);
  const bad: [unknown, number, RegExp, number?][] = [
    [undefined, 1, /e answered unusable vectors: no list of vectors/],
    [[ok[0]], 2, /1 vectors for 2 texts/],
    [[null], 1, /vector 1 of 1 is null, not a vector/],
    [[[1, 2]], 1, /vector 1 of 1 is an array, not a vector/],
    [[new Float32Array(0)], 1, /vector 1 of 1 is empty/],
    [[ok[0], new Float32Array(3)], 2, /vector 2 of 2 has 3 dimensions, expected 2/],
    [[ok[0]], 1, /vector 1 of 1 has 2 dimensions, expected 4/, 4],
    [[new Float32Array([1, NaN])], 1, /vector 1 of 1 holds NaN at dimension 2/],
    [[new Float32Array([Infinity, 1])], 1, /holds Infinity at dimension 1/],
    [[new Float32Array(3)], 1, /vector 1 of 1 is all zeros/],
  ];
  for (const [vectors, n, says, dim] of bad) assert.throws(() => checkVectors(vectors, n, 'e', dim), (e: Error) => e instanceof EmbedderFailure && says.test(e.message));
});

/** An in-process embedder (like the ONNX one) whose vectors `make` gives. */
const localEmbedder = (id: string, make: (text: string) => Float32Array): Embedder => ({
  id, name: `local ${id}`, batchSize: 4, embed: async (texts) => texts.map(make),
});

test('library: an in-process embedder answering NaN falls back with a warning (or throws without a warning place); nothing cached', async () => {
  const repo = await GitRepo.open(work);
  const dir = join(root, 'lib-cache');
  try {
    const { codeIndex } = await indexCommit(repo, await repo.resolveCommit('HEAD'), { cacheDir: dir });
    const nan = localEmbedder('nan-model', () => new Float32Array([1, NaN, 0]));
    const warnings: string[] = [];
    const pipe = await CommitChain.open(repo, codeIndex, { embedder: nan, cacheDir: dir, onWarning: (m) => warnings.push(m) });
    assert.equal(pipe.vectors, undefined);
    assert.deepEqual(warnings, ['dense retrieval skipped, lexical ranking only: embedder local nan-model answered unusable vectors: vector 1 of 4 holds NaN at dimension 2']);
    await assert.rejects(CommitChain.open(repo, codeIndex, { embedder: nan, cacheDir: dir }), EmbedderFailure);
    assert.deepEqual(filesUnder(dir, '.f32'), []);
  } finally {
    await repo.close();
  }
});

test('library: vectors cached broken by an earlier version (all zero, dimension 0) are embedded again, with one warning', async () => {
  const repo = await GitRepo.open(work);
  const dir = join(root, 'old-cache');
  try {
    const { codeIndex } = await indexCommit(repo, await repo.resolveCommit('HEAD'), { cacheDir: dir });
    const good = localEmbedder('old-model', (t) => Float32Array.from([1, t.length, 2]));
    // What the old code wrote for an all-zero answer: every file's entry zero, model.json dim 3;
    // and for a zero-length answer: model.json dim 0.
    const cache = new VectorCache(dir, good.id);
    const { entries } = await repo.listTree(codeIndex.commit);
    const blobOf = new Map(entries.map((e) => [e.path, e.blob]));
    for (const u of codeIndex.units) cache.set(VectorCache.key(blobOf.get(u.path)!, u.path), { spans: [[u.startLine, u.endLine]], dim: 3, vectors: new Float32Array(3) });
    mkdirSync(cache.dir, { recursive: true });
    writeFileSync(join(cache.dir, 'model.json'), JSON.stringify({ model: good.id, dim: 0 }));
    const warnings: string[] = [];
    const v = await buildVectorIndex(repo, codeIndex, good, { cacheDir: dir, onWarning: (m) => warnings.push(m) });
    assert.equal(v.cached, 0);
    assert.equal(v.embedded, codeIndex.units.length);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^12 cached vector files in .* held unusable vectors; embedding those files again$/);
    const again = await buildVectorIndex(repo, codeIndex, good, { cacheDir: dir });
    assert.equal(again.cached, codeIndex.units.length, 'rewritten good');
  } finally {
    await repo.close();
  }
});
