// UTF-16 sources with a byte-order mark (as Windows editors save them) are text: indexed, their
// functions found on the right lines; without a mark they stay binary (issue 12, item 16).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { UnitSourceReader } from '../../src/embed/unit-source.js';
import { Localizer } from '../../src/retrieve/localize.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

function utf16(text: string, order: 'le' | 'be', bom = true): Buffer {
  const le = Buffer.from(text, 'utf16le');
  const withBom = bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), le]) : le;
  return order === 'le' ? withBom : Buffer.from(withBom).swap16();
}

const WIN = 'import os\r\n\r\ndef read_registry_key(name):\r\n    """Lire la clé « name »."""\r\n    return os.environ[name]\r\n';
const BE = 'class Reader {\n    int readBigEndianWord() { return 1; }\n}\n';

test('UTF-16 LE and BE files with a byte-order mark are indexed; without one they are binary', async () => {
  const dir = tempDir('issueloc-utf16-');
  try {
    const commit = commitFiles(join(dir, 'repo'), {
      'win/registry.py': utf16(WIN, 'le'),
      'src/Reader.java': utf16(BE, 'be'),
      'raw/nomark.py': utf16('def no_mark():\n    pass\n', 'le', false),
    });
    const repo = await GitRepo.open(join(dir, 'repo'));
    const { codeIndex } = await indexCommit(repo, commit, { cacheDir: join(dir, 'cache') });
    const texts = await new UnitSourceReader(repo, commit).texts(codeIndex.units.filter((u) => u.qualifiedName === 'read_registry_key'));
    await repo.close();
    const ids = codeIndex.units.map((u) => `${u.path}:${u.qualifiedName} ${u.startLine}-${u.endLine}`);
    assert.deepEqual(ids.sort(), ['src/Reader.java:Reader.readBigEndianWord 2-2', 'win/registry.py:read_registry_key 3-5']);
    assert.equal(codeIndex.stats.skipped.binary, 1, 'the file without a mark');
    assert.deepEqual(codeIndex.filePaths, ['src/Reader.java', 'win/registry.py']);
    assert.deepEqual(texts, ['def read_registry_key(name):\n    """Lire la clé « name »."""\n    return os.environ[name]']);
    const l = new Localizer(codeIndex);
    const loc = l.localize(l.queryOf(parseIssue('registry key')), { top: 3 });
    assert.equal(loc.functions[0]?.id, 'win/registry.py:read_registry_key');
    assert.ok(loc.functions[0].matchedTerms?.includes('registry'), JSON.stringify(loc.functions[0]));
  } finally {
    cleanup(dir);
  }
});
