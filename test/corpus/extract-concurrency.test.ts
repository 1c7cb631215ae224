import assert from 'node:assert/strict';
import test from 'node:test';
import { extractUnits } from '../../src/corpus/extract.js';

/** A Python module of `n` functions and a class, big enough that its parse takes a while. */
function pythonModule(k: number, n: number): string {
  const lines = [`"""Module ${k}."""`, 'import os', ''];
  for (let i = 0; i < n; i++) lines.push('', `def f${k}_${i}(a, b=None):`, `    """Doc ${i}."""`, `    if a:`, `        return os.path.join(a, str(b))`, `    return [x for x in range(${i})]`);
  lines.push('', '', `class C${k}:`, '    def method(self):', '        return 1', '');
  return lines.join('\n');
}

const OTHERS: Record<string, string> = {
  'lib/a.js': 'export function alpha(x) { return x + 1; }\nconst beta = () => 2;\nclass Gamma { run() { return 3; } }\n',
  'src/b.c': '#include <stdio.h>\nint add(int a, int b) { return a + b; }\nstatic void log_it(const char *m) { puts(m); }\n',
  'src/c.rs': 'pub struct S;\nimpl S {\n    pub fn run(&self) -> u8 { 1 }\n}\nfn helper() {}\n',
  'cmd/d.go': 'package main\n\nfunc (s *Server) Start() error { return nil }\n\nfunc main() {}\n',
  'src/e.cpp': 'namespace ns {\nclass Widget {\n public:\n  void draw();\n};\nvoid Widget::draw() {}\n}\n',
  'src/F.java': 'package p;\npublic class F {\n  public int get() { return 1; }\n  static class Inner { void x() {} }\n}\n',
  'src/g.ts': 'export const h = (s: string): string => s.trim();\nexport class G { m(): number { return 1; } }\n',
};

const key = (units: Awaited<ReturnType<typeof extractUnits>>): string[] => units.map((u) => `${u.kind} ${u.qualifiedName} ${u.startLine}-${u.endLine}`);

test('files of several languages extracted at once, while their grammars load, give the units of one-at-a-time extraction', async () => {
  // this process has loaded no grammar yet: every first use below loads one while others parse
  const files: [string, string][] = [];
  for (let k = 0; k < 12; k++) {
    files.push([`pkg/m${k}.py`, pythonModule(k, 150)]);
    const [path, text] = Object.entries(OTHERS)[k % Object.keys(OTHERS).length];
    files.push([path.replace('.', `${k}.`), text]);
  }
  const together = await Promise.all(files.map(([path, text]) => extractUnits(path, text).then(key)));
  for (let k = 0; k < files.length; k++) {
    const [path, text] = files[k];
    assert.deepEqual(together[k], key(await extractUnits(path, text)), path);
  }
  assert.equal(together[0].length, 1 + 150 + 2, 'pkg/m0.py: the file unit, 150 functions, the class and its method');
});
