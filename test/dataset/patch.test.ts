import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { IssuelocError } from '../../src/errors.js';
import {
  parsePatch,
  readPatch,
  applyHunks,
  locateHunk,
  removedOldLines,
  addedNewLines,
} from '../../src/dataset/patch.js';
import { sourceLines } from '../../src/corpus/decode.js';
import { fixtureData, sharedDataOrSkip } from '../fixtures/data.js';

const TWO_FILES = [
  'diff --git a/pkg/a.py b/pkg/a.py',
  'index 1111111..2222222 100644',
  '--- a/pkg/a.py',
  '+++ b/pkg/a.py',
  '@@ -2,3 +2,4 @@ def f():',
  '     x = 1',
  '-    y = 2',
  '+    y = 3',
  '+    z = 4',
  '     return x',
  'diff --git a/new.py b/new.py',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/new.py',
  '@@ -0,0 +1 @@',
  '+print(1)',
  'diff --git a/gone.py b/gone.py',
  'deleted file mode 100644',
  '--- a/gone.py\t2020-01-01 00:00:00',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-a',
  '--- b',
  'diff --git a/img.png b/img.png',
  'Binary files a/img.png and b/img.png differ',
  '',
].join('\n');

test('parsePatch reads paths, added/deleted files and hunk bodies', () => {
  const files = parsePatch(TWO_FILES);
  assert.deepEqual(
    files.map((f) => [f.path, f.oldPath, f.newPath]),
    [
      ['pkg/a.py', 'pkg/a.py', 'pkg/a.py'],
      ['new.py', null, 'new.py'],
      ['gone.py', 'gone.py', null],
    ],
  );
  const h = files[0].hunks[0];
  assert.deepEqual([h.oldStart, h.oldCount, h.newStart, h.newCount], [2, 3, 2, 4]);
  assert.deepEqual(
    h.lines.map((l) => l.tag + l.text),
    ['     x = 1', '-    y = 2', '+    y = 3', '+    z = 4', '     return x'],
  );
  // "--- b" is a removed line "-- b" inside the hunk, not a file header
  assert.deepEqual(files[2].hunks[0].lines, [
    { tag: '-', text: 'a' },
    { tag: '-', text: '-- b' },
  ]);
  // header "@@ -0,0 +1 @@": new count defaults to 1
  assert.equal(files[1].hunks[0].newCount, 1);
});

test('removedOldLines and addedNewLines follow the hunk headers', () => {
  const [a, added, gone] = parsePatch(TWO_FILES);
  assert.deepEqual(removedOldLines(a), [3]);
  assert.deepEqual(addedNewLines(a), [3, 4]);
  assert.deepEqual(addedNewLines(added), [1]);
  assert.deepEqual(removedOldLines(gone), [1, 2]);
});

test('parsePatch skips "no newline" markers, merges sections of one path, unquotes paths', () => {
  const text = [
    '--- "a/caf\\303\\251.py"',
    '+++ "b/caf\\303\\251.py"',
    '@@ -1 +1 @@',
    '-old',
    '\\ No newline at end of file',
    '+new',
    '\\ No newline at end of file',
    '--- a/caf\u00e9.py',
    '+++ b/caf\u00e9.py',
    '@@ -5,1 +5,1 @@',
    '',
  ].join('\n');
  const files = parsePatch(text);
  assert.equal(files.length, 1);
  assert.equal(files[0].path, 'caf\u00e9.py');
  assert.equal(files[0].hunks.length, 2);
  // the empty line after the second header counts as an empty context line
  assert.deepEqual(files[0].hunks[1].lines, [{ tag: ' ', text: '' }]);
});

test('parsePatch rejects a truncated hunk and a hunk without a file', () => {
  assert.throws(() => parsePatch('--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b'), (e: unknown) => {
    return e instanceof IssuelocError && /truncated/.test(e.message) && /x/.test(e.message);
  });
  assert.throws(() => parsePatch('@@ -1 +1 @@\n-a\n+b\n'), IssuelocError);
});

test('applyHunks applies at the header line and reports removed/added lines', () => {
  const base = ['def f():', '    x = 1', '    y = 2', '    return x', ''];
  const [a] = parsePatch(TWO_FILES);
  const r = applyHunks(a.hunks, base);
  assert.deepEqual(r.newLines, ['def f():', '    x = 1', '    y = 3', '    z = 4', '    return x', '']);
  assert.deepEqual([...r.removed], [3]);
  assert.deepEqual([...r.added], [3, 4]);
});

test('applyHunks finds a hunk by context when the header is off, and carries the offset', () => {
  // two extra lines at the top shift everything by +2
  const base = ['# a', '# b', 'def f():', '    x = 1', '    y = 2', '    return x', 'def g():', '    pass'];
  const patch = [
    '--- a/m.py',
    '+++ b/m.py',
    '@@ -2,3 +2,3 @@',
    '     x = 1',
    '-    y = 2',
    '+    y = 9',
    '     return x',
    '@@ -6,1 +6,1 @@',
    '-    pass',
    '+    return 0',
  ].join('\n');
  const [f] = parsePatch(patch);
  const r = applyHunks(f.hunks, base);
  assert.deepEqual([...r.removed], [5, 8]);
  assert.deepEqual([...r.added], [5, 8]);
  assert.equal(r.newLines[7], '    return 0');
  assert.equal(r.newLines.length, base.length);
});

test('locateHunk prefers the nearest match, later side first, never before lo', () => {
  const lines = ['x', 'a', 'x', 'a', 'x'];
  assert.equal(locateHunk(lines, ['a'], 3, 1), 4);
  assert.equal(locateHunk(lines, ['a'], 3, 5), null);
  assert.equal(locateHunk(lines, ['x', 'a'], 1, 2), 3);
  assert.equal(locateHunk(lines, ['zzz'], 1, 1), null);
});

test('applyHunks inserts after line N for a "-N,0" hunk', () => {
  const [f] = parsePatch('--- a/m\n+++ b/m\n@@ -1,0 +2 @@\n+inserted\n');
  const r = applyHunks(f.hunks, ['one', 'two']);
  assert.deepEqual(r.newLines, ['one', 'inserted', 'two']);
  assert.deepEqual([...r.added], [2]);
  assert.equal(r.removed.size, 0);
});

test('a CRLF diff gives the same paths and hunks as the LF one; CRLF content matches the normalised base', () => {
  const crlf = TWO_FILES.replace(/\n/g, '\r\n');
  assert.deepEqual(parsePatch(crlf), parsePatch(TWO_FILES));
  assert.deepEqual(parsePatch(crlf).map((f) => f.path), ['pkg/a.py', 'new.py', 'gone.py']);
  // an LF diff of a file with CRLF lines: the hunk is found in the base as sourceLines reads it
  const base = sourceLines('# top\r\ndef f():\r\n    x = 1\r\n    y = 2\r\n    return x\r\n');
  const [f] = parsePatch('--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n     x = 1\r\n-    y = 2\r\n+    y = 3\r\n     return x\r\n');
  assert.equal(f.path, 'm.py');
  const r = applyHunks(f.hunks, base);
  assert.deepEqual([...r.removed], [4], 'located by context one line below its header');
  assert.equal(r.newLines[3], '    y = 3');
});

test('readPatch lists pure renames apart; a rename with edits is a file patch of its old path', () => {
  const text = [
    'diff --git a/old/name.py b/new/name.py',
    'similarity index 100%',
    'rename from old/name.py',
    'rename to new/name.py',
    'diff --git a/edited.py b/moved.py',
    'similarity index 90%',
    'rename from edited.py',
    'rename to moved.py',
    'index 1111111..2222222 100644',
    '--- a/edited.py',
    '+++ b/moved.py',
    '@@ -1 +1 @@',
    '-a',
    '+b',
    'diff --git "a/caf\\303\\251.py" "b/t\\303\\251.py"',
    'similarity index 100%',
    'rename from "caf\\303\\251.py"',
    'rename to "t\\303\\251.py"',
    '',
  ].join('\r\n');
  const { files, pureRenames } = readPatch(text);
  assert.deepEqual(files.map((f) => [f.path, f.oldPath, f.newPath]), [['edited.py', 'edited.py', 'moved.py']]);
  assert.deepEqual(pureRenames, [{ from: 'old/name.py', to: 'new/name.py' }, { from: 'caf\u00e9.py', to: 't\u00e9.py' }]);
  assert.deepEqual(parsePatch(text), files);
});

test('sourceLines: CRLF is one line end, a lone CR none (git\'s lines)', () => {
  assert.deepEqual(sourceLines('a\r\nb\rc\n'), ['a', 'b\rc', '']);
});

/** Parses the `patch` of every row of a JSONL file and checks each hunk body against its header counts; returns the row count. */
function assertPatchesParse(file: string): number {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { instance_id: string; patch: string });
  for (const row of rows) {
    const files = parsePatch(row.patch);
    assert.ok(files.length >= 1, row.instance_id);
    for (const f of files) {
      for (const h of f.hunks) {
        const nOld = h.lines.filter((l) => l.tag !== '+').length;
        const nNew = h.lines.filter((l) => l.tag !== '-').length;
        assert.deepEqual([nOld, nNew], [h.oldCount, h.newCount], row.instance_id);
      }
    }
  }
  return rows.length;
}

test('the committed SWE-bench Lite and Loc-Bench gold patches parse, each hunk body matching its header counts', () => {
  assert.equal(assertPatchesParse(fixtureData('swebench-lite.jsonl')), 3);
  assert.equal(assertPatchesParse(fixtureData('locbench.jsonl')), 4);
});

test('every SWE-bench Lite gold patch parses, and each hunk body matches its header counts', (t) => {
  const file = sharedDataOrSkip(t, 'swebench-lite/swebench_lite.jsonl');
  if (!file) return;
  assert.equal(assertPatchesParse(file), 300);
});
