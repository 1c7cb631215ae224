/**
 * The web home of a repository on a forge (GitHub, GitLab), read from its git remote, so a
 * ranked file or function can be linked to its lines there. Only the scheme-less host and the
 * project path are kept: user names, passwords and tokens in a remote URL never come out.
 */
import { runGit } from './git-process.js';

/** A repository's home on a forge: `https://github.com/owner/name`, `https://gitlab.com/group/sub/name`. */
export interface Forge {
  kind: 'github' | 'gitlab';
  /** `https://<host>/<project path>`, no `.git`, no credentials, no trailing `/`. */
  url: string;
}

/** One path segment of a project on a forge (owner, group, name). */
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * The forge of a remote URL in any of git's spellings (`https://[user[:token]@]host/path[.git]`,
 * `ssh://git@host[:port]/path.git`, `git@host:path.git`), or undefined when the host is not
 * github.com, gitlab.com or a host whose first label is `gitlab` (a self-hosted GitLab), or the
 * path is not owner/name (GitLab: groups/…/name).
 */
export function forgeOfRemoteUrl(remote: string): Forge | undefined {
  let host: string;
  let path: string;
  const scp = /^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):(?!\/)(.+)$/.exec(remote);
  if (scp) {
    [, host, path] = scp;
  } else {
    let u: URL;
    try {
      u = new URL(remote);
    } catch {
      return undefined;
    }
    if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:'].includes(u.protocol)) return undefined;
    host = u.hostname;
    path = decodeURIComponent(u.pathname);
  }
  host = host.toLowerCase();
  const kind = host === 'github.com' || host === 'www.github.com' ? 'github'
    : host === 'gitlab.com' || host.startsWith('gitlab.') ? 'gitlab' : undefined;
  if (!kind) return undefined;
  const parts = path.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '').split('/');
  if (parts.length < 2 || (kind === 'github' && parts.length !== 2) || !parts.every((p) => SEGMENT.test(p) && p !== '.' && p !== '..')) return undefined;
  return { kind, url: `https://${host === 'www.github.com' ? 'github.com' : host}/${parts.join('/')}` };
}

/**
 * The forge of the git repository at `path` (work tree or bare): its `origin` remote's URL, else
 * the first remote's that is on a forge; undefined when none is (or git fails).
 */
export async function readForge(path: string): Promise<Forge | undefined> {
  const res = await runGit(['-C', path, 'config', '--get-regexp', '^remote\\..*\\.url$'], { repo: path, maxBytes: 1 << 16 });
  if (res.code !== 0) return undefined;
  const remotes = res.stdout.toString('utf8').split('\n').filter(Boolean).map((line) => {
    const space = line.indexOf(' ');
    return { name: line.slice('remote.'.length, space - '.url'.length), url: line.slice(space + 1) };
  });
  remotes.sort((a, b) => Number(b.name === 'origin') - Number(a.name === 'origin'));
  for (const r of remotes) {
    const f = forgeOfRemoteUrl(r.url);
    if (f) return f;
  }
  return undefined;
}
