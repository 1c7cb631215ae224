// The MCP tools' bounds and failures, on a backend that misbehaves: a call past the timeout and a
// bug in the backend are tool errors of one line (the bug also logged), and the server goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LocalizeRequest, RepoListing } from '../../src/service/backend.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { McpTools, type McpSource } from '../../src/service/mcp/tools.js';
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
