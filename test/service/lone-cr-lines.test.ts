// A lone CR is no line break (issue 31, F13): every place that gives line numbers — the units of
// the index, the MCP tools' ranges and previews, the web page's previews, the forge links, the
// embedder's unit text — counts a file's lines as git does (`git grep -n`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { decodeSource, sourceLines } from '../../src/corpus/decode.js';
import { extractUnits } from '../../src/corpus/extract.js';
import { lineRangesAt } from '../../src/forge/line-ranges.js';
import { GitRepo } from '../../src/repo/git.js';
import { ItemSpans } from '../../src/service/mcp/item-spans.js';
import { previewItems } from '../../src/service/web/preview.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';

const FILE = [
  '# saved by an old editor: a lone CR\rin this comment, a CRLF at its end\r',
  '',
  'def redeem(cart, card):',
  '    cart.total -= card.balance\r',
  '    return cart.total',
  '',
].join('\n');
const ID = 'gift.py:redeem';

let dir: string, repo: string, commit: string, gitLine: number;
before(() => {
  dir = tempDir('issueloc-lone-cr-');
  repo = join(dir, 'repo');
  commitFiles(repo, { 'gift.py': FILE });
  commit = git(repo, 'rev-parse', 'HEAD').trim();
  gitLine = Number(git(repo, 'grep', '-n', 'def redeem', 'HEAD', '--', 'gift.py').split(':')[2]);
});
after(() => cleanup(dir));

test('sourceLines and decodeSource: CRLF is one line end, a lone CR stays in its line', () => {
  assert.equal(gitLine, 3);
  const text = decodeSource(Buffer.from(FILE));
  assert.equal(sourceLines(text)[gitLine - 1], 'def redeem(cart, card):');
  assert.equal(sourceLines(text).length, FILE.split('\n').length);
});

test('index units, MCP ranges and previews, web previews and forge links all give git\'s line', async () => {
  const units = await extractUnits('gift.py', decodeSource(Buffer.from(FILE)));
  assert.deepEqual(units.filter((u) => u.id === ID).map((u) => [u.startLine, u.endLine]), [[gitLine, gitLine + 2]], 'index units');

  const spans = new ItemSpans(repo);
  try {
    assert.deepEqual(await spans.rangeOf(commit, ID), { start: gitLine, end: gitLine + 2 }, 'MCP localize');
    const preview = await spans.previewOf(commit, ID);
    assert.equal(preview?.lines[0], `${gitLine}: def redeem(cart, card):`, 'MCP explain_item');
  } finally {
    await spans.close();
  }

  const g = await GitRepo.open(repo);
  try {
    const [p] = await previewItems(g, commit, [{ id: ID, lines: true }]);
    assert.equal(p.startLine, gitLine, 'web preview');
    assert.equal(p.lines?.[0], 'def redeem(cart, card):');
  } finally {
    await g.close();
  }

  assert.deepEqual((await lineRangesAt(repo, commit, [ID])).get(ID), { path: 'gift.py', start: gitLine, end: gitLine + 2 }, 'forge links');
});
