// One parser of item ids (`path:Qualified.name`, src/corpus/names.ts splitItemId) for every reader:
// a path may hold `:` (a qualified name never does), so an id splits at its last `:`, and an id that
// is a path is not split. Checked where ids are read: the MCP text, the MCP item spans.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { splitItemId } from '../../src/corpus/names.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { ItemSpans } from '../../src/service/mcp/item-spans.js';
import { McpTools } from '../../src/service/mcp/tools.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';

test('splitItemId: at the last `:`; an id that is a known path whole', () => {
  assert.deepEqual(splitItemId('pkg/a.py:Parser.parse'), { path: 'pkg/a.py', qualifiedName: 'Parser.parse' });
  assert.deepEqual(splitItemId('gen:v1/a.py:Parser.parse'), { path: 'gen:v1/a.py', qualifiedName: 'Parser.parse' });
  assert.deepEqual(splitItemId('pkg/a.py'), { path: 'pkg/a.py', qualifiedName: '' });
  assert.deepEqual(splitItemId('gen:v1/a.json', (p) => p === 'gen:v1/a.json'), { path: 'gen:v1/a.json', qualifiedName: '' });
});

test('MCP: the text of items whose path holds `:`, and their lines from git', async () => {
  const dir = tempDir('issueloc-item-ids-');
  try {
    const repo = join(dir, 'repo');
    const path = 'gen:v1/dates.py';
    commitFiles(repo, { [path]: 'import re\n\nclass Parser:\n    def parse(self, text):\n        return re.match(r"\\d+", text)\n' });
    const spans = new ItemSpans(repo);
    try {
      const { execFileSync } = await import('node:child_process');
      const commit = execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
      assert.deepEqual(await spans.rangeOf(commit, `${path}:Parser.parse`), { start: 4, end: 5 });
      assert.deepEqual(await spans.rangeOf(commit, `${path}:Parser`), { start: 3, end: 5 });
      assert.deepEqual(await spans.rangeOf(commit, path, true), { start: 1, end: 5 }, 'a file id');
      assert.deepEqual(await spans.rangeOf(commit, path), { start: 1, end: 5 }, 'an id that names no file when split: a path');
    } finally {
      await spans.close();
    }

    const config: ServiceConfig = {
      repositories: new Map([['a', { name: 'a', path: repo, rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } }]]),
      models: new Map(), limits: { ...DEFAULT_LIMITS }, source: 'test',
    };
    const item = (id: string) => ({ id, score: 1, startLine: 4, endLine: 5, matchedTerms: ['parse'], signals: [] });
    const answer = JSON.stringify({
      repo: 'a', commit: 'f'.repeat(40), level: 'all', stages: ['bm25'],
      files: [item(path)], modules: [item(`${path}:Parser`)], functions: [item(`${path}:Parser.parse`)],
    });
    const tools = new McpTools({ config, backend: { localize: async () => answer, repos: async () => [] } }, { timeoutMs: 5000 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await tools.server().connect(serverSide);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(clientSide);
    try {
      const r = await client.callTool({ name: 'localize', arguments: { issue: 'parse dates', repository: 'a' } }) as CallToolResult;
      const lines = (r.content[0] as { text: string }).text.split('\n');
      assert.deepEqual(lines.slice(1), ['files:', `  1. ${path}:4-5  1  [parse]`, 'modules:', `  1. ${path}:4-5 Parser  1  [parse]`,
        'functions:', `  1. ${path}:4-5 Parser.parse  1  [parse]`]);
    } finally {
      await client.close();
      await tools.close();
    }
  } finally {
    cleanup(dir);
  }
});
