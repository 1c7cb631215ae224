// Embedder presets: each model embedded as its card and SweRank's code say. A tiny contextual
// ONNX BERT written here in a folder WITHOUT the sentence-transformers files (as CodeRankEmbed
// exports come) gets CLS pooling and the query prefix from the `coderankembed` preset, picked
// from the folder's name or its config.json, or named; the fake OpenAI server receives the
// prefixed query; float16 outputs are decoded; bad preset names and a document prefix without an
// embedder are one-line refusals (exit 2).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { writeTinyModel, embeddingTable, DIM, VOCAB, QUERY_PROMPT } from './tiny-model.js';
import { execInProcess } from '../cli/in-process.js';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { startFakeOpenAI, type FakeOpenAI } from '../llm-rerank/fake-openai.js';
import { OnnxEmbedder, poolTokens, truncateEncoding } from '../../src/embed/onnx-embedder.js';
import { halfToFloat } from '../../src/embed/float16.js';
import { openEmbedder, parseEmbedderSpec } from '../../src/embed/spec.js';
import { detectPreset, EMBEDDER_PRESETS, SWERANK_LARGE_QUERY } from '../../src/embed/presets.js';
import { VectorCache } from '../../src/embed/vector-cache.js';
import { openLocalizer } from '../../src/pipeline/localizer.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
const run = promisify(execFile);
const ST_FILES = ['1_Pooling/config.json', 'config_sentence_transformers.json'];
let root: string, work: string, fake: FakeOpenAI;

before(async () => {
  root = tempDir('issueloc-presets-');
  work = join(root, 'repo');
  commitFiles(work, {
    'pkg/parse.py': 'def parse_json(text):\n    return decode(text)\n',
    'pkg/net.py': 'def connect(host):\n    return socket_retry(host)\n',
  });
  fake = await startFakeOpenAI();
});
after(async () => {
  await fake.close();
  cleanup(root);
});

/** Token ids of `text` as the tiny WordPiece tokenizer reads it: [CLS] words/punctuation [SEP], cut to `max`. */
function tokenIds(text: string, max: number): number[] {
  const words = text.toLowerCase().match(/[a-z0-9]+|[^a-z0-9\s]/g) ?? [];
  const ids = words.map((w) => VOCAB.indexOf(w));
  assert.ok(ids.every((i) => i >= 0), `all words of '${text}' are in the vocabulary`);
  return [VOCAB.indexOf('[CLS]'), ...ids.slice(0, max - 2), VOCAB.indexOf('[SEP]')];
}

/** The contextual model's CLS row for `text`: E[CLS] + Σ E[id] over all its tokens, normalised. */
function clsVector(text: string, max = 64): Float32Array {
  const e = embeddingTable(true);
  const ids = tokenIds(text, max);
  const v = new Float32Array(DIM);
  for (let k = 0; k < DIM; k++) v[k] = e[ids[0] * DIM + k];
  for (const id of ids) for (let k = 0; k < DIM; k++) v[k] += e[id * DIM + k];
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

const close = (a: Float32Array, b: Float32Array, what: string) => {
  assert.equal(a.length, b.length);
  for (let k = 0; k < a.length; k++) assert.ok(Math.abs(a[k] - b[k]) < 1e-5, `${what}: ${[...a].map((x) => x.toFixed(4))} vs ${[...b].map((x) => x.toFixed(4))}`);
};

test('a CodeRankEmbed export without 1_Pooling/ nor config_sentence_transformers.json: CLS pooling, query prefix, no document prefix', async () => {
  const dir = writeTinyModel(join(root, 'CodeRankEmbed-onnx'), ST_FILES, { contextual: true });
  const emb = await OnnxEmbedder.load(dir);
  try {
    assert.deepEqual(emb.preset, { name: 'coderankembed', picked: true });
    assert.equal(emb.settings.pooling, 'cls');
    assert.equal(emb.settings.prefixes.query, 'Represent this query for searching relevant code: ');
    assert.equal(emb.settings.prefixes.document, '');
    assert.equal(emb.settings.maxTokens, 64, "the preset's 1024 tokens, at most the tokenizer's stated 64");
    const [q] = await emb.embed(['json parser syntax'], 'query');
    close(q, clsVector(`${QUERY_PROMPT}json parser syntax`), 'the query vector is the CLS row of prefix + issue');
    const [d] = await emb.embed(['def parse ( self ) : return json'], 'document');
    close(d, clsVector('def parse ( self ) : return json'), 'the document vector is the CLS row of the document alone');
    // Token-exact truncation: 100 words are cut by the tokenizer at 64 tokens, prefix and specials included.
    const long = Array.from({ length: 100 }, (_, i) => ['json', 'socket', 'cache'][i % 3]).join(' ');
    const [t] = await emb.embed([long], 'query');
    close(t, clsVector(`${QUERY_PROMPT}${long}`, 64), 'cut after 64 tokens');
  } finally {
    await emb.close();
  }
});

test('truncation cuts the text\'s tokens and keeps the special tokens: last-token pooling reads [SEP] / end-of-text', async () => {
  const bert = { input_ids: [2, 10, 11, 12, 13, 3], attention_mask: [1, 1, 1, 1, 1, 1], token_type_ids: [0, 0, 0, 0, 0, 0] };
  assert.deepEqual(truncateEncoding(bert, [10, 11, 12, 13], 4), { input_ids: [2, 10, 11, 3], attention_mask: [1, 1, 1, 1], token_type_ids: [0, 0, 0, 0] });
  const qwen = { input_ids: [10, 11, 12, 13, 99], attention_mask: [1, 1, 1, 1, 1] };
  assert.deepEqual(truncateEncoding(qwen, [10, 11, 12, 13], 3).input_ids, [10, 11, 99]);
  assert.deepEqual(truncateEncoding(qwen, [7, 8], 3).input_ids, [10, 11, 12], 'content not found: the end is cut');
  assert.equal(truncateEncoding(bert, [10, 11, 12, 13], 6), bert);
  // In the model: with last-token pooling, a text cut at 64 tokens still ends on [SEP], whose
  // contextual vector is the sum of the kept rows ([SEP]'s own row is 0).
  const emb = await openEmbedder(`swerankembed-large:onnx:${writeTinyModel(join(root, 'last-token'), ST_FILES, { contextual: true })}`) as OnnxEmbedder;
  try {
    assert.equal(emb.settings.pooling, 'last');
    const long = Array.from({ length: 100 }, (_, i) => ['json', 'socket', 'cache'][i % 3]).join(' ');
    const [v] = await emb.embed([long], 'document');
    const e = embeddingTable(true);
    const sum = new Float32Array(DIM);
    for (const id of tokenIds(long, 64)) for (let k = 0; k < DIM; k++) sum[k] += e[id * DIM + k];
    const n = Math.hypot(...sum);
    close(v, sum.map((x) => x / n), 'the last token of a cut text is [SEP]');
  } finally {
    await emb.close();
  }
});

test('the preset is picked from config.json, named in the spec, or turned off with generic:', async () => {
  const byConfig = writeTinyModel(join(root, 'exported'), ST_FILES, { contextual: true, modelName: 'nomic-ai/CodeRankEmbed' });
  const picked = await openEmbedder(`onnx:${byConfig}`) as OnnxEmbedder;
  assert.deepEqual(picked.preset, { name: 'coderankembed', picked: true });
  await picked.close();
  const plain = writeTinyModel(join(root, 'my-model'), ST_FILES, { contextual: true });
  const none = await openEmbedder(`onnx:${plain}`) as OnnxEmbedder;
  assert.equal(none.preset, undefined);
  assert.equal(none.settings.pooling, 'mean', 'no preset, no pooling config: mean, as before');
  assert.equal(none.settings.prefixes.query, '');
  await none.close();
  const named = await openEmbedder(`swerankembed-large:onnx:${plain}`) as OnnxEmbedder;
  assert.deepEqual(named.preset, { name: 'swerankembed-large', picked: false });
  assert.equal(named.settings.pooling, 'last');
  assert.equal(named.settings.prefixes.query, SWERANK_LARGE_QUERY);
  await named.close();
  const generic = await openEmbedder(`generic:onnx:${join(root, 'CodeRankEmbed-onnx')}`) as OnnxEmbedder;
  assert.equal(generic.preset, undefined);
  assert.equal(generic.settings.pooling, 'mean');
  await generic.close();
  // A folder that states its pooling and prompts keeps them when the preset is only picked ...
  const stated = writeTinyModel(join(root, 'CodeRankEmbed-mean'));
  const kept = await openEmbedder(`onnx:${stated}`) as OnnxEmbedder;
  assert.equal(kept.settings.pooling, 'mean');
  await kept.close();
  // ... and a named preset, or an explicit prefix, goes over them.
  const over = await openEmbedder(`coderankembed:onnx:${stated}`, { prefixes: { query: 'q: ', document: 'd: ' } }) as OnnxEmbedder;
  assert.equal(over.settings.pooling, 'cls');
  assert.deepEqual(over.settings.prefixes, { query: 'q: ', document: 'd: ' });
  await over.close();
});

test('every setting that changes a vector is in the embedder id, so the vector cache never serves another preset\'s vectors', async () => {
  const dir = join(root, 'CodeRankEmbed-onnx');
  const ids: string[] = [];
  for (const spec of [`onnx:${dir}`, `generic:onnx:${dir}`, `swerankembed-large:onnx:${dir}`, `swerankembed-small:onnx:${dir}`]) {
    const e = await openEmbedder(spec) as OnnxEmbedder;
    ids.push(e.id);
    await e.close();
  }
  const d = await openEmbedder(`onnx:${dir}`, { prefixes: { document: 'passage: ' } }) as OnnxEmbedder;
  ids.push(d.id);
  await d.close();
  // coderankembed and swerankembed-small set the same prefix, pooling and limit: the same vectors.
  assert.equal(ids[0], ids[3]);
  const distinct = [ids[0], ids[1], ids[2], ids[4]];
  assert.equal(new Set(distinct).size, 4, distinct.join('\n'));
  assert.equal(new Set(distinct.map((id) => new VectorCache(join(root, 'vc'), id).dir)).size, 4);
  const openai = await Promise.all([`openai:${fake.url}#nomic-ai/CodeRankEmbed`, `generic:openai:${fake.url}#nomic-ai/CodeRankEmbed`]
    .map((s) => openEmbedder(s) as Promise<Embedder>));
  assert.notEqual(openai[0].id, openai[1].id);
});

test('openai: the server receives the prefixed query and plain documents; explicit prefixes go over the preset', async () => {
  const sent = async (spec: string, opts: Parameters<typeof openEmbedder>[1] = {}) => {
    const e = (await openEmbedder(spec, { retries: 0, ...opts }))!;
    fake.requests.length = 0;
    await e.embed(['json parser fails'], 'query');
    await e.embed(['def parse(): pass'], 'document');
    return { inputs: fake.requests.map((r) => (r.body.input as string[])[0]), preset: e.preset };
  };
  const picked = await sent(`openai:${fake.url}#nomic-ai/CodeRankEmbed`);
  assert.deepEqual(picked.inputs, ['Represent this query for searching relevant code: json parser fails', 'def parse(): pass']);
  assert.deepEqual(picked.preset, { name: 'coderankembed', picked: true });
  const small = await sent(`openai:${fake.url}#Salesforce/SweRankEmbed-Small`);
  assert.equal(small.inputs[0], 'Represent this query for searching relevant code: json parser fails');
  const large = await sent(`swerankembed-large:openai:${fake.url}#served-name`);
  assert.deepEqual(large.inputs, ['Instruct: Given a github issue, identify the code that needs to be changed to fix the issue.\nQuery: json parser fails', 'def parse(): pass']);
  assert.deepEqual(large.preset, { name: 'swerankembed-large', picked: false });
  const generic = await sent(`generic:openai:${fake.url}#nomic-ai/CodeRankEmbed`);
  assert.deepEqual(generic.inputs, ['json parser fails', 'def parse(): pass']);
  assert.equal(generic.preset, undefined);
  const explicit = await sent(`coderankembed:openai:${fake.url}#x`, { prefixes: { query: 'Q: ', document: 'D: ' } });
  assert.deepEqual(explicit.inputs, ['Q: json parser fails', 'D: def parse(): pass']);
  const unnamed = await sent(`openai:${fake.url}#hash-16`);
  assert.deepEqual(unnamed.inputs, ['json parser fails', 'def parse(): pass'], 'a model no preset names: no prefix, as before');
});

test('picking needs exactly one model named; the presets follow the cards', () => {
  assert.equal(detectPreset(['nomic-ai/CodeRankEmbed'])?.name, 'coderankembed');
  assert.equal(detectPreset(['Salesforce/SweRankEmbed-Large'])?.name, 'swerankembed-large');
  assert.equal(detectPreset(['swerankembed_small-onnx'])?.name, 'swerankembed-small');
  assert.equal(detectPreset(['CodeRankEmbed', 'Salesforce/SweRankEmbed-Large']), undefined, 'names that disagree: none');
  assert.equal(detectPreset(['my-model', undefined]), undefined);
  for (const p of EMBEDDER_PRESETS) {
    assert.equal(p.prefixes.document, '');
    assert.ok(p.normalize);
  }
  assert.deepEqual(parseEmbedderSpec('CodeRankEmbed:openai:http://localhost:8001/v1#CodeRankEmbed').backend, { kind: 'openai', url: 'http://localhost:8001/v1', model: 'CodeRankEmbed' });
  assert.throws(() => parseEmbedderSpec('coderank:onnx:/m'), /^IssuelocError: --embedder: unknown preset 'coderank' \(presets: coderankembed, swerankembed-small, swerankembed-large, generic\)$/);
  assert.throws(() => parseEmbedderSpec('coderankembed'), /the preset 'coderankembed' needs a backend after it/);
  assert.throws(() => parseEmbedderSpec('tfidf:x'), /--embedder: cannot read 'tfidf:x'/, 'not a preset: the old message');
});

test('float16 outputs (raw IEEE half bits in a Uint16Array) are decoded before pooling', async () => {
  // 1, -2, 0.333251953125 (0x3555), 2^-24 (smallest subnormal), 65504 (largest), -0
  const bits = [0x3c00, 0xc000, 0x3555, 0x0001, 0x7bff, 0x8000];
  assert.deepEqual(bits.map(halfToFloat), [1, -2, 0.333251953125, 2 ** -24, 65504, -0]);
  assert.equal(halfToFloat(0x7c00), Infinity);
  assert.equal(halfToFloat(0xfc00), -Infinity);
  assert.ok(Number.isNaN(halfToFloat(0x7e00)));
  const hidden = { dims: [1, 3, 2], type: 'float16', data: Uint16Array.from([0x3c00, 0xc000, 0x3555, 0x0001, 0x7bff, 0x7bff]) };
  const mask = { dims: [1, 3], data: new BigInt64Array([1n, 1n, 0n]) };
  assert.deepEqual([...poolTokens(hidden, mask, 'cls')[0]], [1, -2]);
  assert.deepEqual([...poolTokens(hidden, mask, 'last')[0]], [Math.fround(0.333251953125), Math.fround(2 ** -24)]);
  const [mean] = poolTokens(hidden, mask, 'mean');
  assert.ok(Math.abs(mean[0] - (1 + 0.333251953125) / 2) < 1e-7 && Math.abs(mean[1] - (-2 + 2 ** -24) / 2) < 1e-7, [...mean].join(' '));
  // Every half agrees with transformers.js's own float16 → float32 conversion.
  const { Tensor } = await import('@huggingface/transformers') as unknown as { Tensor: new (t: string, d: Uint16Array, dims: number[]) => { to(t: string): { data: Float32Array } } };
  const all = Uint16Array.from({ length: 65536 }, (_, i) => i);
  const theirs = new Tensor('float16', all, [65536]).to('float32').data;
  const ours = Float32Array.from(all, halfToFloat);
  const differ = [...all].filter((b) => !Object.is(ours[b], theirs[b]) && !(Number.isNaN(ours[b]) && Number.isNaN(theirs[b])));
  assert.deepEqual(differ.slice(0, 5), [], `${differ.length} halves differ`);
});

test('library: documentPrefix needs an embedder; a bad preset is refused before anything opens', async () => {
  await assert.rejects(openLocalizer({ repo: work, documentPrefix: 'passage: ' }), /^IssuelocError: documentPrefix sets up dense retrieval: give embedder too$/);
  await assert.rejects(openLocalizer({ repo: join(root, 'no-such-repo'), embedder: 'codrankembed:openai:http://127.0.0.1:9/v1#m' }), /embedder: unknown preset 'codrankembed' \(presets: /);
  await assert.rejects(openLocalizer({ repo: work, embedder: 'none', documentPrefix: 1 as unknown as string }), /documentPrefix must be a string, got 1/);
});

test('CLI: --json names the preset picked; bad preset names and --document-prefix without --embedder exit 2 with one line', async () => {
  const args = ['localize', '--repo', work, '--issue', 'json parser fails', '--json', '--no-progress', '--cache-dir', join(root, 'cli-cache')];
  fake.requests.length = 0;
  const { stdout } = await run(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args, '--embedder', `openai:${fake.url}#nomic-ai/CodeRankEmbed`]);
  const o = JSON.parse(stdout) as { stages: string[]; embedder: { name: string; preset: string | null; presetPicked: boolean } };
  assert.deepEqual(o.stages, ['lexical', 'dense']);
  assert.deepEqual({ preset: o.embedder.preset, picked: o.embedder.presetPicked }, { preset: 'coderankembed', picked: true });
  const inputs = fake.requests.flatMap((r) => r.body.input as string[]);
  assert.ok(inputs.includes('Represent this query for searching relevant code: json parser fails'), inputs.join('\n'));
  assert.ok(inputs.filter((t) => t.startsWith('pkg/')).length === 2, 'the functions go without a prefix');
  // the rest through the CLI's main in-process (execInProcess): their process is not under test
  const { stdout: plain } = await execInProcess(args);
  assert.equal((JSON.parse(plain) as Record<string, unknown>).embedder, undefined, 'no embedder: no embedder field');
  const refused = async (extra: string[], message: RegExp) => {
    const e = await execInProcess([...args, ...extra]).then(() => undefined, (x: { code: number; stderr: string }) => x);
    assert.ok(e, `${extra.join(' ')} is refused`);
    assert.equal(e.code, 2);
    const lines = e.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, e.stderr);
    assert.match(lines[0], message);
  };
  await refused(['--embedder', 'coderank-embed:openai:http://127.0.0.1:9/v1#m'], /^issueloc: --embedder: unknown preset 'coderank-embed' \(presets: coderankembed, swerankembed-small, swerankembed-large, generic\)$/);
  await refused(['--document-prefix', 'passage: '], /^issueloc: --document-prefix sets up dense retrieval: give --embedder too$/);
  await refused(['--embedder', 'none', '--document-prefix', 'passage: '], /--document-prefix sets up dense retrieval: give --embedder too$/);
});
