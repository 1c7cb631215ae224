// The Host check of `issueloc serve` without a token (DNS rebinding, issue 31 F6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostChecker } from '../../src/service/server.js';

test('loopback names and the allowed hosts pass with any port; other names, and tricks on them, do not', () => {
  const ok = hostChecker(['issueloc.internal', '::2']);
  for (const h of ['127.0.0.1:8787', 'localhost', 'LOCALHOST:1', '[::1]:8787', 'localhost.:80', 'issueloc.internal:8787', '[::2]:1', undefined]) assert.equal(ok(h), true, String(h));
  for (const h of ['rebind.example:8787', '127.0.0.1.nip.io', 'localhost.evil', 'evil@127.0.0.1', '127.0.0.1:80:81', '', ' ', '127.0.0.2', '[::1]x']) assert.equal(ok(h), false, h);
});
