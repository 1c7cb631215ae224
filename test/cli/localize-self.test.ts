// Real input: `issueloc localize` on a git repository of this project's own sources (src/, copied
// into a repository the test builds, so a checkout that is no git repository passes too), for an
// issue written about code that lives in one file.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, git, tempDir } from '../repo/git-fixture.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');
const work = tempDir('issueloc-self-');
after(() => cleanup(work));
const repo = join(work, 'repo');
cpSync(join(root, 'src'), join(repo, 'src'), { recursive: true });
git(repo, 'init', '-q');
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'issueloc sources');

// one cache for the file: the first run indexes the sources, the others read that index
const cacheDir = join(work, 'cache');

function localize(issue: string, extra: string[] = []) {
  const out = execFileSync(process.execPath, [...BASELINE_WASM_ARGS, bin, 'localize', '--repo', repo, '--issue', issue, '--json', '--no-progress', '--cache-dir', cacheDir, ...extra], { encoding: 'utf8' });
  return JSON.parse(out);
}

test('localize finds the BM25F scorer for an issue about field saturation', () => {
  const r = localize(
    'BM25F scoring is wrong: the term frequencies of the fields must be combined before ' +
    'saturation with k1, and the BM25+ lower bound delta should be added for each matched term. ' +
    'The idf of a term also looks off for very common terms.',
  );
  const files: string[] = r.files.map((f: { id: string }) => f.id);
  assert.ok(files.slice(0, 5).includes('src/retrieve/bm25f.ts'), `top 5 files: ${files.slice(0, 5).join(', ')}`);
  assert.ok(r.functions.length > 0);
  assert.match(r.commit, /^[0-9a-f]{40}$/);
});

test('localize finds the atomic writer for an issue about half-written files', () => {
  const r = localize(
    'When the disk fills up while writing, a half-written temporary file is left behind next ' +
    'to the target. writeFileAtomic should remove the temp file and never rename a partial one.',
    ['--level', 'file'],
  );
  const files: string[] = r.files.map((f: { id: string }) => f.id);
  assert.ok(files.slice(0, 5).includes('src/util/atomic-write.ts'), `top 5 files: ${files.slice(0, 5).join(', ')}`);
  assert.equal(r.functions, undefined, '--level file shows files only');
});
