// The same bytes under two grammars (`.ts` and `.tsx`; `.c` and `.h`) never share cached units:
// a commit's index is the same whether the blob cache saw the other path first or not.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';

const root = tempDir('issueloc-grammar-key-');
after(() => cleanup(root));

// parses differently as TypeScript (a type assertion) and as TSX (an element); C vs C++ for the header
const TS = 'function render(x) {\n  return <Widget>x;\n}\nclass View {\n  draw() { return 1; }\n}\n';
const C = 'namespace ui {\nint draw(int x) { return x; }\n}\nint paint(void) { return 0; }\n';

test('units of a blob at a .tsx or .h path are the same with and without the .ts or .c path cached first', async () => {
  const work = join(root, 'work');
  commitFiles(work, { 'src/view.ts': TS, 'src/draw.c': C }, 'ts and c first');
  const first = git(work, 'rev-parse', 'HEAD');
  commitFiles(work, { 'src/view.tsx': TS, 'include/draw.h': C }, 'the same bytes under the other grammar');
  const second = git(work, 'rev-parse', 'HEAD');
  const repo = await GitRepo.open(work);
  try {
    const unitsOf = (units: readonly { path: string; qualifiedName: string; kind: string; startLine: number; endLine: number }[], path: string) =>
      units.filter((u) => u.path === path).map((u) => `${u.kind} ${u.qualifiedName} ${u.startLine}-${u.endLine}`);
    const warm = join(root, 'warm');
    await indexCommit(repo, first, { cacheDir: warm });
    const afterFirst = (await indexCommit(repo, second, { cacheDir: warm })).codeIndex.units;
    const cold = (await indexCommit(repo, second, { cacheDir: join(root, 'cold') })).codeIndex.units;
    for (const path of ['src/view.tsx', 'include/draw.h']) {
      assert.ok(unitsOf(cold, path).length > 0, `${path} has units`);
      assert.deepEqual(unitsOf(afterFirst, path), unitsOf(cold, path), path);
    }
  } finally {
    await repo.close();
  }
});
