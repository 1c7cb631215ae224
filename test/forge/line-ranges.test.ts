// The lines the issue comment links for a module or function: an id that several units share
// (Python `@overload` stubs before the implementation) links the implementation, the unit of most
// lines, as the ranking's own lines do (src/retrieve/item-lines.ts), not the first stub.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { lineRangesAt, lineRangesOf } from '../../src/forge/line-ranges.js';
import { extractUnits } from '../../src/corpus/extract.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { OVERLOAD_SOURCE as SOURCE } from '../corpus/overload-source.js';

const fx = fixtureRepo([{ id: 'A', message: 'initial import', files: { 'models.py': SOURCE } }]);
after(() => fx.remove());

test('an id shared by @overload stubs links the implementation\'s lines', async () => {
  const ranges = await lineRangesAt(fx.dir, fx.sha('A'), ['models.py:Response.iter_content', 'models.py:parse', 'models.py:Response']);
  assert.deepEqual(ranges.get('models.py:Response.iter_content'), { path: 'models.py', start: 8, end: 10 });
  assert.deepEqual(ranges.get('models.py:parse'), { path: 'models.py', start: 14, end: 16 });
  assert.deepEqual(ranges.get('models.py:Response'), { path: 'models.py', start: 3, end: 10 }, 'a class links its own lines');
});

test('lineRangesOf: the unit of most lines of each id, the first of them on ties', async () => {
  const units = await extractUnits('models.py', SOURCE);
  assert.deepEqual(lineRangesOf(units).get('models.py:Response.iter_content'), { path: 'models.py', start: 8, end: 10 });
});
