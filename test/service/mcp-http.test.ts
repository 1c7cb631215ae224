// The MCP route on a fastify server, driven by the SDK's StreamableHTTPClientTransport on
// 127.0.0.1: the same tools as over stdio, stateless (each POST stands alone), another
// origin refused, GET and DELETE answered 405.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InProcessBackend } from '../../src/service/backend.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { LocalizerPool } from '../../src/service/localizer-pool.js';
import { registerMcpRoute } from '../../src/service/mcp/http-route.js';
import { buildServer } from '../../src/service/server.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { buildDemoRepo, ISSUE } from './mcp-fixture.js';

let dir: string, config: ServiceConfig, pool: LocalizerPool, app: FastifyInstance, url: URL;
before(async () => {
  dir = tempDir('issueloc-mcp-http-');
  const repo = join(dir, 'demo');
  buildDemoRepo(repo);
  config = {
    repositories: new Map([['demo', { name: 'demo', path: repo, rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } }]]),
    models: new Map(), cacheDir: join(dir, 'cache'), limits: { ...DEFAULT_LIMITS }, source: 'test',
  };
  pool = new LocalizerPool(config);
  app = Fastify();
  registerMcpRoute(app, { config, backend: new InProcessBackend(pool) });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  url = new URL('/mcp', address);
});
after(async () => {
  await app.close();
  await pool.close();
  cleanup(dir);
});

test('the tools over streamable HTTP: a ranking with line ranges, a tool error, the next call answered', async () => {
  const client = new Client({ name: 'issueloc-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['explain_item', 'list_repositories', 'localize']);
    const answer = await client.callTool({ name: 'localize', arguments: { issue: ISSUE, level: 'function' } }) as CallToolResult;
    const fns = (answer.structuredContent as { functions: { id: string; startLine: number; endLine: number }[] }).functions;
    assert.deepEqual([fns[0].id, fns[0].startLine, fns[0].endLine], ['pkg/parse.py:parse_date', 4, 7]);
    const bad = await client.callTool({ name: 'localize', arguments: { issue: ISSUE, repository: 'nope' } }) as CallToolResult;
    assert.equal(bad.isError, true);
    assert.match((bad.content[0] as { text: string }).text, /^unknown repository 'nope'/);
    const explained = await client.callTool({ name: 'explain_item', arguments: { item: 'pkg/parse.py', issue: ISSUE } }) as CallToolResult;
    assert.equal((explained.structuredContent as { ranks: { file: number } }).ranks.file, 1);
  } finally {
    await client.close();
  }
  assert.ok(pool.counters.hits >= 1, 'the calls share the warm pool');
});

test('a page of another origin is refused; GET and DELETE answer 405', async () => {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const foreign = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body: JSON.stringify(init) });
  assert.equal(foreign.status, 403);
  const same = await fetch(url, { method: 'POST', headers: { ...headers, origin: `http://${url.host}` }, body: JSON.stringify(init) });
  assert.equal(same.status, 200);
  assert.equal(((await same.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name, 'issueloc');
  for (const method of ['GET', 'DELETE']) assert.equal((await fetch(url, { method })).status, 405, method);
});

test("under issueloc serve's server, /mcp asks for its bearer token like every other route", async () => {
  const backend = new InProcessBackend(pool);
  const service = buildServer({ backend, limits: config.limits, token: 's3cret' });
  registerMcpRoute(service.app, { config, backend });
  const address = await service.app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const mcp = new URL('/mcp', address);
    const refused = new Client({ name: 't', version: '0' });
    await assert.rejects(refused.connect(new StreamableHTTPClientTransport(mcp)), /401|token/i);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(mcp, { requestInit: { headers: { authorization: 'Bearer s3cret' } } }));
    const answer = await client.callTool({ name: 'localize', arguments: { issue: ISSUE, level: 'file', top: 1 } }) as CallToolResult;
    assert.equal((answer.structuredContent as { files: { id: string }[] }).files[0].id, 'pkg/parse.py');
    await client.close();
  } finally {
    await service.drain();
  }
});
