// The MCP tools' bounds and failures, on a backend that misbehaves: a call past the timeout and a
// bug in the backend are tool errors of one line (the bug also logged), and the server goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LocalizeRequest, RepoListing } from '../../src/service/backend.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { McpTools, shorten, type McpSource } from '../../src/service/mcp/tools.js';
import { loadBound } from '../util/load-bound.js';

const config: ServiceConfig = {
  repositories: new Map([
    ['a', { name: 'a', path: '/nonexistent/a', rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } }],
    ['b', { name: 'b', path: '/nonexistent/b', rev: 'main', defaults: { ...DEFAULT_RANK_SETTINGS, top: 100 } }],
  ]),
  models: new Map(), limits: { ...DEFAULT_LIMITS }, source: 'test',
};

/** A backend whose localize does what `behave` says with each request. */
function fakeSource(behave: (r: LocalizeRequest) => Promise<string>): McpSource & { requests: LocalizeRequest[] } {
  const requests: LocalizeRequest[] = [];
  const repos: RepoListing[] = [
    { name: 'a', rev: 'HEAD', commit: 'f'.repeat(40), defaults: config.repositories.get('a')!.defaults, warm: [{ commit: 'f'.repeat(40), model: 'default', bytes: 1 }] },
    { name: 'b', rev: 'main', defaults: config.repositories.get('b')!.defaults, warm: [] },
  ];
  return {
    config, requests,
    backend: { localize: (r: LocalizeRequest) => { requests.push(r); return behave(r); }, repos: async () => repos },
  };
}

async function connected(tools: McpTools): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await tools.server().connect(serverSide);
  const client = new Client({ name: 't', version: '0' });
  await client.connect(clientSide);
  return client;
}

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

test('a call past the timeout, a bug in the backend, several repositories: tool errors of one line', async () => {
  let mode: 'hang' | 'bug' = 'hang';
  const source = fakeSource(() => (mode === 'hang' ? new Promise<never>(() => {}) : Promise.reject(new TypeError('x is undefined\n  at somewhere'))));
  const logged: string[] = [];
  const tools = new McpTools(source, { timeoutMs: 50, onError: (m) => logged.push(m) });
  const client = await connected(tools);
  try {
    const none = await client.callTool({ name: 'localize', arguments: { issue: 'parse date' } }) as CallToolResult;
    assert.equal(none.isError, true);
    assert.equal(text(none), 'repository: name one of a, b');

    const t0 = Date.now();
    const late = await client.callTool({ name: 'localize', arguments: { issue: 'parse date', repository: 'a' } }) as CallToolResult;
    assert.ok(Date.now() - t0 < loadBound(50), 'the 50 ms timeout ended the hung call');
    assert.equal(late.isError, true);
    assert.equal(text(late), 'no answer within 0.05 s (limits.timeoutSeconds): retry later (retry in 1 s)');
    assert.equal(source.requests[0].top, 10, 'top 10 by default');

    mode = 'bug';
    const bug = await client.callTool({ name: 'localize', arguments: { issue: 'parse date', repository: 'b' } }) as CallToolResult;
    assert.equal(text(bug), 'internal error: x is undefined');
    assert.equal(source.requests[1].top, 10, "a repository's default top above 10 is cut to 10 for an agent");
    assert.match(logged[0], /^internal error in an MCP tool: x is undefined$/);

    const repos = await client.callTool({ name: 'list_repositories', arguments: {} }) as CallToolResult;
    assert.equal(repos.isError, undefined);
    assert.equal(text(repos), 'a: HEAD = ffffffffffff; level all, top 10, model default; warm\nb: main (not resolved yet); level all, top 100, model default\nmodels: none, default');
  } finally {
    await client.close();
    await tools.close();
  }
});

/** A backend answer of `top` items per level, each with 5 matched terms and 3 signals with long evidence (a traceback's lines). */
function bulkyAnswer(top: number): string {
  const item = (id: string, i: number) => ({
    id, score: 1 / (i + 1), startLine: 10 * i + 1, endLine: 10 * i + 9,
    matchedTerms: ['parse', 'date', 'empty', 'text', 'value'],
    signals: ['frameFunction', 'frameFile', 'pathMention'],
    evidence: [1, 2, 3].map((k) => `File "/home/user/project/pkg/module_${i}.py", line ${k * 10}, in parse_date_${i}: raise ValueError(${'x'.repeat(120)})`),
  });
  const n = Array.from({ length: top }, (_, i) => i);
  return JSON.stringify({
    repo: 'a', commit: 'f'.repeat(40), level: 'all', stages: ['bm25', 'rerank'],
    files: n.map((i) => item(`pkg/module_${i}.py`, i)),
    modules: n.map((i) => item(`pkg/module_${i}.py:Parser${i}`, i)),
    functions: n.map((i) => item(`pkg/module_${i}.py:Parser${i}.parse_date_${i}`, i)),
  });
}

test('an answer that matches nothing says why', async () => {
  const empty = { repo: 'a', commit: 'f'.repeat(40), level: 'all', stages: ['lexical'], files: [], modules: [], functions: [] };
  let matched = 0;
  const tools = new McpTools(fakeSource(async () => JSON.stringify({ ...empty, matchedQueryTerms: matched })), { timeoutMs: 5000 });
  const client = await connected(tools);
  try {
    const none = await client.callTool({ name: 'localize', arguments: { issue: 'zebra giraffe', repository: 'a' } }) as CallToolResult;
    assert.deepEqual(text(none).split('\n').slice(1), ['files:', '  (none: no word of the issue occurs in the indexed code)', 'modules:',
      '  (none: no word of the issue occurs in the indexed code)', 'functions:', '  (none: no word of the issue occurs in the indexed code)']);
    matched = 2;
    const some = await client.callTool({ name: 'localize', arguments: { issue: 'zebra giraffe', repository: 'a' } }) as CallToolResult;
    assert.deepEqual(text(some).split('\n').slice(1, 3), ['files:', '  (none)'], 'words of the issue in the code, none ranked');
  } finally {
    await client.close();
    await tools.close();
  }
});

test('shorten elides the middle of a path, keeping a frame\'s file name, line number and function', () => {
  const frame = 'File "/usr/lib/python3.12/site-packages/flask/app.py", line 1230, in make_response';
  assert.equal(shorten(frame, 200), frame);
  const short = shorten(frame, 60);
  assert.ok(short.length <= 60, short);
  assert.match(short, /^File "\/usr.*…\/app\.py", line 1230, in make_response$/);
  assert.equal(shorten('x'.repeat(80), 60), `${'x'.repeat(59)}…`, 'no path: its end goes');
});

test('localize answers one compact line per item in its text, everything in structuredContent; detail "full" adds signals', async () => {
  const source = fakeSource(async (r) => bulkyAnswer(r.top ?? 10));
  const tools = new McpTools(source, { timeoutMs: 5000 });
  const client = await connected(tools);
  try {
    const compact = await client.callTool({ name: 'localize', arguments: { issue: 'parse date', repository: 'a' } }) as CallToolResult;
    const lines = text(compact).split('\n');
    assert.equal(lines.filter((l) => /^ {2}\d+\. /.test(l)).length, 30, 'one line per item, 10 per level');
    assert.ok(lines.includes('  1. pkg/module_0.py:1-9  1  [parse, date, empty]'), lines.join('\n'));
    assert.ok(lines.includes('  2. pkg/module_1.py:11-19 Parser1.parse_date_1  0.5  [parse, date, empty]'), lines.join('\n'));
    assert.doesNotMatch(text(compact), /frameFunction|line 10/, 'no signals or evidence in the compact text');
    const fns = (compact.structuredContent as { functions: { id: string; startLine: number; evidence: string[] }[] }).functions;
    assert.deepEqual([fns[1].id, fns[1].startLine, fns[1].evidence.length], ['pkg/module_1.py:Parser1.parse_date_1', 11, 3], 'the full item in structuredContent');

    const full = await client.callTool({ name: 'localize', arguments: { issue: 'parse date', repository: 'a', detail: 'full' } }) as CallToolResult;
    const fullLines = text(full).split('\n');
    const second = fullLines.find((l) => l.startsWith('  2. pkg/module_1.py:11-19 Parser1.parse_date_1  0.5  [parse, date, empty, text, value]  signals: frameFunction (File "'));
    assert.ok(second, `the compact line with every term, then the signals:\n${fullLines.join('\n')}`);
    assert.match(second, /frameFunction \(File "\/[^"]*module_1\.py", line 10, in parse_date_1/, 'a frame keeps its file name, line number and function');
    for (const l of lines.filter((x) => /^ {2}\d+\. /.test(x))) {
      const head = l.replace(/ {2}\[[^\]]*\]$/, '');
      assert.ok(fullLines.some((f) => f.startsWith(head)), `the full text holds the compact line's head: ${head}`);
    }

    const compactBytes = Buffer.byteLength(JSON.stringify(compact));
    const fullBytes = Buffer.byteLength(JSON.stringify(full));
    process.stdout.write(`# localize answer at top 10: compact ${compactBytes} bytes (text ${Buffer.byteLength(text(compact))}), full ${fullBytes} bytes (text ${Buffer.byteLength(text(full))})\n`);
    assert.ok(Buffer.byteLength(text(compact)) * 3 < Buffer.byteLength(text(full)), 'the compact text is a fraction of the full one');

    const bad = await client.callTool({ name: 'localize', arguments: { issue: 'parse date', repository: 'a', detail: 'all' } }) as CallToolResult;
    assert.equal(bad.isError, true);
  } finally {
    await client.close();
    await tools.close();
  }
});
