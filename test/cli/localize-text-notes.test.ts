// What the text tables of `localize` say beyond the ranking: an item that matched no issue term
// names the signal that placed it (not an empty cell), and the learned model's scores are said to
// be only an order (they can be negative), as the web page says.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { MODEL_SCORES_NOTE, termsCell } from '../../src/cli/localize.js';
import { runInProcess } from './in-process.js';

const scratch = tempDir('issueloc-text-notes-');
after(() => cleanup(scratch));

test('an item without matched terms names its signals and --explain; with --explain its row below says why', () => {
  const placed = { id: 'src/partner.py', score: 0.3, signals: ['coChange'], evidence: ['changed with src/a.py in 2 of its 3 recent commits'] };
  assert.equal(termsCell(placed, false), '(no term; raised by coChange: --explain says why)');
  assert.equal(termsCell(placed, true), '');
  assert.equal(termsCell({ id: 'src/a.py', score: 1, matchedTerms: ['parse', 'header'], signals: ['namedFunction'] }, false), 'parse header');
  assert.equal(termsCell({ id: 'src/b.py', score: 1 }, false), '');
});

test('the text output says what the model\'s scores mean when the model ranked, and not with --model none', async () => {
  const repo = fixtureRepo([{
    id: 'A', message: 'init', files: {
      'pkg/parser.py': 'def parse_header(line):\n    return line.split(":")\n',
      'pkg/render.py': 'def render_page(template):\n    return template.format()\n',
    },
  }]);
  try {
    const cache = mkdtempSync(join(scratch, 'cache-'));
    const args = ['localize', '--repo', repo.dir, '--cache-dir', cache, '--no-progress', '--issue', 'parse_header splits the header line wrong'];
    const model = await runInProcess(args);
    assert.equal(model.code, 0, model.err);
    assert.ok(model.out.endsWith(`\n${MODEL_SCORES_NOTE}\n`), model.out);
    const lexical = await runInProcess([...args, '--model', 'none']);
    assert.equal(lexical.code, 0, lexical.err);
    assert.ok(!lexical.out.includes(MODEL_SCORES_NOTE), lexical.out);
    assert.match(lexical.out, /pkg\/parser\.py/);
  } finally {
    repo.remove();
  }
});
