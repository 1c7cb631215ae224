// A function id that several units share (Python `@overload` stubs before the implementation)
// shows the lines of the implementation, the unit of most lines, where the words are.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLocalizer } from '../../src/pipeline/localizer.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { OVERLOAD_SOURCE as SOURCE } from '../corpus/overload-source.js';

const fx = fixtureRepo([{ id: 'A', message: 'initial import', files: { 'models.py': SOURCE } }]);
const dir = mkdtempSync(join(tmpdir(), 'issueloc-overload-lines-'));
after(() => {
  fx.remove();
  rmSync(dir, { recursive: true, force: true });
});

test('an id shared by @overload stubs and the implementation shows the implementation\'s lines', async () => {
  const localizer = await openLocalizer({ repo: fx.dir, cacheDir: join(dir, 'cache'), model: 'none' });
  try {
    const r = await localizer.localize('stream_decode_response_unicode and iter_slices chunk handling is broken', { top: 5 });
    const fn = r.functions.find((f) => f.id === 'models.py:Response.iter_content');
    assert.ok(fn, JSON.stringify(r.functions.map((f) => f.id)));
    assert.deepEqual([fn.startLine, fn.endLine], [8, 10]);
  } finally {
    await localizer.close();
  }
});
