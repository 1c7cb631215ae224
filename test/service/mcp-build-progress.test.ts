// A fresh `issueloc mcp` session whose first calls come while the repository is being indexed
// (a build slowed on purpose: mcp-slow-build-server.ts), driven by the MCP SDK's client over
// stdio: the server starts the build itself, a call with a progressToken gets progress
// notifications (files indexed of all), a call past the timeout is told how far the build is and
// when to retry (never a bare timeout), and once the build ends the calls are answered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { buildDemoRepo, ISSUE } from './mcp-fixture.js';

const server = join(dirname(fileURLToPath(import.meta.url)), 'mcp-slow-build-server.js');
/** The server's per-call time (ms): a call waits this long for the build at most. */
const TIMEOUT_MS = 4000;
/** The client's own limit: far over the server's, so any answer is the server's. */
const CLIENT_TIMEOUT_MS = 120_000;

let dir: string, repo: string;
before(() => {
  dir = tempDir('issueloc-mcp-build-');
  repo = join(dir, 'demo');
  buildDemoRepo(repo);
});
after(() => cleanup(dir));

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

test('calls during the index build: progress notifications, then how far the build is and when to retry, then answers', async () => {
  const gate = join(dir, 'gate');
  const transport = new StdioClientTransport({ command: process.execPath, args: [server, repo, join(dir, 'cache'), gate, String(TIMEOUT_MS)], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (b: Buffer) => { stderr += b.toString('utf8'); });
  const client = new Client({ name: 'issueloc-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    const notes: Progress[] = [];
    const t0 = Date.now();
    const first = await client.callTool({ name: 'localize', arguments: { issue: ISSUE } }, undefined, {
      timeout: CLIENT_TIMEOUT_MS, onprogress: (p) => notes.push(p),
    }) as CallToolResult;
    const tookMs = Date.now() - t0;
    assert.equal(first.isError, true, 'the build cannot end before the gate opens');
    assert.doesNotMatch(textOf(first), /no answer within/, 'not a bare timeout');
    assert.match(textOf(first), /^the index of demo at [0-9a-f]{12} is still being built: (\d+ of 40 files \(\d+ %\) after \d+ s(, about \d+ s left)?|started \d+ s ago) \(retry in \d+ s\)$/);
    assert.ok(tookMs < CLIENT_TIMEOUT_MS / 2, `answered by the server within its own time, not the client's (${tookMs} ms)`);
    assert.ok(notes.length >= 1, 'progress notifications while the call waited');
    for (const [i, n] of notes.entries()) {
      // before the build has counted the files (a loaded machine) a note says when it started, with no total
      if (/^indexing demo at [0-9a-f]{12}: started \d+ s ago$/.test(n.message ?? '')) assert.equal(n.total, undefined);
      else {
        assert.equal(n.total, 40);
        assert.match(n.message ?? '', /^indexing demo at [0-9a-f]{12}: \d+ of 40 files/);
      }
      if (i > 0) assert.ok(n.progress > notes[i - 1].progress, 'progress increases');
    }

    const listed = await client.callTool({ name: 'list_repositories', arguments: {} }) as CallToolResult;
    assert.match(textOf(listed), /^demo: HEAD = [0-9a-f]{12}; /, 'other tools answer during the build');

    writeFileSync(gate, '');
    let answer: CallToolResult | undefined;
    for (let i = 0; i < 20 && !answer; i++) {
      const r = await client.callTool({ name: 'localize', arguments: { issue: ISSUE } }, undefined, { timeout: CLIENT_TIMEOUT_MS }) as CallToolResult;
      if (!r.isError) answer = r;
      else assert.match(textOf(r), /^the index of demo at [0-9a-f]{12} is still being built: .* \(retry in \d+ s\)$/, 'while the build ends, each answer says how far it is');
    }
    assert.ok(answer, 'answered once the build ended');
    assert.equal((answer.structuredContent as { files: { id: string }[] }).files[0].id, 'pkg/parse.py');
    // the start-up build's own line follows the answers it made possible (bounded: five call times)
    for (let waited = 0; !/ ready: /.test(stderr) && waited < 5 * TIMEOUT_MS; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.match(stderr, /issueloc: demo at [0-9a-f]{12} ready: \d+ files indexed/, `the start-up build is logged on stderr: ${stderr}`);
  } finally {
    await client.close();
  }
});
