// The service's configuration: repositories by name, limits; bad values refused on one line
// naming the file and the key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../../src/errors.js';
import { DEFAULT_LIMITS, loadServiceConfig, parseConfigText } from '../../src/service/config.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

const refused = (f: () => unknown, message: RegExp) => assert.throws(f, (e: unknown) => {
  assert.ok(e instanceof IssuelocError, String(e));
  assert.equal(e.exitCode, 2);
  assert.match(e.message, message);
  assert.doesNotMatch(e.message, /\n/);
  return true;
});

test('a JSON config: repositories with defaults, models, limits, relative paths from the file', () => {
  const c = parseConfigText(JSON.stringify({
    repositories: { sympy: { path: 'mirrors/sympy.git', rev: 'master', top: 5, model: 'mine', level: 'function' }, flask: '/srv/flask' },
    models: { mine: 'models/m.json' },
    cacheDir: 'cache',
    limits: { memoryBudget: '512M', concurrency: 4, timeoutSeconds: 5 },
  }), 'issueloc.config.json', '/etc/issueloc', 'json');
  assert.deepEqual(c.repositories.get('sympy'), { name: 'sympy', path: '/etc/issueloc/mirrors/sympy.git', rev: 'master', defaults: { level: 'function', top: 5, model: 'mine' } });
  assert.deepEqual(c.repositories.get('flask'), { name: 'flask', path: '/srv/flask', rev: 'HEAD', defaults: { level: 'all', top: 10, model: 'default' } });
  assert.equal(c.models.get('mine'), '/etc/issueloc/models/m.json');
  assert.equal(c.cacheDir, '/etc/issueloc/cache');
  assert.deepEqual(c.limits, { ...DEFAULT_LIMITS, memoryBudgetBytes: 512 << 20, concurrency: 4, timeoutMs: 5000 });
});

test('YAML reads as JSON does', () => {
  const c = parseConfigText('repositories:\n  requests:\n    path: /r\n    top: 3\nlimits:\n  maxBodyBytes: 4096\n', 'issueloc.config.yaml', '/', 'yaml');
  assert.equal(c.repositories.get('requests')?.defaults.top, 3);
  assert.equal(c.limits.maxBodyBytes, 4096);
});

test('bad values: one line naming the file and the key', () => {
  const parse = (v: unknown) => () => parseConfigText(JSON.stringify(v), 'x.json', '/', 'json');
  refused(() => parseConfigText('{', 'x.json', '/', 'json'), /^x\.json: not valid JSON/);
  refused(() => parseConfigText('a: [', 'x.yaml', '/', 'yaml'), /^x\.yaml: not valid YAML/);
  refused(parse([]), /^x\.json: \(top level\): must be an object/);
  refused(parse({}), /^x\.json: repositories: missing/);
  refused(parse({ repositories: { r: { path: '/r', top: 0 } } }), /^x\.json: repositories\.r\.top: must be a whole number from 1 to 1000/);
  refused(parse({ repositories: { r: { path: '/r', level: 'line' } } }), /repositories\.r\.level: must be one of/);
  refused(parse({ repositories: { r: { path: '/r', model: '/etc/passwd' } } }), /repositories\.r\.model: must be none, default/);
  refused(parse({ repositories: { r: { path: '/r', rev: '--output=/tmp/x' } } }), /repositories\.r\.rev: must be a git revision/);
  refused(parse({ repositories: { '../etc': '/r' } }), /repositories\.\.\.\/etc: a repository name/);
  refused(parse({ repositories: { r: { path: '' } } }), /repositories\.r\.path: must be a path/);
  refused(parse({ repositories: { r: { path: '/r', colour: 1 } } }), /repositories\.r\.colour: unknown key/);
  refused(parse({ repositories: { r: '/r' }, limits: { concurrency: 1.5 } }), /limits\.concurrency: must be a whole number/);
  refused(parse({ repositories: { r: '/r' }, limits: { memoryBudget: 'lots' } }), /limits\.memoryBudget: takes a size/);
  refused(parse({ repositories: { r: '/r' }, limits: { answerCache: -1 } }), /limits\.answerCache: takes a size such as 16M, or 0 for none/);
});

test('limits.answerCache: a size, 0 for none', () => {
  const limits = (answerCache: unknown) => parseConfigText(JSON.stringify({ repositories: { r: '/r' }, limits: { answerCache } }), 'x.json', '/', 'json').limits.answerCacheBytes;
  assert.equal(limits('4M'), 4 << 20);
  assert.equal(limits(0), 0);
  assert.equal(limits('0'), 0);
});

test('flags: --repo NAME=PATH over the config file found in the working folder', () => {
  const dir = tempDir('issueloc-config-');
  try {
    refused(() => loadServiceConfig({}, dir), /no repository configured: give --repo PATH \(or NAME=PATH\)/);
    const c = loadServiceConfig({ repo: ['a=repos/a', 'b=/b'], limits: { concurrency: 2 } }, dir);
    assert.deepEqual([...c.repositories.keys()], ['a', 'b']);
    assert.equal(c.repositories.get('a')?.path, join(dir, 'repos/a'));
    assert.equal(c.limits.concurrency, 2);
    refused(() => loadServiceConfig({ repo: ['nopath='] }, dir), /--repo nopath=: no path after '='/);
    refused(() => loadServiceConfig({ repo: [''] }, dir), /--repo takes PATH or NAME=PATH/);
    // a plain path, as localize --repo takes it: named after its folder
    const plain = loadServiceConfig({ repo: ['src/my repo.git', '/srv/django'] }, dir);
    assert.deepEqual([...plain.repositories.keys()], ['my-repo', 'django']);
    assert.equal(plain.repositories.get('my-repo')?.path, join(dir, 'src/my repo.git'));
    // a clone's git directory is named after the clone, as its cache folder is
    assert.deepEqual([...loadServiceConfig({ repo: ['/srv/flask/.git/'] }, dir).repositories.keys()], ['flask']);
    // a part before '=' that is no name makes the whole flag a path
    assert.equal(loadServiceConfig({ repo: ['../x=/r'] }, dir).repositories.get('r')?.path, join(dir, '../x=/r'));
    refused(() => loadServiceConfig({ repo: ['/a/proj', '/b/proj'] }, dir), /--repo \/b\/proj: a second repository named 'proj'/);
    writeFileSync(join(dir, 'issueloc.config.json'), JSON.stringify({ repositories: { a: '/from-file', c: '/c' } }));
    const both = loadServiceConfig({ repo: ['a=/from-flag'] }, dir);
    assert.equal(both.repositories.get('a')?.path, '/from-flag');
    assert.equal(both.repositories.get('c')?.path, '/c');
    refused(() => loadServiceConfig({ config: 'missing.yaml' }, dir), /cannot read config .*missing\.yaml: no such file/);
  } finally {
    cleanup(dir);
  }
});
