// A tiny Java project with a history of fixes and a dataset of issues about it, built in a temp
// folder by the tests (no fetched code, no network). Commit times differ, so the temporal split
// and the a-priori order are meaningful.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DatasetRecord } from '../../src/dataset/record.js';

function git(cwd: string, time: number, ...args: string[]): string {
  const date = `@${1700000000 + time} +0000`;
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'maintenance.auto=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_DIR: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

function commit(dir: string, time: number, files: Record<string, string>, message: string): string {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  git(dir, time, 'add', '-A');
  git(dir, time, 'commit', '-q', '-m', message);
  return git(dir, time, 'rev-parse', 'HEAD');
}

const COOKIE = `package http;
/** Parses the Cookie request header into name value pairs. */
public class Cookie {
  public static Cookie parseHeader(String header) { return quotedValue(header); }
  static Cookie quotedValue(String value) { return null; }
}
`;
const SESSION = `package http;
/** An HTTP session with an expiry timeout and attributes. */
public class Session {
  long timeout; long lastAccess;
  boolean expired(long now) { return now - lastAccess > timeout; }
}
`;
const COMPILER = `package jsp;
/** Compiles JSP pages: tag attributes, expressions, directives. */
public class Compiler {
  void compileTag(String tag, String attribute) {}
  void compileDirective(String directive) {}
}
`;
const STRINGS = `package util;
/** String helpers: join with a separator, split, trim. */
public class Strings {
  static String join(String separator, String... parts) { return String.join(separator, parts); }
}
`;
const COOKIE_TEST = `package http;
public class CookieTest { void testParse() { Cookie.parseHeader("a=1"); } }
`;

/** The fixture: a repository and the records of a dataset about it. */
export interface EvalFixture {
  dir: string;
  repo: string;
  commits: string[];
  records: DatasetRecord[];
  /** Writes records as JSONL under the fixture folder and returns the path. */
  writeDataset(name: string, records?: DatasetRecord[]): string;
  cleanup(): void;
}

function record(id: string, type: string, category: string, title: string, body: string, apriori: string, commits: string[], positives: string[]): DatasetRecord {
  return {
    issue: { id, title, body, bodyRaw: body, type, category: category as DatasetRecord['issue']['category'], created: null, resolved: null, labels: [] },
    commits, aprioriCommit: apriori, positives, positiveFunctions: [], candidates: 0, variant: 'first-commit', provenance: {},
  };
}

/** Builds the fixture (about 10 git commands). */
export function buildEvalFixture(): EvalFixture {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-eval-'));
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  git(repo, 1000, 'init', '-q');
  const a = commit(repo, 1000, {
    'src/http/Cookie.java': COOKIE, 'src/http/Session.java': SESSION, 'src/jsp/Compiler.java': COMPILER,
    'src/util/Strings.java': STRINGS, 'test/http/CookieTest.java': COOKIE_TEST, 'README.md': '# demo\ncookie session jsp\n',
  }, 'initial');
  const b = commit(repo, 2000, { 'src/http/Cookie.java': COOKIE.replace('return null', 'return new Cookie()') }, 'FIX-1 quoted cookie values');
  const c = commit(repo, 3000, { 'src/jsp/Compiler.java': COMPILER.replace('{}\n  void compileDirective', '{ attribute.trim(); }\n  void compileDirective') }, 'FIX-2 tag attributes');
  const d = commit(repo, 4000, { 'src/http/Session.java': SESSION.replace('>', '>=') }, 'FIX-3 session expiry');
  const e = commit(repo, 5000, { 'src/util/Strings.java': STRINGS.replace('join(', 'join (') }, 'FIX-4 join');
  const records = [
    record('FIX-1', 'Bug', 'Bug', 'Cookie header parsing fails', '<p>Parsing a <tt>Cookie</tt> header with a quoted value returns null.</p>', a, [b], ['src/http/Cookie.java']),
    record('FIX-2', 'Improvement', 'Improvement', 'JSP compiler and tag attributes', 'The JSP {{Compiler}} should trim a tag attribute.\n{code}compileTag(tag, attribute){code}', b, [c], ['src/jsp/Compiler.java']),
    record('FIX-3', 'Bug', 'Bug', 'Session expires too early', 'A session expired exactly at its timeout.', c, [d], ['src/http/Session.java']),
    record('FIX-4', 'New Feature', 'New Feature', 'String join with a separator', 'Add a separator to the strings join helper.', d, [e], ['src/util/Strings.java']),
    record('FIX-5', 'Bug', 'Bug', 'Missing commit', 'The commit is not in the repository.', 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef', [], ['src/http/Cookie.java']),
    record('FIX-6', 'Bug', 'Bug', 'Missing file', 'Names a file the state does not have.', a, [b], ['src/http/Missing.java']),
    record('FIX-7', 'Task', 'Task', 'Readme cookie wording', 'Only the readme changes.', a, [b], ['README.md']),
  ];
  const fixture: EvalFixture = {
    dir, repo, commits: [a, b, c, d, e], records,
    writeDataset(name, recs = records) {
      const p = join(dir, name);
      writeFileSync(p, recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
      return p;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}
