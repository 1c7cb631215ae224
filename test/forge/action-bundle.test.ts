// The GitHub Action runs the committed bundle action/bundle/index.mjs at the action's path with no
// `npm install`: the bundle must be what action/build.mjs makes of today's sources, must run from
// a folder with no node_modules anywhere above it, and must carry every grammar it parses with.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPECS } from '../../src/corpus/extract-specs.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { FakeGitHub } from './fake-github.js';

const scratch = tempDir('issueloc-action-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const committed = join(root, 'action/bundle');
const github = new FakeGitHub();
before(() => github.start());
after(() => github.stop());

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

test('action/bundle is what `npm run build:action` makes of the sources today', () => {
  const fresh = join(scratch, 'fresh');
  execFileSync(process.execPath, [join(root, 'action/build.mjs'), fresh], { stdio: ['ignore', 'pipe', 'pipe'] });
  assert.deepEqual(filesUnder(committed), filesUnder(fresh));
  for (const f of filesUnder(fresh)) {
    assert.ok(readFileSync(join(fresh, f)).equals(readFileSync(join(committed, f))), `action/bundle/${f} is stale: run npm run build:action and commit action/bundle/`);
  }
});

test('the bundle carries every grammar of the extraction specs', () => {
  for (const g of new Set(Object.values(SPECS).map((s) => s.grammar))) {
    assert.ok(existsSync(join(committed, 'grammars', `tree-sitter-${g}.wasm`)), g);
  }
});

test('action.yml runs the bundle on node24 (built for node20 and up) and declares every input the entry reads', () => {
  const yml = readFileSync(join(root, 'action.yml'), 'utf8');
  assert.match(yml, /^runs:\n {2}using: node24\n {2}main: action\/bundle\/index\.mjs\n/m);
  assert.match(readFileSync(join(root, 'action/build.mjs'), 'utf8'), /target: 'node20'/, 'the bundle still runs on Node 20');
  const declared = new Set([...(/^inputs:\n((?: {2}.*\n)+)/m.exec(yml)![1].matchAll(/^ {2}([a-z-]+):$/gm))].map((m) => m[1]));
  const read = new Set([...readFileSync(join(root, 'src/forge/action.ts'), 'utf8').matchAll(/(?:getInput|wholeInput)\('([a-z-]+)'/g)].map((m) => m[1]));
  assert.deepEqual([...read].sort(), [...declared].sort());
});

/** Runs the bundle copied to a folder with no node_modules above it, as the Actions runner does. */
async function runBundle(env: Record<string, string>): Promise<{ code: number; out: string; outputs: string }> {
  const at = join(scratch, `action-${Math.random().toString(36).slice(2)}`);
  cpSync(committed, at, { recursive: true });
  const outputs = join(at, 'outputs.txt');
  writeFileSync(outputs, '');
  const child = spawn(process.execPath, [join(at, 'index.mjs')], {
    cwd: scratch,
    env: {
      PATH: process.env.PATH, HOME: scratch, XDG_CACHE_HOME: join(scratch, 'xdg'), GITHUB_OUTPUT: outputs,
      GITHUB_EVENT_NAME: 'issues', GITHUB_REPOSITORY: 'acme/shop', GITHUB_API_URL: github.url, GITHUB_SERVER_URL: 'https://github.com',
      'INPUT_TOKEN': github.token, 'INPUT_LEVEL': 'all', 'INPUT_TOP': '3', 'INPUT_MODEL': 'default',
      'INPUT_OPT-OUT-LABEL': 'issueloc:skip', 'INPUT_MAX-COMMENT-SIZE': '65536', 'INPUT_PATH': 'repo', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
  return { code, out, outputs: readFileSync(outputs, 'utf8') };
}

test('the bundle, run as the Action, comments with the default model; a bad token fails with ::error:: and exit 2', async () => {
  const sha = commitFiles(join(scratch, 'repo'), {
    'billing/invoice.go': 'package billing\n\ntype Invoice struct{ Total int }\n\nfunc (i *Invoice) ApplyDiscount(rate int) int {\n\treturn i.Total * rate\n}\n',
    'billing/tax.py': 'def vat(amount):\n    return amount * 0.2\n',
  });
  const event = join(scratch, 'event.json');
  writeFileSync(event, JSON.stringify({ action: 'opened', issue: { number: 12, title: 'ApplyDiscount ignores the rate of an invoice', body: 'see Invoice', user: { login: 'carol', type: 'User' }, labels: [] } }));
  const r = await runBundle({ GITHUB_EVENT_PATH: event });
  assert.equal(r.code, 0, r.out);
  const [post] = github.writes();
  const body = (post.body as { body: string }).body;
  assert.ok(body.includes(`(https://github.com/acme/shop/blob/${sha}/billing/invoice.go#L5-L7)`), body);
  assert.match(body, /\(lexical → model\)/, 'the default model ranked');
  assert.match(r.outputs, /^result<<(.+)\ncreated\n\1$/m);
  assert.match(r.outputs, /^comment-url<<(.+)\nhttps:\/\/github\.example\/acme\/shop\/issues\/12#issuecomment-\d+\n\1$/m);
  const bad = await runBundle({ GITHUB_EVENT_PATH: event, INPUT_TOKEN: 'wrong' });
  assert.equal(bad.code, 2);
  assert.match(bad.out, /^::error::issueloc: GitHub API GET \/repos\/acme\/shop\/issues\/12\/comments failed: 401 Bad credentials$/m);
  const badInput = await runBundle({ GITHUB_EVENT_PATH: event, INPUT_TOP: 'ten' });
  assert.equal(badInput.code, 2);
  assert.match(badInput.out, /^::error::issueloc: input 'top' takes a whole number, got 'ten'$/m);
});
