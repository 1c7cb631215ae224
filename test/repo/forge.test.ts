import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forgeOfRemoteUrl, readForge } from '../../src/repo/forge.js';
import { cleanup, commitFiles, git, tempDir } from './git-fixture.js';

test('a remote URL in each of git\'s spellings gives the forge\'s web home, never its credentials', () => {
  const gh = { kind: 'github', url: 'https://github.com/psf/requests' };
  for (const u of ['https://github.com/psf/requests.git', 'https://github.com/psf/requests', 'https://user:ghp_secret@github.com/psf/requests.git',
    'git@github.com:psf/requests.git', 'ssh://git@github.com/psf/requests.git', 'ssh://git@github.com:22/psf/requests', 'https://github.com/psf/requests/']) {
    assert.deepEqual(forgeOfRemoteUrl(u), gh, u);
  }
  assert.deepEqual(forgeOfRemoteUrl('git@gitlab.com:group/sub/project.git'), { kind: 'gitlab', url: 'https://gitlab.com/group/sub/project' });
  assert.deepEqual(forgeOfRemoteUrl('https://oauth2:tok@gitlab.example.org/a/b.git'), { kind: 'gitlab', url: 'https://gitlab.example.org/a/b' });
  assert.equal(forgeOfRemoteUrl('https://git.example.org/a/b.git'), undefined, 'a host not named gitlab.*');
  assert.deepEqual(forgeOfRemoteUrl('https://gitlab.acme.io:8443/team/app'), { kind: 'gitlab', url: 'https://gitlab.acme.io/team/app' });
  for (const u of ['/srv/git/x.git', 'file:///srv/x.git', 'https://bitbucket.org/a/b.git', 'https://github.com/only-owner', 'https://github.com/a/b/c',
    'https://github.com/a/%2e%2e', 'https://github.com/a/b"onclick=x', 'javascript:alert(1)', '']) {
    assert.equal(forgeOfRemoteUrl(u), undefined, u);
  }
});

test('a repository\'s forge comes from origin first, else another remote on a forge; none without one', async () => {
  const dir = tempDir('issueloc-forge-');
  try {
    commitFiles(dir, { 'a.py': 'x = 1\n' });
    assert.equal(await readForge(dir), undefined);
    git(dir, 'remote', 'add', 'mirror', 'git@gitlab.com:team/app.git');
    assert.deepEqual(await readForge(dir), { kind: 'gitlab', url: 'https://gitlab.com/team/app' });
    git(dir, 'remote', 'add', 'origin', 'https://github.com/team/app.git');
    assert.deepEqual(await readForge(dir), { kind: 'github', url: 'https://github.com/team/app' });
    assert.equal(await readForge(`${dir}/no-such-folder`), undefined);
  } finally {
    cleanup(dir);
  }
});
