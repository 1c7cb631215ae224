// The local ONNX path end to end: a tiny model folder written by test/embed/tiny-model.ts (an
// ONNX graph encoded by hand as protobuf + a WordPiece tokenizer.json), loaded through
// @huggingface/transformers with remote loading off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyModel, QUERY_PROMPT, DIM } from './tiny-model.js';
import { OnnxEmbedder, poolTokens } from '../../src/embed/onnx-embedder.js';
import { readModelFolder } from '../../src/embed/model-folder.js';
import { openEmbedder, parseBackendSpec } from '../../src/embed/spec.js';
import { IssuelocError } from '../../src/errors.js';

let dir: string;
before(() => { dir = mkdtempSync(join(tmpdir(), 'issueloc-onnx-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

const cos = (a: Float32Array, b: Float32Array) => {
  let s = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { s += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return s / Math.sqrt(na * nb);
};

test('model folder: layout, pooling and query prompt read from the sentence-transformers files', () => {
  const m = readModelFolder(writeTinyModel(join(dir, 'read')));
  assert.equal(m.onnxFile, join('onnx', 'model.onnx'));
  assert.equal(m.dtype, 'fp32');
  assert.equal(m.pooling, 'mean');
  assert.equal(m.prefixes.query, QUERY_PROMPT);
  assert.equal(m.maxTokens, 64);
  assert.match(m.fingerprint, /^[0-9a-f]{16}$/);
});

test('an incomplete model folder is a clear message naming what is missing', () => {
  const broken = writeTinyModel(join(dir, 'broken'), ['tokenizer.json', 'onnx/model.onnx']);
  assert.throws(() => readModelFolder(broken), (e: Error) =>
    e instanceof IssuelocError && e.message.includes(broken) && /missing tokenizer\.json, onnx\/model\.onnx/.test(e.message));
  assert.throws(() => readModelFolder(join(dir, 'nowhere')), /model folder not found/);
});

test('onnx embedder: loads offline, mean-pools over the mask, ranks texts of one topic together', async () => {
  const emb = await OnnxEmbedder.load(writeTinyModel(join(dir, 'ok')), { batchSize: 2 });
  try {
    assert.match(emb.id, /^onnx:ok@[0-9a-f]{16}\|fp32\|mean\|t=64\|q=Represent/);
    const docs = await emb.embed(['def parse_json(self): return decode(syntax)', 'def connect(self): retry(socket, timeout)', 'render html page template'], 'document');
    assert.equal(docs.length, 3);
    assert.equal(docs[0].length, DIM);
    const [q] = await emb.embed(['json parser fails on bad syntax'], 'query');
    const sims = docs.map((d) => cos(q, d));
    assert.ok(sims[0] > sims[1] && sims[0] > sims[2], `cosines ${sims.map((s) => s.toFixed(3)).join(' ')}`);
    // Batching does not change vectors (padding is masked out of the mean).
    const [alone] = await emb.embed(['def connect(self): retry(socket, timeout)'], 'document');
    assert.ok(Math.abs(cos(alone, docs[1]) - 1) < 1e-6);
    // The query prompt is added: its words (topic 5) pull the query vector.
    const [noPrefix] = await (await OnnxEmbedder.load(join(dir, 'ok'), { prefixes: { query: '' } })).embed(['json parser fails on bad syntax'], 'query');
    assert.ok(cos(q, noPrefix) < 0.99, 'prefix changes the query vector');
  } finally {
    await emb.close();
  }
});

test('openEmbedder reads onnx:/openai:/none specs; bad specs are one-line errors', async () => {
  assert.equal(await openEmbedder('none'), undefined);
  assert.deepEqual(parseBackendSpec('openai:http://localhost:8000/v1#code-embed', '--embedder', ['openai']), { kind: 'openai', url: 'http://localhost:8000/v1', model: 'code-embed' });
  assert.throws(() => parseBackendSpec('openai:http://localhost:8000/v1', '--embedder', ['openai']), /needs a URL and a model name/);
  assert.throws(() => parseBackendSpec('openai:ftp://x/v1#m', '--embedder', ['openai']), /--embedder: 'openai:ftp:\/\/x\/v1#m': the URL 'ftp:\/\/x\/v1' must be a valid http:\/\/ or https:\/\/ URL/);
  assert.throws(() => parseBackendSpec('tfidf:x', '--embedder', ['none', 'onnx', 'openai']), /--embedder: cannot read 'tfidf:x' \(forms: none, onnx:<path>, openai:<url>#<model>\)/);
  await assert.rejects(openEmbedder(`onnx:${join(dir, 'nothing-here')}`), /model folder not found/);
});

test('pooling: mean ignores masked tokens, cls takes the first, last takes the last unmasked', () => {
  const hidden = { dims: [1, 3, 2], data: new Float32Array([1, 0, 3, 2, 100, 100]) };
  const mask = { dims: [1, 3], data: new BigInt64Array([1n, 1n, 0n]) };
  assert.deepEqual([...poolTokens(hidden, mask, 'mean')[0]], [2, 1]);
  assert.deepEqual([...poolTokens(hidden, mask, 'cls')[0]], [1, 0]);
  assert.deepEqual([...poolTokens(hidden, mask, 'last')[0]], [3, 2]);
});
