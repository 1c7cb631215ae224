// Server paths never reach HTTP clients (issue 31 F7): the one redactor of error answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverPathRedactor } from '../../src/service/errors.js';

test('repository, cache, working and home folders are named, not shown; the longest path wins', () => {
  const redact = serverPathRedactor([{ name: 'demo', path: '/srv/work/repos/demo' }], '/srv/work/cache', '/srv/work', '/home/me');
  assert.equal(redact('commit ff is not in /srv/work/repos/demo'), 'commit ff is not in <repository demo>');
  assert.equal(redact('--cache-dir /srv/work/cache/: /srv/work/cache is not a folder'), '--cache-dir <cache>/: <cache> is not a folder');
  assert.equal(redact("'../x' is outside repository at '/srv/work' (/home/me/.gitconfig)"), "'../x' is outside repository at '.' (~/.gitconfig)");
  assert.equal(redact('no path here: src/a.py'), 'no path here: src/a.py');
});
