// Issue 31 F10: a 500 (a full disk under the cache, in the HTTP thread or a worker) is one line on
// the server's stderr naming the path, and an answer naming no server path (was: nothing logged for
// a worker's error, its message answered as is).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromWire, toWire, type ServiceBackend } from '../../src/service/backend.js';
import { DEFAULT_LIMITS } from '../../src/service/config.js';
import { buildServer } from '../../src/service/server.js';

const PATH = '/srv/secret-cache/index/0123abcd.k.bin';
const efbig = () => Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG', syscall: 'write', errno: -27, path: PATH });

for (const [where, fail] of [['the HTTP thread', () => efbig()], ['a worker', () => fromWire(toWire(efbig(), 500))]] as const) {
  test(`a full disk in ${where}: 500, one log line with the path, an answer without it`, async () => {
    const backend = { localize: async () => { throw fail(); }, close: async () => undefined, stats: async () => ({}) } as unknown as ServiceBackend;
    const logged: string[] = [];
    const service = buildServer({ backend, limits: DEFAULT_LIMITS, onInternalError: (m) => logged.push(m) });
    try {
      const res = await service.app.inject({ method: 'POST', url: '/v1/localize', payload: { repository: 'demo', issue: 'parse the date' } });
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { error: 'server error: file too large (EFBIG)' });
      assert.equal(logged.length, 1);
      assert.match(logged[0], new RegExp(`EFBIG.*${PATH}`));
    } finally {
      await service.app.close();
    }
  });
}
