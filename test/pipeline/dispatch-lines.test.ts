// A function id that several units share shows the lines of the unit the ranking scored: sympy's
// multiple-dispatch registrations (`@f.register(T)` + `def _`) each show their own lines, not those
// of the longest `_`; an `@overload` stub scored best still shows its implementation's.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLocalizer } from '../../src/pipeline/localizer.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { OVERLOAD_SOURCE } from '../corpus/overload-source.js';

const DISPATCH = [
  'from functools import singledispatch',       // 1
  '',                                            // 2
  '@singledispatch',                             // 3
  'def convert(x):',                             // 4
  '    raise NotImplementedError(x)',            // 5
  '',                                            // 6
  '@convert.register(int)',                      // 7
  'def _(x):',                                   // 8
  '    total = 0',                               // 9
  '    for i in range(x):',                      // 10
  '        total += i * i',                      // 11
  '    if total > 100:',                         // 12
  '        total -= 100',                        // 13
  '    return total',                            // 14
  '',                                            // 15
  '@convert.register(str)',                      // 16
  'def _(x):',                                   // 17
  '    return roman_numeral_value(x)',           // 18
  '',                                            // 19
].join('\n');

const fx = fixtureRepo([{ id: 'A', message: 'initial import', files: { 'convert.py': DISPATCH, 'models.py': OVERLOAD_SOURCE } }]);
const dir = mkdtempSync(join(tmpdir(), 'issueloc-dispatch-lines-'));
after(() => {
  fx.remove();
  rmSync(dir, { recursive: true, force: true });
});

for (const model of ['none', 'default']) {
  test(`model ${model}: a registration \`def _\` shows its own lines; an @overload stub its implementation's`, async () => {
    const localizer = await openLocalizer({ repo: fx.dir, cacheDir: join(dir, 'cache'), model });
    try {
      const r = await localizer.localize('convert fails: roman_numeral_value of a str', { top: 5 });
      const fn = r.functions.find((f) => f.id === 'convert.py:_');
      assert.ok(fn, JSON.stringify(r.functions.map((f) => f.id)));
      assert.deepEqual([fn.startLine, fn.endLine], [16, 18], 'the str registration scored, not the longest `_`');
      const p = await localizer.localize('parse int x', { top: 5 });
      const parse = p.functions.find((f) => f.id === 'models.py:parse');
      assert.ok(parse, JSON.stringify(p.functions.map((f) => f.id)));
      assert.deepEqual([parse.startLine, parse.endLine], [14, 16], 'the implementation, not the stub');
    } finally {
      await localizer.close();
    }
  });
}
