// Every wait on an endpoint is bounded (src/util/http-json.ts): a refused port, a server that
// accepts and never answers, Retry-After beyond the budget, a huge answer (stream-read and
// abandoned at the cap, never cached), and an outer deadline; fake servers on 127.0.0.1 only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadBound } from '../util/load-bound.js';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.js';
import { tempDir, cleanup } from '../repo/git-fixture.js';
import { DEFAULT_RETRY, HttpRequestError, postJson } from '../../src/util/http-json.js';
import { Deadline, DeadlineExceeded } from '../../src/util/deadline.js';
import { OpenAIChatModel } from '../../src/llm-rerank/openai-chat.js';
import { CachedChatModel } from '../../src/llm-rerank/response-cache.js';
import { OpenAIEmbedder } from '../../src/embed/openai-embedder.js';

let fake: FakeOpenAI;
before(async () => { fake = await startFakeOpenAI(); });
after(async () => { await fake.close(); });

/** A port nothing listens on (bound, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const elapsed = async (f: () => Promise<unknown>) => {
  const t0 = Date.now();
  let error: unknown;
  try { await f(); } catch (e) { error = e; }
  return { ms: Date.now() - t0, error: error as Error };
};

test('defaults bound a dead endpoint to about 30 s: 3 tries, 0.5 + 1 s back-off, 30 s budget, 5 s connect timeout', () => {
  assert.deepEqual(DEFAULT_RETRY, { timeoutMs: 30_000, retries: 2, backoffMs: 500, budgetMs: 30_000, connectTimeoutMs: 5_000 });
});

test('a refused port: default retries, fails in about 1.5 s naming the URL', async () => {
  const port = await freePort();
  const { ms, error } = await elapsed(() => postJson(`http://127.0.0.1:${port}/v1/embeddings`, {}));
  assert.ok(error instanceof HttpRequestError && error.retryable && error.status === 0);
  assert.match(error.message, new RegExp(`^http://127\\.0\\.0\\.1:${port}/v1/embeddings failed after 3 tries \\(ECONNREFUSED\\)$`));
  assert.ok(ms >= 1500 && ms < loadBound(1500), `${ms} ms`);
});

test('a listener that never accepts (its queue full): the connect timeout ends each try', async () => {
  // A stopped process listening with a backlog of 1: once two connections wait in its queue, the
  // kernel drops further SYNs and a connect hangs, as with a firewalled host.
  const child = spawn(process.execPath, ['-e', "require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, function () { console.log(this.address().port); })"], { stdio: ['ignore', 'pipe', 'inherit'] });
  const fillers: Socket[] = [];
  try {
    const port = await new Promise<number>((r) => child.stdout.once('data', (d) => r(Number(String(d)))));
    child.kill('SIGSTOP');
    for (let i = 0; i < 4; i++) fillers.push(connect(port, '127.0.0.1').on('error', () => {}));
    await new Promise((r) => setTimeout(r, 200));
    const { ms, error } = await elapsed(() => postJson(`http://127.0.0.1:${port}/v1/embeddings`, {}, { connectTimeoutMs: 300, retries: 1, backoffMs: 10 }));
    assert.match(error.message, /failed after 2 tries \(no connection within 300 ms\)$/);
    assert.ok(ms >= 600 && ms < loadBound(2 * 300 + 10), `${ms} ms`);
  } finally {
    for (const s of fillers) s.destroy();
    child.kill('SIGKILL');
  }
});

test('a server that accepts and never answers costs the budget, not tries × timeout', async () => {
  fake.requests.length = 0;
  fake.script.length = 0;
  fake.script.push({ hang: true }, { hang: true }, { hang: true });
  const { ms, error } = await elapsed(() => postJson(`${fake.url}/chat/completions`, {}, { timeoutMs: 300_000, budgetMs: 600, backoffMs: 50 }));
  assert.match(error.message, /failed after 1 try \(no answer within 600 ms\); its 0\.6 s budget leaves no time for another$/);
  assert.ok(ms >= 590 && ms < loadBound(600), `${ms} ms: the budget, not the 300 s timeout`);
  assert.equal(fake.requests.length, 1);
  // A per-try timeout shorter than the budget: retried within it.
  fake.requests.length = 0;
  fake.script.length = 0;
  fake.script.push({ hang: true }, { hang: true }, { hang: true });
  const second = await elapsed(() => postJson(`${fake.url}/chat/completions`, {}, { timeoutMs: 200, budgetMs: 300_000, retries: 2, backoffMs: 10 }));
  assert.match(second.error.message, /failed after 3 tries \(no answer within 200 ms\)$/);
  assert.ok(second.ms < loadBound(3 * 200 + 2 * 10), `${second.ms} ms`);
  fake.script.length = 0;
});

test('a Retry-After beyond the budget ends the call at once instead of waiting', async () => {
  // a server of its own: a late request of an earlier test (its try aborted under load) cannot take this script
  const own = await startFakeOpenAI();
  try {
    // Retry-After is capped at 30 s: beyond a 20 s budget; the bound (10 s slack) tells it from waiting
    own.script.push({ status: 429, retryAfter: '3600' });
    const { ms, error } = await elapsed(() => postJson(`${own.url}/chat/completions`, {}, { budgetMs: 20_000 }));
    assert.match(error.message, /failed after 1 try \(HTTP 429.*\); its 20 s budget leaves no time for another/);
    assert.ok(ms < loadBound(0), `${ms} ms: did not wait`);
  } finally {
    await own.close();
  }
});

test('a huge chat answer is stream-read up to 1 MiB, abandoned, not retried and not cached', async () => {
  const dir = tempDir('issueloc-llm-huge-');
  try {
    fake.requests.length = 0;
    fake.streamed = 0;
    fake.script.length = 0;
    fake.script.push({ streamBytes: 150 * 1024 * 1024 });
    const model = new CachedChatModel(new OpenAIChatModel({ url: fake.url, model: 'ranker' }), dir);
    const { ms, error } = await elapsed(() => model.complete({ messages: [{ role: 'user', content: 'x' }], maxTokens: 1 }));
    assert.ok(error instanceof HttpRequestError && !error.retryable, String(error));
    assert.match(error.message, /chat\/completions: answer exceeds the cap of 1 MiB; abandoned$/);
    assert.equal(fake.requests.length, 1, 'not retried');
    assert.ok(ms < loadBound(0), `${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(fake.streamed < 20 * 1024 * 1024, `the server stopped after ${fake.streamed} bytes, not 150 MB`);
    assert.deepEqual(readdirSync(dir, { recursive: true }), [], 'nothing cached');
    // A declared Content-Length over the cap is refused before reading.
    fake.script.push({ streamBytes: 2 * 1024 * 1024, contentLength: true });
    await assert.rejects(model.complete({ messages: [{ role: 'user', content: 'y' }], maxTokens: 1 }), /exceeds the cap of 1 MiB/);
    // The cap is an option; embeddings default to 16 MiB.
    fake.script.push({ streamBytes: 300 * 1024 });
    const small = new OpenAIEmbedder({ url: fake.url, model: 'hash-16', maxResponseBytes: 256 * 1024 });
    await assert.rejects(small.embed(['a'], 'query'), /embeddings: answer exceeds the cap of 256 KiB; abandoned/);
    fake.script.push({ streamBytes: 17 * 1024 * 1024 });
    await assert.rejects(new OpenAIEmbedder({ url: fake.url, model: 'hash-16' }).embed(['a'], 'query'), /exceeds the cap of 16 MiB/);
  } finally {
    fake.script.length = 0;
    cleanup(dir);
  }
});

test('an answer just under the cap is read whole; an error body is cut for the message', async () => {
  fake.script.length = 0;
  fake.script.push({ streamBytes: 512 * 1024 });
  const answer = await postJson(`${fake.url}/chat/completions`, {}, { maxResponseBytes: 1024 * 1024 }) as { choices: { message: { content: string } }[] };
  assert.equal(answer.choices[0].message.content.length, 512 * 1024);
  fake.script.push({ status: 400, body: 'e'.repeat(200_000) });
  await assert.rejects(postJson(`${fake.url}/chat/completions`, {}), (e: Error) => /refused the request \(HTTP 400: e+…\)$/.test(e.message) && e.message.length < 400);
});

test('a deadline aborts the request in flight and the back-off wait, with DeadlineExceeded', async () => {
  fake.script.length = 0;
  fake.script.push({ hang: true });
  const deadline = Deadline.after(0.3);
  const { ms, error } = await elapsed(() => postJson(`${fake.url}/chat/completions`, {}, { signal: deadline.signal }));
  assert.ok(error instanceof DeadlineExceeded, String(error));
  assert.equal(error.message, 'the --deadline of 0.3 s passed');
  assert.ok(ms >= 290 && ms < loadBound(300), `${ms} ms: the deadline, not the 30 s timeout`);
  fake.script.length = 0;
  fake.script.push({ status: 503 });
  const waiting = await elapsed(() => postJson(`${fake.url}/chat/completions`, {}, { backoffMs: 300_000, budgetMs: 600_000, signal: Deadline.after(0.3).signal }));
  assert.ok(waiting.error instanceof DeadlineExceeded);
  assert.ok(waiting.ms < loadBound(300), `${waiting.ms} ms: the 300 s back-off was cut`);
  fake.script.length = 0;
  await assert.rejects(postJson(`${fake.url}/chat/completions`, {}, { signal: deadline.signal }), DeadlineExceeded, 'an expired deadline sends nothing');
});

test('the response cache never writes a malformed answer and treats a malformed entry as a miss', async () => {
  const dir = tempDir('issueloc-llm-malformed-');
  try {
    let calls = 0;
    const inner = { id: 'x', complete: async () => { calls++; return { text: 'A', inputTokens: -1, outputTokens: 1 }; } };
    const cached = new CachedChatModel(inner, join(dir, 'llm'));
    await cached.complete({ messages: [{ role: 'user', content: 'q' }], maxTokens: 1 });
    await cached.complete({ messages: [{ role: 'user', content: 'q' }], maxTokens: 1 });
    assert.equal(calls, 2, 'not cached');
  } finally {
    cleanup(dir);
  }
});
