// Function vectors of a tiny git repo through the OpenAI-compatible embeddings endpoint of the
// local fake server: protocol, batching, the blob+model cache, dimension changes, hybrid ranking.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { startFakeOpenAI, type FakeOpenAI } from '../llm-rerank/fake-openai.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { OpenAIEmbedder } from '../../src/embed/openai-embedder.js';
import { buildVectorIndex, cosineScores } from '../../src/embed/vector-index.js';
import { VectorCache } from '../../src/embed/vector-cache.js';
import { CommitChain } from '../../src/pipeline/commit-chain.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

let fake: FakeOpenAI;
let root: string;
let work: string;
let repo: GitRepo;
const FILES = {
  'pkg/parser.py': 'def parse_json(text):\n    return decode(text)\n\n\ndef parse_yaml(text):\n    return load_yaml(text)\n',
  'pkg/net.py': 'class Client:\n    def connect(self, host):\n        return open_socket(host)\n\n    def retry(self):\n        return self.connect(None)\n',
  'pkg/cache.py': 'def evict(store):\n    store.clear()\n',
};
let c1: string, c2: string;

before(async () => {
  fake = await startFakeOpenAI();
  root = tempDir('issueloc-vectors-');
  work = join(root, 'repo');
  c1 = commitFiles(work, FILES, 'first');
  c2 = commitFiles(work, { 'pkg/cache.py': 'def evict(store):\n    store.clear()\n\n\ndef warm(store):\n    store.fill()\n' }, 'second');
  repo = await GitRepo.open(work);
});
after(async () => {
  await repo.close();
  await fake.close();
  cleanup(root);
});

const embedder = (model = 'hash-16', batchSize = 2) => new OpenAIEmbedder({ url: fake.url, model, batchSize, retries: 0 });

test('embeddings protocol: model, input batches, encoding_format; answers matched by index', async () => {
  fake.requests.length = 0;
  const e = new OpenAIEmbedder({ url: fake.url, model: 'hash-16', prefixes: { query: 'query: ' } });
  const [a, b] = await e.embed(['socket connect', 'json decode'], 'query');
  assert.equal(fake.requests.length, 1);
  assert.equal(fake.requests[0].path, '/v1/embeddings');
  assert.deepEqual(fake.requests[0].body, { model: 'hash-16', input: ['query: socket connect', 'query: json decode'], encoding_format: 'float' });
  assert.equal(a.length, 16);
  assert.notDeepEqual([...a], [...b], 'the server answers in reverse; vectors still follow the input');
  fake.script.push({ status: 404 });
  await assert.rejects(e.embed(['x'], 'document'), /refused the request \(HTTP 404/);
});

test('vector index: every function embedded once in batches, then served from the blob cache', async () => {
  const cacheDir = join(root, 'cache1');
  const { codeIndex } = await indexCommit(repo, c1, { cacheDir });
  fake.requests.length = 0;
  const v1 = await buildVectorIndex(repo, codeIndex, embedder(), { cacheDir });
  assert.equal(v1.count, codeIndex.units.length);
  assert.equal(v1.embedded, codeIndex.units.length);
  assert.equal(v1.cached, 0);
  assert.equal(fake.requests.length, Math.ceil(codeIndex.units.length / 2), 'batches of 2');
  const texts = fake.requests.flatMap((r) => r.body.input as string[]);
  assert.ok(texts.some((t) => t.startsWith('pkg/net.py\n    def connect(self, host):')), 'document = path + newline + code of the span');
  // Unit length rows.
  for (let d = 0; d < v1.count; d++) {
    let s = 0;
    for (let k = 0; k < v1.dim; k++) s += v1.vectors[d * v1.dim + k] ** 2;
    assert.ok(Math.abs(s - 1) < 1e-5);
  }
  // Same commit again: no request. Next commit: only the changed file's functions.
  fake.requests.length = 0;
  const again = await buildVectorIndex(repo, codeIndex, embedder(), { cacheDir });
  assert.equal(fake.requests.length, 0);
  assert.deepEqual(again.vectors, v1.vectors);
  const next = (await indexCommit(repo, c2, { cacheDir })).codeIndex;
  const v2 = await buildVectorIndex(repo, next, embedder(), { cacheDir });
  const changed = next.units.filter((u) => u.path === 'pkg/cache.py').length;
  assert.equal(changed, 2);
  assert.equal(v2.embedded, changed);
  assert.equal(v2.cached, next.units.length - changed);
});

test('the vector cache never serves another model\'s vectors; a changed dimension is a clear message', async () => {
  const cacheDir = join(root, 'cache2');
  const { codeIndex } = await indexCommit(repo, c1, { cacheDir });
  await buildVectorIndex(repo, codeIndex, embedder('hash-16'), { cacheDir });
  fake.requests.length = 0;
  const other = await buildVectorIndex(repo, codeIndex, embedder('hash-8'), { cacheDir });
  assert.equal(other.dim, 8);
  assert.equal(other.cached, 0, 'another model id: nothing from the cache');
  assert.ok(fake.requests.length > 0);
  // A model that now answers 8 dimensions under the name that cached 16 (the server swapped models).
  const swapped = new OpenAIEmbedder({ url: fake.url, model: 'hash-8', batchSize: 2 });
  Object.defineProperty(swapped, 'id', { value: embedder('hash-16').id });
  await assert.rejects(buildVectorIndex(repo, (await indexCommit(repo, c2, { cacheDir })).codeIndex, swapped, { cacheDir }),
    /embedding dimension changed: vectors cached for model openai:.*hash-16.* have 16 dimensions, the model now gives 8; .*remove .*vectors/);
  // An entry of one model copied into another model's folder is ignored there.
  const a = new VectorCache(cacheDir, 'model-a');
  const b = new VectorCache(cacheDir, 'model-b');
  a.set('ab12', { spans: [[1, 2]], dim: 2, vectors: new Float32Array([1, 0]) });
  mkdirSync(join(b.dir, 'ab'), { recursive: true });
  copyFileSync(join(a.dir, 'ab', '12.f32'), join(b.dir, 'ab', '12.f32'));
  assert.equal(b.get('ab12'), undefined);
  assert.deepEqual(a.get('ab12')?.spans, [[1, 2]]);
});

test('hybrid retrieval: dense scores reach functions BM25F misses; fusion keeps lexical hits', async () => {
  const cacheDir = join(root, 'cache3');
  const { codeIndex } = await indexCommit(repo, c1, { cacheDir });
  const e = embedder('hash-64', 8);
  const pipe = await CommitChain.open(repo, codeIndex, { embedder: e, cacheDir, fusion: { method: 'dense' } });
  const [qv] = await e.embed(['open_socket host'], 'query');
  const cos = cosineScores(pipe.vectors!, qv);
  const best = cos.indexOf(Math.max(...cos));
  assert.equal(codeIndex.units[best].qualifiedName, 'Client.connect');
  const dense = await pipe.localize(parseIssue('open_socket host'), { top: 3 });
  assert.equal(dense.localization.functions[0].id, 'pkg/net.py:Client.connect');
  assert.equal(dense.localization.files[0].id, 'pkg/net.py');
  const rrf = await (await CommitChain.open(repo, codeIndex, { embedder: e, cacheDir, fusion: { method: 'rrf' } })).localize(parseIssue('parse_yaml load_yaml'), { top: 5 });
  assert.equal(rrf.localization.functions[0].id, 'pkg/parser.py:parse_yaml');
  assert.equal(rrf.localization.functions.length, 5, 'every function gets a dense rank');
});

test('a cache folder that cannot take vectors (read-only, `vectors` not a folder): every function embedded, nothing kept, no error', async () => {
  const cacheDir = join(root, 'cache-unwritable');
  const { codeIndex } = await indexCommit(repo, c1, { cacheDir });
  writeFileSync(join(cacheDir, 'vectors'), 'not a folder'); // root ignores permissions; this fails for everyone
  const v = await buildVectorIndex(repo, codeIndex, embedder(), { cacheDir });
  assert.equal(v.count, codeIndex.units.length);
  assert.equal(v.embedded, codeIndex.units.length);
  const again = await buildVectorIndex(repo, codeIndex, embedder(), { cacheDir });
  assert.equal(again.cached, 0, 'nothing was kept');
  assert.deepEqual(again.vectors, v.vectors);
});
