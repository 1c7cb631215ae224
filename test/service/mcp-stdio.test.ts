// `issueloc mcp` driven by the MCP SDK's own client over stdio, as a coding agent runs it: the
// tools and their schemas, a ranking with line ranges, an item's evidence, and bad calls answered
// as tool errors of one line by a server that goes on answering.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { buildDemoRepo, ISSUE } from './mcp-fixture.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'bin/issueloc.js');

let dir: string, repo: string, cache: string;
before(() => {
  dir = tempDir('issueloc-mcp-');
  repo = join(dir, 'demo');
  cache = join(dir, 'cache');
  buildDemoRepo(repo);
});
after(() => cleanup(dir));

async function connect(args: string[], cwd = root): Promise<{ client: Client; stderr: () => string; errors: Error[] }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...BASELINE_WASM_ARGS, bin, 'mcp', ...args], cwd, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (b: Buffer) => { err += b.toString('utf8'); });
  const client = new Client({ name: 'issueloc-test', version: '0.0.0' });
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, stderr: () => err, errors };
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

test('the tools, a ranking with line ranges, an item explained, bad calls as one-line tool errors, over stdio', async () => {
  const { client, stderr, errors } = await connect(['--repo', `demo=${repo}`, '--cache-dir', cache, '--max-issue-bytes', '4000']);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['explain_item', 'list_repositories', 'localize']);
    const localizeTool = tools.find((t) => t.name === 'localize')!;
    assert.deepEqual(localizeTool.inputSchema.required, ['issue']);
    for (const k of ['issue', 'repository', 'rev', 'level', 'top', 'model']) assert.ok(localizeTool.inputSchema.properties?.[k], `localize takes ${k}`);
    assert.equal((localizeTool.inputSchema.properties!.top as { maximum?: number }).maximum, 50);
    assert.ok(localizeTool.outputSchema, 'localize declares its structured output');
    assert.deepEqual(tools.find((t) => t.name === 'explain_item')!.inputSchema.required?.sort(), ['issue', 'item']);

    const answer = await client.callTool({ name: 'localize', arguments: { issue: ISSUE } }) as CallToolResult;
    assert.equal(answer.isError, undefined, textOf(answer));
    const out = answer.structuredContent as { repository: string; functions: { id: string; startLine: number; endLine: number; matchedTerms: string[]; signals: string[] }[]; files: { id: string }[] };
    assert.equal(out.repository, 'demo');
    assert.equal(out.files[0].id, 'pkg/parse.py');
    assert.equal(out.functions[0].id, 'pkg/parse.py:parse_date');
    assert.deepEqual([out.functions[0].startLine, out.functions[0].endLine], [4, 7], 'the lines of parse_date in the file');
    assert.ok(out.functions[0].matchedTerms.includes('parse_date'));
    assert.ok(out.functions[0].signals.length > 0, 'the issue names the function: a signal');
    assert.match(textOf(answer), /\n {2}1\. pkg\/parse\.py:4-7 parse_date {2}[\d.]+ {2}\[/, 'compact: one line per item');
    const full = await client.callTool({ name: 'localize', arguments: { issue: ISSUE, detail: 'full' } }) as CallToolResult;
    assert.match(textOf(full), /1\. pkg\/parse\.py:4-7 parse_date {2}[\d.]+ {2}\[.*signals: /);
    const nothing = await client.callTool({ name: 'localize', arguments: { issue: 'zebra giraffe' } }) as CallToolResult;
    assert.equal(nothing.isError, undefined);
    assert.match(textOf(nothing), /files:\n {2}\(none: no word of the issue occurs in the indexed code\)/, 'an empty answer says why, as the CLI does');
    process.stdout.write(`# demo repo, top 10: answer ${JSON.stringify(answer).length} B compact (text ${textOf(answer).length} B), ${JSON.stringify(full).length} B full (text ${textOf(full).length} B)\n`);

    const top1 = await client.callTool({ name: 'localize', arguments: { issue: ISSUE, level: 'function', top: 1 } }) as CallToolResult;
    const one = top1.structuredContent as Record<string, unknown[]>;
    assert.equal(one.functions.length, 1);
    assert.equal(one.files, undefined, 'level function answers functions only');

    const explained = await client.callTool({ name: 'explain_item', arguments: { item: 'pkg/parse.py:parse_date', issue: ISSUE } }) as CallToolResult;
    assert.equal(explained.isError, undefined, textOf(explained));
    const ex = explained.structuredContent as { ranks: Record<string, number>; startLine: number; endLine: number; preview: string[]; termLines: Record<string, number[]>; signals: string[] };
    assert.equal(ex.ranks.function, 1);
    assert.deepEqual([ex.startLine, ex.endLine], [4, 7]);
    assert.equal(ex.preview[0], '4: def parse_date(text):');
    assert.deepEqual(ex.termLines.parse_date, [4]);
    assert.match(textOf(explained), /^pkg\/parse\.py:parse_date in demo @ [0-9a-f]{12}: rank 1 of the modules, 1 of the functions/);

    const repos = await client.callTool({ name: 'list_repositories', arguments: {} }) as CallToolResult;
    const listed = repos.structuredContent as { repositories: { name: string; commit: string }[] };
    assert.equal(listed.repositories[0].name, 'demo');
    assert.match(listed.repositories[0].commit, /^[0-9a-f]{40}$/);

    // bad calls: each a tool error of one line; the server answers the next call
    const failures: [string, Record<string, unknown>, RegExp][] = [
      ['localize', { issue: ISSUE, repository: '../etc' }, /^unknown repository '\.\.\/etc' \(configured: demo\)/],
      ['localize', { issue: 'x'.repeat(5000) }, /^localize: invalid arguments: over 4000 bytes \(limits\.maxIssueBytes\) at issue$/],
      ['localize', { issue: '' }, /^localize: invalid arguments: empty issue text: nothing to search for at issue$/],
      ['localize', { issue: ' \n\t ' }, /^localize: invalid arguments: empty issue text: nothing to search for at issue$/],
      ['localize', { issue: 'é'.repeat(2500) }, /^issue: 5000 bytes, over the limit of 4000/],
      ['localize', { issue: ISSUE, rev: '--output=/tmp/x' }, /--output=\/tmp\/x/],
      ['localize', { issue: ISSUE, top: 500 }, /^localize: invalid arguments: Too big: expected number to be <=50 at top$/],
      ['localize', { issue: ISSUE, top: 0, level: 'x' }, /^localize: invalid arguments: .* at level; .* at top$/],
      ['localize', { issue: ISSUE, model: 'nope' }, /^unknown model 'nope'/],
      ['localize', { issue: ISSUE, frobnicate: 1 }, /^localize: invalid arguments: .*frobnicate/],
      ['explain_item', { item: 'pkg/parse.py:parse_date', issue: ISSUE, frobnicate: 1 }, /^explain_item: invalid arguments: .*frobnicate/],
      ['list_repositories', { frobnicate: 1 }, /^list_repositories: invalid arguments: .*frobnicate/],
      ['localize', { issue: 'the and of' }, /no searchable word/],
      ['localize', { issue: '日志轮转失败' }, /^issue text has no searchable word: .*letters outside A-Z/],
      ['explain_item', { item: 'pkg/none.py:nothing', issue: ISSUE }, /^item 'pkg\/none\.py:nothing' is not among the top 50/],
    ];
    for (const [name, args, message] of failures) {
      const r = await client.callTool({ name, arguments: args }) as CallToolResult;
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args).slice(0, 80)}: ${textOf(r)}`);
      assert.match(textOf(r), message);
      assert.equal(textOf(r).includes('\n'), false, `one line: ${textOf(r)}`);
    }
    const again = await client.callTool({ name: 'localize', arguments: { issue: ISSUE, repository: 'demo' } }) as CallToolResult;
    assert.equal((again.structuredContent as typeof out).functions[0].id, 'pkg/parse.py:parse_date', 'the server survived');
    assert.deepEqual(errors, [], 'stdout held protocol messages only');
    assert.doesNotMatch(stderr(), /internal error/);
  } finally {
    await client.close();
  }
});

test('without a config or --repo, the repository of the current folder is the one repository', async () => {
  const sub = join(repo, 'pkg', 'deeper');
  mkdirSync(sub, { recursive: true });
  const { client } = await connect(['--cache-dir', cache], sub);
  try {
    const repos = await client.callTool({ name: 'list_repositories', arguments: {} }) as CallToolResult;
    assert.deepEqual((repos.structuredContent as { repositories: { name: string }[] }).repositories.map((r) => r.name), ['demo']);
    const answer = await client.callTool({ name: 'localize', arguments: { issue: ISSUE, level: 'function' } }) as CallToolResult;
    assert.equal((answer.structuredContent as { functions: { id: string }[] }).functions[0].id, 'pkg/parse.py:parse_date');
  } finally {
    await client.close();
  }
});

test('SIGTERM after an index build (signal-exit loaded by the build lock): exit 0', async () => {
  const child = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, 'mcp', '--repo', `demo=${repo}`, '--cache-dir', join(dir, 'cache-signal')], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise<[number | null, string | null]>((r) => child.on('exit', (code, signal) => r([code, signal])));
  try {
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'localize', arguments: { issue: ISSUE } } });
    const t0 = Date.now();
    while (!/"id":2\b/.test(stdout)) {
      assert.ok(Date.now() - t0 < 60_000, `no answer: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.match(stdout, /parse_date/, 'the index is built');
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [0, null], stderr);
  } finally {
    child.kill('SIGKILL');
  }
});
