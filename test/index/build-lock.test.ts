// The build lock held by another thread of this process (serve --workers: two threads building
// one commit) is named as such, not as "another issueloc process (pid <our own pid>)".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withBuildLock } from '../../src/index/build-lock.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

test('a holder with our own pid is another thread of this process', async () => {
  const root = tempDir('issueloc-lock-');
  try {
    const dir = join(root, 'index');
    mkdirSync(dir);
    let letGo = () => {};
    let held = () => {};
    const holding = new Promise<void>((r) => { held = r; });
    const first = withBuildLock(dir, { what: 'the index of 0123456789ab' }, () => { held(); return new Promise<void>((r) => { letGo = r; }); });
    await holding;
    const lines: string[] = [];
    const second = withBuildLock(dir, { what: 'the index of 0123456789ab', waitMs: 20_000, onWait: (l) => { lines.push(l); letGo(); } }, async () => 'built');
    await first;
    assert.equal(await second, 'built');
    assert.deepEqual(lines, ['issueloc: waiting for another thread of this process building the index of 0123456789ab…\n']);
  } finally {
    cleanup(root);
  }
});
