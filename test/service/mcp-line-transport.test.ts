// The stdio transport of `issueloc mcp` (issue 31, F14, F15): every line gets an answer — not JSON,
// no JSON-RPC 2.0, "params": null, over the size limit (skipped, never held) — each error one line
// with the id when readable; the SDK's validation dumps shortened; calls received before stdin
// ends are answered before it closes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { leadingId, LineTransport, oneLineMessage } from '../../src/service/mcp/stdio-transport.js';

type Out = { id?: unknown; result?: unknown; error?: { code: number; message: string } };

/** A transport over two pipes; `lines()` the messages written so far. */
function pipes(maxMessageBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (d: Buffer) => { text += d.toString('utf8'); });
  const t = new LineTransport(input, output, { drainMs: 5000, ...(maxMessageBytes ? { maxMessageBytes } : {}) });
  const received: unknown[] = [];
  t.onmessage = (m) => received.push(m);
  const lines = () => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Out);
  const settle = () => new Promise((r) => setTimeout(r, 20));
  return { input, t, received, lines, settle };
}

test('bad lines: each answered with a one-line JSON-RPC error, its id when readable; good ones passed on', async () => {
  const { input, t, received, lines, settle } = pipes();
  await t.start();
  input.write('not json\n{"jsonrpc":"1.0","id":11,"method":"tools/list"}\n{"id":"twelve","method":"tools/list"}\r\n');
  input.write('{"jsonrpc":"2.0","id":13,"method":"tools/list","params":null}\n[{"jsonrpc":"2.0","id":14,"method":"ping"}]\n\n');
  input.write('{"jsonrpc":"2.0","id":15,"meth');
  input.write('od":"ping"}\n');
  await settle();
  assert.deepEqual(lines().map((m) => [m.id, m.error?.code]), [[null, -32700], [11, -32600], ['twelve', -32600], [13, -32600], [null, -32600]]);
  for (const m of lines()) assert.doesNotMatch(m.error!.message, /\n/);
  assert.match(lines()[3].error!.message, /"params" must be an object/);
  assert.deepEqual(received, [{ jsonrpc: '2.0', id: 15, method: 'ping' }], 'a message split over chunks is read whole');
});

test('a message over the limit is skipped to its line end and answered with its id; the next is read', async () => {
  const { input, t, received, lines, settle } = pipes(1000);
  await t.start();
  input.write(`{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"arguments":{"issue":"${'x'.repeat(600)}`);
  input.write(`${'y'.repeat(5000)}"}}}\n{"jsonrpc":"2.0","id":22,"method":"ping"}\n`);
  await settle();
  assert.deepEqual(lines().map((m) => [m.id, m.error?.code]), [[21, -32600]]);
  assert.match(lines()[0].error!.message, /over 1000 bytes/);
  assert.deepEqual(received, [{ jsonrpc: '2.0', id: 22, method: 'ping' }]);
});

test('leadingId: the top-level id of a message\'s first bytes', () => {
  assert.equal(leadingId('{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"'), 7);
  assert.equal(leadingId('{"jsonrpc":"2.0","id":"abc","method"'), 'abc');
  assert.equal(leadingId('{"params":{"id":3,"x":"'), null, 'an id inside params is not the message\'s');
  assert.equal(leadingId('{"method":"x","params":{"s":"{\\"id\\":4"}'), null);
  assert.equal(leadingId('{"method":"x","params":{"a":"'), null);
});

test('oneLineMessage: the SDK\'s validation dump as its messages with their paths', () => {
  const dump = 'MCP error -32602: Invalid tools/call request: [\n  {\n    "expected": "string",\n    "code": "invalid_type",\n    "path": [\n      "params",\n      "name"\n    ],\n    "message": "Invalid input: expected string, received undefined"\n  }\n]';
  assert.equal(oneLineMessage(dump), 'Invalid tools/call request: Invalid input: expected string, received undefined at params.name');
  assert.equal(oneLineMessage('a\n  b'), 'a; b');
});

test('with an MCP server: a call whose stdin ends right after it is answered before the transport closes', async () => {
  const { input, t, lines } = pipes();
  const server = new McpServer({ name: 't', version: '0' });
  server.registerTool('slow', { inputSchema: z.object({}) }, async () => {
    await new Promise((r) => setTimeout(r, 200));
    return { content: [{ type: 'text', text: 'done' }] };
  });
  const closed = new Promise<void>((r) => { t.onclose = r; });
  await server.connect(t);
  input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '0' } } })}\n`);
  input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: {} } })}\n`);
  input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } })}\n`);
  input.end();
  await closed;
  const byId = new Map(lines().map((m) => [m.id, m]));
  assert.deepEqual((byId.get(2)?.result as { content: { text: string }[] }).content[0].text, 'done');
  assert.equal(byId.get(3)?.error?.code, -32602, 'params failing the SDK\'s schema are invalid params');
  assert.doesNotMatch(byId.get(3)!.error!.message, /\n/);
  await server.close();
});
