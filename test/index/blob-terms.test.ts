// Issue 31 F11: a blob entry holds its key inside the checked payload; one copied under another blob's name is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BlobTermsCache, type UnitTerms } from '../../src/index/blob-terms.js';
import { setCacheWarningSink } from '../../src/util/checked-file.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

const units = (name: string): UnitTerms[] => [{ kind: 'function', qualifiedName: name, startLine: 1, endLine: 2, body: [[name, 1]], bodyLength: 1 }];

test('an entry copied over another blob\'s entry (valid checksum) is a miss with a warning, not that blob\'s units', () => {
  const dir = tempDir('issueloc-blobs-');
  const warned: string[] = [];
  const prev = setCacheWarningSink((l) => warned.push(l));
  try {
    const cache = new BlobTermsCache(join(dir, 'blobs-k'));
    const a = `${'a'.repeat(40)}python`;
    const b = `${'b'.repeat(40)}python`;
    assert.equal(cache.set(a, units('alpha')), undefined);
    assert.deepEqual(cache.get(a), units('alpha'));
    mkdirSync(join(dir, 'blobs-k', 'bb'), { recursive: true });
    copyFileSync(join(dir, 'blobs-k', 'aa', `${a.slice(2)}.bin`), join(dir, 'blobs-k', 'bb', `${b.slice(2)}.bin`));
    assert.equal(cache.get(b), undefined);
    assert.equal(warned.length, 1);
    assert.match(warned[0], /corrupt cache file .*bbbb.*python\.bin: rebuilt/);
    // the same bytes under another grammar's key are another entry
    assert.equal(cache.get(`${'a'.repeat(40)}typescript:tsx`), undefined);
  } finally {
    setCacheWarningSink(prev);
    cleanup(dir);
  }
});
