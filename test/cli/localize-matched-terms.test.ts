// The matched terms shown by `localize` (table, --explain, --json) hold no noise: no fragments of a
// split word (`LaTeX` → `la`, `te`; `BM25F` → `bm`, `25`) and no reserved word of the item's
// language (`true`, `import`, `return` in Python), while the words themselves still match; the
// MCP `localize` tool's compact text shows the same.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const scratch = tempDir('issueloc-matched-terms-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

const RENDER = `import re


def render_latex(text):
    """Render LaTeX markup; BM25F weights are not LaTeX."""
    if text is None:
        return True
    return re.sub("LaTeX", "TeX", text)


def bm25f_weights(fields):
    """BM25F field weights."""
    return [f for f in fields if True]
`;

const ISSUE = `LaTeX output breaks with BM25F weights

After import, render_latex returns True for LaTeX text instead of the markup; the BM25F weights
look wrong too. We return True on every field.
`;

const NOISE = ['la', 'te', 'bm', '25', 'true', 'import', 'return', 'if', 'none', 'is'];

test('localize shows latex and bm25f as matched terms, never la/te/bm/25 or Python keywords', () => {
  const r = fixtureRepo([{ id: 'A', message: 'init', files: { 'markup/render.py': RENDER, 'markup/__init__.py': '' } }]);
  const cache = mkdtempSync(join(scratch, 'cache-'));
  try {
    const args = ['localize', '--repo', r.dir, '--cache-dir', cache, '--issue', ISSUE, '--no-progress'];
    const json = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args, '--json'], { encoding: 'utf8' });
    assert.equal(json.status, 0, json.stderr);
    const out = JSON.parse(json.stdout) as Record<'files' | 'modules' | 'functions', { id: string; matchedTerms?: string[] }[]>;
    const shown = new Set<string>();
    for (const level of ['files', 'modules', 'functions'] as const) {
      assert.ok(out[level].length > 0, `${level} found`);
      for (const it of out[level]) for (const t of it.matchedTerms ?? []) shown.add(t);
    }
    assert.ok(shown.has('latex') && shown.has('bm25f'), `the words match: ${[...shown].join(' ')}`);
    assert.deepEqual(NOISE.filter((t) => shown.has(t)), [], `no noise in --json: ${[...shown].join(' ')}`);
    for (const extra of [[], ['--explain']]) {
      const table = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args, ...extra], { encoding: 'utf8', env: { ...process.env, COLUMNS: '300' } });
      assert.equal(table.status, 0, table.stderr);
      assert.match(table.stdout, /\blatex\b/);
      const words = new Set(table.stdout.split(/[^a-z0-9_]+/));
      assert.deepEqual(NOISE.filter((t) => words.has(t)), [], `no noise in the ${extra.join('') || 'plain'} table:\n${table.stdout}`);
    }
  } finally {
    r.remove();
  }
});

test('the MCP localize tool: its compact text and structured items show no fragment or keyword', async () => {
  const r = fixtureRepo([{ id: 'A', message: 'init', files: { 'markup/render.py': RENDER, 'markup/__init__.py': '' } }]);
  const cache = mkdtempSync(join(scratch, 'cache-'));
  const transport = new StdioClientTransport({
    command: process.execPath, args: [...BASELINE_WASM_ARGS, join(root, 'bin/issueloc.js'), 'mcp', '--repo', `demo=${r.dir}`, '--cache-dir', cache], cwd: root, stderr: 'pipe',
  });
  const client = new Client({ name: 'issueloc-test', version: '0.0.0' });
  try {
    await client.connect(transport);
    const answer = await client.callTool({ name: 'localize', arguments: { issue: ISSUE } }) as CallToolResult;
    assert.equal(answer.isError, undefined);
    const text = answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    assert.match(text, /\[[^\]]*\blatex\b/, text);
    const bracketed = [...text.matchAll(/\[([^\]]*)\]/g)].flatMap((m) => m[1].split(', '));
    assert.deepEqual(NOISE.filter((t) => bracketed.includes(t)), [], `compact text:\n${text}`);
    const items = answer.structuredContent as Record<'files' | 'functions', { matchedTerms: string[] }[]>;
    const shown = [...items.files, ...items.functions].flatMap((it) => it.matchedTerms);
    assert.deepEqual(NOISE.filter((t) => shown.includes(t)), [], shown.join(' '));
  } finally {
    await client.close();
    r.remove();
  }
});
