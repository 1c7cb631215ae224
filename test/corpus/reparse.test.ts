import assert from 'node:assert/strict';
import test from 'node:test';
import { extractUnits, type Reparse } from '../../src/corpus/extract.js';
import { editBetween, type KeptParse } from '../../src/corpus/reparse.js';
import { KeptParses } from '../../src/history/mining/span-pool.js';

/** The point of offset `i` counted naively. */
function pointOf(text: string, i: number): { row: number; column: number } {
  const before = text.slice(0, i).split('\n');
  return { row: before.length - 1, column: before[before.length - 1].length };
}

test('editBetween describes exactly the change from one text to the other (indices, rows, columns; never inside a surrogate pair)', () => {
  const pairs: [string, string][] = [
    ['', ''], ['', 'a\nb'], ['a\nb', ''], ['same\n', 'same\n'],
    ['def f():\n    return 1\n', 'def f():\n    return 2\n'],
    ['x = 1\ny = 2\nz = 3', 'x = 1\nw = 0\ny = 2\nz = 3'],
    ['head\nmiddle\ntail', 'head\ntail'], ['aaa', 'aaaa'], ['abab\n', 'ab\n'],
    ['s = "\u{1F600}"\n', 's = "\u{1F601}"\n'], ['é = 1\nb', 'é = 2\nb'], ['no newline at end', 'no newline at the end'],
  ];
  for (const [before, after] of pairs) {
    const e = editBetween(before, after);
    assert.equal(before.slice(0, e.startIndex) + after.slice(e.startIndex, e.newEndIndex) + before.slice(e.oldEndIndex), after, JSON.stringify([before, after]));
    assert.equal(before.length - e.oldEndIndex, after.length - e.newEndIndex);
    assert.deepEqual(e.startPosition, pointOf(before, e.startIndex));
    assert.deepEqual(e.oldEndPosition, pointOf(before, e.oldEndIndex));
    assert.deepEqual(e.newEndPosition, pointOf(after, e.newEndIndex));
    for (const i of [e.startIndex, e.oldEndIndex]) {
      const code = before.charCodeAt(i);
      assert.ok(!(code >= 0xdc00 && code <= 0xdfff), `offset ${i} of ${JSON.stringify(before)} splits a surrogate pair`);
    }
  }
});

const VERSIONS: Record<string, string[]> = {
  'pkg/mod.py': [
    'import os\n\n\ndef parse(text):\n    return text.split()\n\n\nclass Doc:\n    def render(self):\n        return str(self)\n',
    'import os\nimport re\n\n\ndef parse(text):\n    return re.split(r"\\s+", text)\n\n\nclass Doc:\n    def render(self):\n        return str(self)\n\n    def save(self, path):\n        open(path, "w").write(self.render())\n',
    'def parse(text):\n    if text is None:\n        return []\n    return text.split()\n',
    'class Broken(:\n    def x(self):\n        pass\n',
  ],
  'src/lib.c': [
    '#include <stdio.h>\nstatic int add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2); }\n',
    '#include <stdio.h>\nAPI_EXPORT int add(int a, int b) { return a + b; }\nint sub(int a, int b) { return a - b; }\nint main(void) { return add(1, sub(3, 2)); }\n',
  ],
  'src/lib.rs': [
    'pub struct Buf { n: usize }\nimpl Buf {\n    pub fn len(&self) -> usize { self.n }\n}\n',
    'pub struct Buf { n: usize }\nimpl Buf {\n    pub fn len(&self) -> usize { self.n }\n    pub fn is_empty(&self) -> bool { self.n == 0 }\n}\nfn helper() {}\n',
  ],
  'cmd/main.go': [
    'package main\n\nfunc (s *Server) Start() error { return nil }\n\nfunc main() {}\n',
    'package main\n\n// Start starts.\nfunc (s *Server) Start() error {\n\treturn s.listen()\n}\n\nfunc main() { _ = 1 }\n',
  ],
  'lib/util.js': [
    'export const trim = (s) => s.trim();\nfunction pad(s) { return " " + s; }\n',
    'export const trim = (s) => s.trim();\nexport const upper = (s) => s.toUpperCase();\nfunction pad(s, n = 1) { return " ".repeat(n) + s; }\n',
  ],
};

function spans(units: Awaited<ReturnType<typeof extractUnits>>): string[] {
  return units.map((u) => `${u.kind} ${u.qualifiedName} ${u.startLine}-${u.endLine}`);
}

test('extractUnits re-parsing from a kept parse gives the units of a full parse, in every order and across grammars', async () => {
  let kept: KeptParse | undefined;
  const reparse: Reparse = {
    get previous() {
      return kept;
    },
    keep(parse) {
      kept?.tree.delete();
      kept = parse;
    },
  };
  let reparsed = 0;
  for (const [path, versions] of Object.entries(VERSIONS)) {
    // forward, backward and from the other language's last parse (a grammar switch is a full parse)
    for (const text of [...versions, ...[...versions].reverse(), ...versions]) {
      const full = spans(await extractUnits(path, text));
      const grammarBefore = kept?.grammar;
      const again = spans(await extractUnits(path, text, reparse));
      assert.deepEqual(again, full, `${path}: ${JSON.stringify(text.slice(0, 40))}`);
      if (kept && grammarBefore === kept.grammar) reparsed++;
    }
  }
  kept?.tree.delete();
  assert.ok(reparsed >= 20, `only ${reparsed} re-parses`);
});

test('KeptParses keeps one parse per path, re-parses from it, and deletes every tree on clear', async () => {
  const kept = new KeptParses();
  const [first, second] = VERSIONS['pkg/mod.py'];
  const a = spans(await extractUnits('pkg/mod.py', first, kept.for('pkg/mod.py')));
  assert.ok(kept.for('pkg/mod.py').previous, 'the parse is kept');
  assert.equal(kept.for('other.py').previous, undefined);
  const b = spans(await extractUnits('pkg/mod.py', second, kept.for('pkg/mod.py')));
  assert.deepEqual(b, spans(await extractUnits('pkg/mod.py', second)));
  assert.notDeepEqual(a, b);
  assert.equal(kept.for('pkg/mod.py').previous?.text, second);
  kept.clear();
  assert.equal(kept.for('pkg/mod.py').previous, undefined);
});
