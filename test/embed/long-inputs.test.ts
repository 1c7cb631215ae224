// Texts longer than the model accepts, against a server that refuses them as vLLM does (HTTP 400
// "This model's maximum context length is N tokens. However, you requested M tokens …", never
// retried): the refused text is found (the batch split in halves), cut and sent again, a bounded
// number of times, with one warning per embedder; the index builds and the long function gets a
// vector. Any other refusal stays a failure (a warning and the lexical ranking in the CLI).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { startFakeOpenAI, wordCount, type FakeOpenAI } from '../llm-rerank/fake-openai.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { OpenAIEmbedder, MAX_CUTS, cutForRefusal, tooLongRefusal } from '../../src/embed/openai-embedder.js';
import { buildVectorIndex } from '../../src/embed/vector-index.js';
import { HttpRequestError } from '../../src/util/http-json.js';
import type { CodeIndex } from '../../src/index/code-index.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
const run = promisify(execFile);
let fake: FakeOpenAI, root: string, work: string, repo: GitRepo, codeIndex: CodeIndex;
const MAX = 200; // tokens (words) the fake model accepts
const LONG_WORDS = 1500; // lines of one word: 45 000 characters, ~270 words in the 8 000 characters kept

before(async () => {
  fake = await startFakeOpenAI();
  for (const m of ['hash-16-a', 'hash-16-b', 'hash-16-cli']) fake.maxInputTokens.set(m, MAX);
  fake.maxInputTokens.set('hash-16-nothing', 0);
  root = tempDir('issueloc-long-inputs-');
  work = join(root, 'repo');
  const files: Record<string, string> = {};
  for (let i = 1; i <= 6; i++) files[`pkg/mod${i}.py`] = `def f00${i}(text):\n    return parse_json(text, ${i})\n`;
  files['pkg/huge.py'] = `def generated_table():\n    return [\n${'        socket_connect_retry,\n'.repeat(LONG_WORDS)}    ]\n`;
  commitFiles(work, files);
  repo = await GitRepo.open(work);
  codeIndex = (await indexCommit(repo, 'HEAD', { cacheDir: join(root, 'index-cache') })).codeIndex;
});
after(async () => {
  await repo.close();
  await fake.close();
  cleanup(root);
});

const embedder = (model: string, batchSize: number, warnings: string[]) =>
  new OpenAIEmbedder({ url: fake.url, model, batchSize, retries: 0, onWarning: (m) => warnings.push(m) });
const hugeDoc = () => codeIndex.units.findIndex((u) => u.path === 'pkg/huge.py');

test('vLLM-style 400 on a long function: the index builds, the long function gets a vector, one warning', async () => {
  const warnings: string[] = [];
  const indexWarnings: string[] = [];
  fake.requests.length = 0;
  const v = await buildVectorIndex(repo, codeIndex, embedder('hash-16-a', 4, warnings), { cacheDir: join(root, 'c-a'), onWarning: (m) => indexWarnings.push(m) });
  assert.equal(v.count, codeIndex.units.length);
  const d = hugeDoc();
  assert.ok(d >= 0);
  const row = v.vectors.slice(d * v.dim, (d + 1) * v.dim);
  assert.ok(row.some((x) => x !== 0), 'the long function has a vector');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /refused a text of \d+ characters as longer than the model accepts; texts it refuses are cut/);
  assert.deepEqual(indexWarnings, []);
  // Every request that was answered held only inputs the model accepts; the long text was cut once
  // (the refusal's token counts give the share) and is a prefix of the full text.
  const answered = fake.requests.filter((r) => (r.body.input as string[]).every((t) => wordCount(t) <= MAX));
  const sent = answered.flatMap((r) => r.body.input as string[]);
  const cut = sent.filter((t) => t.startsWith('pkg/huge.py\n'));
  assert.equal(cut.length, 1, 'the long function was embedded once, cut');
  assert.ok(wordCount(cut[0]) <= MAX && wordCount(cut[0]) > MAX / 2, `cut to ${wordCount(cut[0])} words`);
  assert.ok(fake.requests.length <= 1 + 2 * Math.ceil(Math.log2(4)) * 2 + MAX_CUTS + 1, `${fake.requests.length} requests`);
  // The short functions went as they are, each once.
  assert.equal(sent.filter((t) => !t.startsWith('pkg/huge.py\n')).length, codeIndex.units.length - 1);
});

test('the cut depends on the text only: another batch size (and an empty cache) gives the same vectors; a long query is cut too', async () => {
  const warnings: string[] = [];
  const a = await buildVectorIndex(repo, codeIndex, embedder('hash-16-b', 4, []), { cacheDir: join(root, 'c-b4') });
  const e = embedder('hash-16-b', 1, warnings);
  const b = await buildVectorIndex(repo, codeIndex, e, { cacheDir: join(root, 'c-b1') });
  assert.deepEqual(b.vectors, a.vectors);
  const [q] = await e.embed([`socket ${'connect '.repeat(3000)}`], 'query');
  assert.ok(q.some((x) => x !== 0));
  assert.equal(warnings.length, 1, 'one warning per embedder, however many texts are cut');
});

test('a text still refused after the bounded cuts, and any other 400, stay failures (no endless retries)', async () => {
  fake.requests.length = 0;
  await assert.rejects(
    embedder('hash-16-nothing', 4, []).embed(['a b c', 'd e f g'], 'document'),
    (e: Error) => e instanceof HttpRequestError && /maximum context length is 0 tokens/.test(e.message),
  );
  assert.ok(fake.requests.length <= 3 + MAX_CUTS, `${fake.requests.length} requests`);
  fake.requests.length = 0;
  fake.script.push({ status: 400, body: '{"error":"unknown model"}' });
  await assert.rejects(embedder('hash-16', 4, []).embed(['a', 'b'], 'document'), /refused the request \(HTTP 400: \{"error":"unknown model"\}\)/);
  assert.equal(fake.requests.length, 1, 'a 400 that is not "too long" is not split nor retried');
});

test('tooLongRefusal reads vLLM, OpenAI and TEI wordings; cutForRefusal always shortens', () => {
  const refused = (status: number, text: string) => new HttpRequestError(`http://x/v1/embeddings refused the request (HTTP ${status}: ${text})`, status, false);
  assert.deepEqual(tooLongRefusal(refused(400, "This model's maximum context length is 2048 tokens. However, you requested 3000 tokens in the input for embedding generation.")), { limit: 2048, given: 3000 });
  assert.deepEqual(tooLongRefusal(refused(400, "This model's maximum context length is 8192 tokens, however you requested 9000 tokens (9000 in your prompt; 0 for the completion).")), { limit: 8192, given: 9000 });
  assert.deepEqual(tooLongRefusal(refused(413, 'Input validation error: `inputs` must have less than 512 tokens. Given: 600')), { limit: 512, given: 600 });
  assert.equal(tooLongRefusal(refused(400, '{"error":"unknown model"}')), undefined);
  assert.equal(tooLongRefusal(refused(500, 'maximum context length is 5 tokens')), undefined, '5xx are retried by postJson, not cut');
  assert.equal(tooLongRefusal(new Error('maximum context length')), undefined);
  const text = 'x'.repeat(1000);
  assert.equal(cutForRefusal(text, { limit: 500, given: 1000 }).length, 450);
  assert.equal(cutForRefusal(text, {}).length, 500);
  assert.equal(cutForRefusal('ab', { limit: 100, given: 101 }).length, 1);
});

test('CLI: a server refusing inputs over 200 tokens never aborts the index build: exit 0, dense stage ran, one warning', async () => {
  const { stdout, stderr } = await run(process.execPath, [...BASELINE_WASM_ARGS, bin, 'localize', '--repo', work, '--issue', 'socket connect retry table', '--json', '--no-progress',
    '--cache-dir', join(root, 'c-cli'), '--embedder', `openai:${fake.url}#hash-16-cli`]);
  const lines = stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0], /^issueloc: warning: embedder .* refused a text of \d+ characters as longer than the model accepts/);
  assert.doesNotMatch(stderr, /dense retrieval skipped/);
  const o = JSON.parse(stdout) as { functions: { id: string }[]; stages: string[] };
  assert.deepEqual(o.stages, ['lexical', 'dense']);
  assert.ok(o.functions[0].id.startsWith('pkg/huge.py:'), JSON.stringify(o.functions[0]));
});
