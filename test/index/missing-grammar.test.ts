// A build whose grammars cannot be loaded (a copy of dist/ without action/bundle/grammars) is
// refused, and leaves no blob entry that a later build with its grammars would read: the units of
// a commit never depend on which build filled the cache folder.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';

const root = tempDir('issueloc-missing-grammar-');
after(() => cleanup(root));

/** The checkout's root (dist/test/index/ → ../../..). */
const checkout = fileURLToPath(new URL('../../../', import.meta.url));

const PY = 'def parse(text):\n    return text.split()\n\n\nclass Reader:\n    def read(self, path):\n        return open(path).read()\n';

test('a build without its grammars is refused and caches no file-only units for a later build', async () => {
  const work = join(root, 'work');
  commitFiles(work, { 'pkg/reader.py': PY }, 'a module of functions');
  const commit = git(work, 'rev-parse', 'HEAD');
  const cacheDir = join(root, 'cache');

  // a copy of the compiled modules beside no action/bundle/grammars (the packages linked)
  const copy = join(root, 'copy');
  cpSync(join(checkout, 'dist', 'src'), join(copy, 'dist', 'src'), { recursive: true });
  cpSync(join(checkout, 'package.json'), join(copy, 'package.json'));
  symlinkSync(join(checkout, 'node_modules'), join(copy, 'node_modules'));
  const script = join(copy, 'build.mjs');
  writeFileSync(script, [
    "import { GitRepo } from './dist/src/repo/git.js';",
    "import { indexCommit } from './dist/src/index/index-commit.js';",
    'const [work, commit, cacheDir] = process.argv.slice(2);',
    'const repo = await GitRepo.open(work);',
    'try {',
    '  const { codeIndex } = await indexCommit(repo, commit, { cacheDir });',
    "  process.stdout.write(JSON.stringify({ units: codeIndex.units.filter((u) => u.kind !== 'file').length }));",
    '} catch (e) {',
    '  process.stdout.write(JSON.stringify({ error: e.name, exitCode: e.exitCode, message: e.message }));',
    '} finally {',
    '  await repo.close();',
    '}',
  ].join('\n'));
  const out = JSON.parse(execFileSync(process.execPath, [script, work, commit, cacheDir], { encoding: 'utf8' })) as Record<string, unknown>;
  assert.equal(out.error, 'IssuelocError', `the build without grammars is refused, not indexed without functions: ${JSON.stringify(out)}`);
  assert.equal(out.exitCode, 2);
  assert.match(String(out.message), /^grammar tree-sitter-python\.wasm cannot be loaded \(.*\): it belongs beside the build, in action\/bundle\/grammars$/);
  assert.ok(!existsSync(join(cacheDir, 'index')) || readdirSync(join(cacheDir, 'index')).every((f) => !f.endsWith('.bin')), 'no index saved');

  // the same cache folder, now with the checkout's build: the functions are there
  const repo = await GitRepo.open(work);
  try {
    const { codeIndex } = await indexCommit(repo, commit, { cacheDir });
    assert.deepEqual(codeIndex.units.filter((u) => u.kind !== 'file').map((u) => u.qualifiedName).sort(), ['Reader.read', 'parse']);
  } finally {
    await repo.close();
  }
});
