// The web page's routes without a browser (fastify's inject): the page and its assets are open
// with a token while the data routes are not; previews name only configured repositories and
// verified commits, locate items, mark matched terms; a dropped issue file is read as the CLI
// reads it. (That the page's files are in the npm package: test/cli/package.test.ts.)
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { InProcessBackend } from '../../src/service/backend.js';
import { loadServiceConfig } from '../../src/service/config.js';
import { LocalizerPool } from '../../src/service/localizer-pool.js';
import { buildServer } from '../../src/service/server.js';
import { markTerms } from '../../src/service/web/preview.js';
import { registerWebPage } from '../../src/service/web/page.js';
import { registerMcpRoute } from '../../src/service/mcp/http-route.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';

const dir = tempDir('issueloc-web-routes-');
const repo = join(dir, 'repo');
const commit = commitFiles(repo, {
  'pkg/parser.py': 'class HeaderParser:\n    def split_fields(self, text):\n        return parseHTTPHeader(text)\n',
  'README.md': 'not code\n',
});
const config = loadServiceConfig({ repo: [`demo=${repo}`], cacheDir: join(dir, 'cache') }, dir);
const service = buildServer({ backend: new InProcessBackend(new LocalizerPool(config)), limits: config.limits, token: 'sesame' });
registerWebPage(service.app, { repositories: config.repositories });
registerMcpRoute(service.app, { config, backend: service.backend });
after(async () => {
  await service.app.close();
  cleanup(dir);
});
const auth = { authorization: 'Bearer sesame' };
const preview = (body: unknown, headers: Record<string, string> = auth) => service.app.inject({ method: 'POST', url: '/web/preview', headers, payload: body as object });

test('the page and its assets need no token and forbid inline scripts; the data routes still do', async () => {
  const page = await service.app.inject({ method: 'GET', url: '/' });
  assert.equal(page.statusCode, 200);
  assert.match(page.headers['content-type'] as string, /^text\/html/);
  assert.match(page.headers['content-security-policy'] as string, /script-src 'self';/);
  assert.match(page.body, /<script type="module" src="\/web\/app.js">/);
  for (const url of ['/web/app.js', '/web/style.css']) assert.equal((await service.app.inject({ method: 'GET', url })).statusCode, 200, url);
  assert.equal((await preview({ repository: 'demo', commit, items: [] }, {})).statusCode, 401);
  assert.equal((await service.app.inject({ method: 'POST', url: '/web/issue', payload: { raw: 'x' } })).statusCode, 401);
  assert.equal((await service.app.inject({ method: 'GET', url: '/v1/repos' })).statusCode, 401);
});

test('a preview gives each item\'s lines at the commit with the words of its matched terms marked', async () => {
  const res = await preview({ repository: 'demo', commit, items: [
    { id: 'pkg/parser.py' }, { id: 'pkg/parser.py:HeaderParser.split_fields', terms: ['http', 'fields'], lines: true }, { id: 'pkg/gone.py:f' },
  ] });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), { previews: [
    { id: 'pkg/parser.py', path: 'pkg/parser.py' },
    { id: 'pkg/parser.py:HeaderParser.split_fields', path: 'pkg/parser.py', startLine: 2, endLine: 3,
      lines: ['    def split_fields(self, text):', '        return parseHTTPHeader(text)'], marks: [[0, 8, 20, ['fields']], [1, 15, 30, ['http']]] },
  ] });
});

test('a preview names a configured repository and a full commit SHA only', async () => {
  assert.equal((await preview({ repository: '../repo', commit, items: [] })).statusCode, 404);
  assert.equal((await preview({ repository: 'demo', commit: 'HEAD', items: [] })).statusCode, 400);
  assert.equal((await preview({ repository: 'demo', commit: '--output=/tmp/x', items: [] })).statusCode, 400);
  const unknown = await preview({ repository: 'demo', commit: 'f'.repeat(40), items: [] });
  assert.equal(unknown.statusCode, 400);
  assert.match(unknown.json().error, /ffff/);
  assert.equal((await preview({ repository: 'demo', commit, items: [{ id: 'a', path: '/etc/passwd' }] })).statusCode, 400);
});

test('a dropped issue file is read as localize --issue-file reads it', async () => {
  const read = (raw: string) => service.app.inject({ method: 'POST', url: '/web/issue', headers: auth, payload: { raw, name: 'x.json' } }).then((r) => r.json());
  assert.deepEqual(await read(JSON.stringify({ title: 'Crash', body: 'in `split_fields`' })), { text: 'Crash\n\nin split_fields', format: 'github' });
  assert.deepEqual(await read(JSON.stringify({ key: 'P-1', fields: { summary: 'Slow', description: '{{HeaderParser}} is slow' } })), { text: 'Slow\n\nHeaderParser is slow', format: 'jira' });
  assert.deepEqual(await read('plain <b>text</b>'), { text: 'plain <b>text</b>', format: 'text' });
  assert.match((await read('{"a":1}')).warning, /x\.json.*searched as text/);
});

test('marks: whole words holding a term, as the index tokenizes code', () => {
  assert.deepEqual(markTerms(['x = parseHTTPServer(a_b)'], ['http', 'a_b']), [[0, 4, 19, ['http']], [0, 20, 23, ['a_b']]]);
  assert.deepEqual(markTerms(['anything'], []), []);
});

test('a request with an unknown field is refused naming it; /openapi.json lists /mcp and the page\'s routes', async () => {
  const localize = await service.app.inject({ method: 'POST', url: '/v1/localize', headers: auth, payload: { repository: 'demo', issue: 'x', colour: 'red' } });
  assert.equal(localize.statusCode, 400);
  assert.equal(localize.json().error, 'body: unknown field "colour"');
  const nested = await preview({ repository: 'demo', commit, items: [{ id: 'pkg/parser.py', line: true }] });
  assert.equal(nested.statusCode, 400);
  assert.equal(nested.json().error, 'body.items.0: unknown field "line"');
  const wrongType = await service.app.inject({ method: 'POST', url: '/v1/localize', headers: auth, payload: { repository: 'demo', issue: 'x', top: 'ten' } });
  assert.equal(wrongType.json().error, 'body/top must be integer', 'other schema errors keep their words');
  const badLevel = await service.app.inject({ method: 'POST', url: '/v1/localize', headers: auth, payload: { repository: 'demo', issue: 'x', level: 'files' } });
  assert.equal(badLevel.json().error, 'body/level must be equal to one of the allowed values: file, module, function, all');
  // an issue without a letter (of any script) or digit is empty, as the CLI and MCP say
  const empty = await service.app.inject({ method: 'POST', url: '/v1/localize', headers: auth, payload: { repository: 'demo', issue: ' ,;- ' } });
  assert.equal(empty.statusCode, 400);
  assert.equal(empty.json().error, 'empty issue text: nothing to search for');

  const api = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  for (const path of ['/mcp', '/', '/web/app.js', '/web/style.css', '/web/issue', '/web/preview', '/v1/localize']) assert.ok(api.paths[path], `${path} documented`);
  assert.deepEqual(Object.keys(api.paths['/mcp']).sort(), ['delete', 'get', 'post']);
});
