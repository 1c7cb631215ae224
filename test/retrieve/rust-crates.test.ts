// A Rust crate's name (`grep_searcher::Searcher`, from its Cargo.toml) names the crate's files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { crateNameOf } from '../../src/corpus/cargo.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { SignalResolver } from '../../src/retrieve/signals.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';

test('crateNameOf: [lib] name, else [package] name, - read as _; a virtual workspace has none', () => {
  assert.equal(crateNameOf('[package]\nname = "grep-searcher"  # the crate\nversion = "0.1"\n'), 'grep_searcher');
  assert.equal(crateNameOf("[package]\nname = 'serde_json'\n"), 'serde_json');
  assert.equal(crateNameOf('[package]\nname = "ripgrep"\n\n[lib]\nname = "rg_lib"\n[[bin]]\nname = "rg"\n'), 'rg_lib');
  assert.equal(crateNameOf('[workspace]\nmembers = ["crates/*"]\n[dependencies]\nname = "x"\n'), undefined);
  assert.equal(crateNameOf('[package]\nname = "not a name"\n'), undefined);
});

test('a workspace of two crates: crate names from Cargo.toml resolve to the files of their folders', async () => {
  const root = tempDir();
  try {
    const commit = commitFiles(join(root, 'repo'), {
      'Cargo.toml': '[workspace]\nmembers = ["crates/searcher", "crates/regex"]\n',
      'crates/searcher/Cargo.toml': '[package]\nname = "grep-searcher"\nversion = "0.1.0"\n',
      'crates/searcher/src/lib.rs': 'mod searcher;\npub use crate::searcher::Searcher;\n',
      'crates/searcher/src/searcher.rs': 'pub struct Searcher;\n\nimpl Searcher {\n    pub fn new() -> Searcher {\n        Searcher\n    }\n}\n',
      'crates/regex/Cargo.toml': '[package]\nname = "grep-regex"\nversion = "0.1.0"\n',
      'crates/regex/src/lib.rs': 'pub mod literal;\n',
      'crates/regex/src/literal.rs': 'pub struct LiteralSets;\n\nimpl LiteralSets {\n    pub fn new() -> LiteralSets {\n        LiteralSets\n    }\n}\n',
    });
    const repo = await GitRepo.open(join(root, 'repo'));
    try {
      const cacheDir = join(root, 'cache');
      await indexCommit(repo, commit, { cacheDir });
      const { codeIndex, built } = await indexCommit(repo, commit, { cacheDir });
      assert.equal(built, false, 'the crates are read back from the saved index');
      assert.deepEqual(codeIndex.crates, [{ folder: 'crates/regex', name: 'grep_regex' }, { folder: 'crates/searcher', name: 'grep_searcher' }]);
      const resolver = new SignalResolver(codeIndex);
      const files = (name: string) => {
        const { files: found, rest } = resolver.resolveScoped(name.split('::'));
        return { files: found.map((f) => codeIndex.filePaths[f]), rest };
      };
      assert.deepEqual(files('grep_searcher::Searcher'), { files: ['crates/searcher/src/searcher.rs'], rest: 'Searcher' });
      assert.deepEqual(files('grep_searcher::Searcher::new'), { files: ['crates/searcher/src/searcher.rs'], rest: 'Searcher.new' });
      assert.deepEqual(files('grep_regex::literal::LiteralSets'), { files: ['crates/regex/src/literal.rs'], rest: 'LiteralSets' });
      assert.deepEqual(files('grep_regex'), { files: ['crates/regex/src/lib.rs'], rest: '' });
      assert.deepEqual(files('searcher::Searcher').files, ['crates/searcher/src/lib.rs', 'crates/searcher/src/searcher.rs'], 'folder names resolve as before');
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(root);
  }
});
