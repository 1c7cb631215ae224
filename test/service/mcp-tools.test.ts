// The MCP tools' bounds and failures, on a pool that misbehaves: a call past the timeout and a
// bug in the pool are tool errors of one line (the bug also logged), and the server goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { ServiceError } from '../../src/service/errors.js';
import type { PoolAnswer, PoolRequest } from '../../src/service/localizer-pool.js';
import { McpTools, type McpSource } from '../../src/service/mcp/tools.js';

const config: ServiceConfig = {
  repositories: new Map([
    ['a', { name: 'a', path: '/nonexistent/a', rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } }],
    ['b', { name: 'b', path: '/nonexistent/b', rev: 'main', defaults: { ...DEFAULT_RANK_SETTINGS, top: 100 } }],
  ]),
  models: new Map(), limits: { ...DEFAULT_LIMITS }, source: 'test',
};

/** A pool whose localize does what `behave` says with each request. */
function fakeSource(behave: (r: PoolRequest) => Promise<PoolAnswer>): McpSource & { requests: PoolRequest[] } {
  const requests: PoolRequest[] = [];
  return {
    config, requests,
    repository(name: string) {
      const r = config.repositories.get(name);
      if (!r) throw new ServiceError(`unknown repository '${name}'`, 404);
      return r;
    },
    localize: (r: PoolRequest) => { requests.push(r); return behave(r); },
    defaultCommit: async (name: string) => { if (name === 'b') throw new Error('git died\nsecond line'); return 'f'.repeat(40); },
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

test('a call past the timeout, a bug in the pool, several repositories: tool errors of one line', async () => {
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
    assert.ok(Date.now() - t0 < 5000);
    assert.equal(late.isError, true);
    assert.equal(text(late), 'no answer within 0.05 s (limits.timeoutSeconds): retry later (retry in 1 s)');
    assert.deepEqual(source.requests[0].settings, { level: undefined, top: 10, model: undefined }, 'top 10 by default');

    mode = 'bug';
    const bug = await client.callTool({ name: 'localize', arguments: { issue: 'parse date', repository: 'b' } }) as CallToolResult;
    assert.equal(text(bug), 'internal error: x is undefined');
    assert.equal(source.requests[1].settings?.top, 10, "a repository's default top above 10 is cut to 10 for an agent");
    assert.match(logged[0], /^internal error in an MCP tool: x is undefined$/);

    const repos = await client.callTool({ name: 'list_repositories', arguments: {} }) as CallToolResult;
    assert.equal(repos.isError, undefined);
    assert.equal(text(repos), `a: HEAD = ffffffffffff; level all, top 10, model none\nb: main (git died); level all, top 100, model none\nmodels: none, default`);
  } finally {
    await client.close();
    await tools.close();
  }
});
