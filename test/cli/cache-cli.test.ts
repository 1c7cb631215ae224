// Issue 12 items 5, 6, 9, 12 and 15 through the executable: where the default cache lives, corrupt
// entries rebuilt with a warning, the build lock (read-only cache, dead and live holders), the
// size cap and `issueloc cache show|prune`. Runs whose process is not what is under test (no
// timing, other user, lock holder or temporary directory of its own) run in-process (runIn).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';
import { loadBound } from '../util/load-bound.js';
import { runInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');

/** The environment of a run: no cache variables of the developer's, plus `extra`. */
function envWith(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const k of ['ISSUELOC_CACHE_DIR', 'ISSUELOC_CACHE_MAX_SIZE', 'ISSUELOC_LOCK_WAIT']) if (!(k in extra)) delete env[k];
  return env;
}

function run(args: string[], env: Record<string, string> = {}, opts: SpawnSyncOptions = {}) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8', timeout: 60_000, env: envWith(env), ...opts });
  return { code: r.status, out: String(r.stdout), err: String(r.stderr), seconds: (Date.now() - t0) / 1000 };
}

/**
 * {@link run} in-process ({@link runInProcess}: the CLI's main in the file's worker thread), for runs
 * whose process is not under test: the same environment rules, the current folder the test's.
 */
async function runIn(args: string[], env: Record<string, string> = {}) {
  const unset = Object.fromEntries(['ISSUELOC_CACHE_DIR', 'ISSUELOC_CACHE_MAX_SIZE', 'ISSUELOC_LOCK_WAIT'].filter((k) => !(k in env)).map((k) => [k, undefined]));
  return runInProcess(args, { ...unset, ...env });
}

function fixture(extra: Record<string, string | { symlink: string }> = {}) {
  const dir = tempDir('issueloc-cache-cli-');
  const work = join(dir, 'repo');
  const first = commitFiles(work, {
    'a.py': 'class Parser:\n    def parse_header(self, text):\n        return text.split(":")\n',
    'b.py': 'def render_table(rows):\n    return "\\n".join(rows)\n',
    ...extra,
  });
  const second = commitFiles(work, { 'c.py': 'def tokenize_words(text):\n    return text.split()\n' }, 'two');
  return { dir, work, first, second, cache: join(dir, 'cache') };
}

const filesUnder = (dir: string) => existsSync(dir)
  ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name))
  : [];
const indexFiles = (cache: string) => filesUnder(join(cache, 'index')).filter((f) => f.endsWith('.bin'));

test('the default cache is outside the work tree: a committed .issueloc symlink or folder is neither followed nor read', async () => {
  const outside = tempDir('issueloc-elsewhere-');
  const fx = fixture({ '.issueloc': { symlink: outside } });
  const fy = fixture({ '.issueloc/index': 'not a folder\n', '.issueloc/.gitignore': '' });
  try {
    const xdg = join(fx.dir, 'xdg');
    for (const work of [fx.work, fy.work]) {
      const r = await runIn(['localize', '--repo', work, '--issue', 'parse_header splits on colons', '--json'], { XDG_CACHE_HOME: xdg });
      assert.equal(r.code, 0, r.err);
      assert.equal(JSON.parse(r.out).files[0].id, 'a.py');
      assert.equal(git(work, 'status', '--porcelain'), '', 'nothing written into the work tree');
    }
    assert.deepEqual(readdirSync(outside), [], 'nothing written through the symlink');
    const caches = readdirSync(join(xdg, 'issueloc'));
    assert.equal(caches.length, 2, caches.join(' '));
    assert.ok(caches.every((c) => /^repo-[0-9a-f]{12}$/.test(c)), caches.join(' '));
    // an empty --cache-dir is bad input, not the current folder (here: the work tree); an empty variable is unset
    for (const args of [['localize', '--issue', 'parse_header'], ['index']]) {
      const empty = run([...args, '--repo', fx.work, '--cache-dir', ''], { XDG_CACHE_HOME: xdg }, { cwd: fx.work });
      assert.equal(empty.code, 2, `${args[0]}: ${empty.err}`);
      assert.equal(empty.err, "issueloc: --cache-dir takes a folder, got ''\n");
      assert.equal(git(fx.work, 'status', '--porcelain'), '', `${args[0]} --cache-dir '': nothing written into the work tree`);
    }
    const unset = run(['index', '--repo', fx.work, '--json'], { XDG_CACHE_HOME: xdg, ISSUELOC_CACHE_DIR: '' }, { cwd: fx.work });
    assert.equal(unset.code, 0, unset.err);
    assert.ok(JSON.parse(unset.out).cacheDir.startsWith(join(xdg, 'issueloc')), unset.out);
    // ISSUELOC_CACHE_DIR and --cache-dir still decide
    const env = await runIn(['index', '--repo', fx.work, '--json'], { XDG_CACHE_HOME: xdg, ISSUELOC_CACHE_DIR: join(fx.dir, 'env-cache') });
    assert.equal(JSON.parse(env.out).cacheDir, join(fx.dir, 'env-cache'));
    // an unusable user cache root: a warning and a private folder in the temporary directory
    writeFileSync(join(fx.dir, 'plain'), '');
    // (the temporary directory of the run is the fixture's: removed with it)
    const tmp = run(['index', '--repo', fx.work, '--json'], { XDG_CACHE_HOME: join(fx.dir, 'plain'), TMPDIR: fx.dir });
    assert.equal(tmp.code, 0, tmp.err);
    assert.match(tmp.err, /^issueloc: warning: cache folder .*plain\/issueloc: .*; using .*issueloc-\d+\/repo-[0-9a-f]{12} instead/);
    assert.equal(dirname(JSON.parse(tmp.out).cacheDir), join(fx.dir, `issueloc-${process.getuid?.() ?? 'user'}`));
    assert.equal(statSync(dirname(JSON.parse(tmp.out).cacheDir)).mode & 0o077, 0);
  } finally {
    cleanup(fx.dir);
    cleanup(fy.dir);
    cleanup(outside);
  }
});

test('corrupt blob entries: localize warns, re-parses and ranks (was: fileUnits.find is not a function); index --force re-parses', async () => {
  const fx = fixture();
  try {
    const built = await runIn(['index', '--repo', fx.work, '--cache-dir', fx.cache, '--json']);
    assert.equal(built.code, 0, built.err);
    const documents = JSON.parse(built.out).documents;
    const blobs = filesUnder(fx.cache).filter((f) => f.includes('/blobs-'));
    assert.ok(blobs.length >= 3);
    // `[]` hides a file, `{}` crashed every run
    for (const f of blobs) writeFileSync(f, '[]');
    const forced = await runIn(['index', '--repo', fx.work, '--cache-dir', fx.cache, '--force', '--json']);
    assert.equal(forced.code, 0, forced.err);
    assert.equal(JSON.parse(forced.out).documents, documents, '--force does not reuse the edited entries');
    for (const f of blobs) writeFileSync(f, '{}');
    for (const f of indexFiles(fx.cache)) writeFileSync(f, 'x');
    const r = await runIn(['localize', '--repo', fx.work, '--cache-dir', fx.cache, '--issue', 'parse_header splits on colons', '--json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).files[0].id, 'a.py');
    assert.match(r.err, /^issueloc: warning: corrupt cache file .*index.*\.bin: rebuilt$/m);
    assert.match(r.err, /^issueloc: warning: corrupt cache file .*blobs-.*\.bin: rebuilt$/m);
    const again = await runIn(['localize', '--repo', fx.work, '--cache-dir', fx.cache, '--issue', 'parse_header splits on colons', '--json']);
    assert.equal(again.err, '', 'rebuilt once: no warning the next time');
    assert.equal(JSON.parse(again.out).index.built, false);
  } finally {
    cleanup(fx.dir);
  }
});

test('build lock: a holder killed with -9 is taken over at once; a live one is named on stderr and waited for a bounded time', async () => {
  const fx = fixture();
  try {
    mkdirSync(fx.cache);
    const lock = (pid: number) => {
      mkdirSync(join(fx.cache, 'index.lock'), { recursive: true });
      writeFileSync(join(fx.cache, 'index.owner'), JSON.stringify({ pid, host: hostname(), what: 'the index of 0123456789ab', token: `t${pid}` }));
    };
    // the same build without a lock, timed now: taking the lock over may cost it plus 20 s of a
    // loaded machine, not the 30 s of a stale-lock timeout
    const free = run(['index', '--repo', fx.work, '--cache-dir', join(fx.dir, 'cache-free'), '--json']);
    assert.equal(free.code, 0, free.err);
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    lock(dead);
    const taken = run(['index', '--repo', fx.work, '--cache-dir', fx.cache, '--json']);
    assert.equal(taken.code, 0, taken.err);
    assert.ok(taken.seconds < free.seconds + 20, `took ${taken.seconds} s, ${free.seconds} s without a lock (a stale-lock timeout is 30 s)`);
    assert.equal(existsSync(join(fx.cache, 'index.lock')), false, 'released');
    lock(process.pid);
    const waited = run(['index', '--repo', fx.work, '--rev', fx.first, '--cache-dir', fx.cache], { ISSUELOC_LOCK_WAIT: '2' });
    assert.equal(waited.code, 2, waited.err + waited.out);
    assert.ok(waited.seconds * 1000 < loadBound(2000, taken.seconds * 1000), `took ${waited.seconds} s`);
    assert.match(waited.err, new RegExp(`^issueloc: waiting for another issueloc process building the index of 0123456789ab \\(pid ${process.pid}\\)…\n`));
    assert.match(waited.err, /issueloc: gave up after 2 s waiting for another issueloc process building the index of 0123456789ab .*ISSUELOC_LOCK_WAIT/);
    assert.equal(waited.err.trim().split('\n').length, 2);
    const bad = await runIn(['index', '--repo', fx.work, '--cache-dir', fx.cache], { ISSUELOC_LOCK_WAIT: 'soon' });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^issueloc: ISSUELOC_LOCK_WAIT takes seconds/);
  } finally {
    cleanup(fx.dir);
  }
});

test('build lock: an index build killed with -9 while holding the lock costs the next run no wait', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1000; i++) files[`pkg/m${i}.py`] = `def handler_${i}(request):\n    return request.get("${i}")\n`;
  const fx = fixture(files);
  try {
    const child = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, 'index', '--repo', fx.work, '--cache-dir', fx.cache], { env: envWith(), stdio: 'ignore' });
    const exited = new Promise((res) => child.on('exit', res));
    const until = async (done: () => boolean, ms: number) => {
      const t0 = Date.now();
      while (!done() && Date.now() - t0 < ms) await new Promise((res) => setTimeout(res, 5));
    };
    await until(() => existsSync(join(fx.cache, 'index.lock')), 30_000);
    // the owner file follows the lock: killed between the two, the next run would wait out the
    // 30 s stale time of an ownerless lock (a loaded machine can take more than a moment there)
    await until(() => existsSync(join(fx.cache, 'index.owner')), 30_000);
    assert.ok(existsSync(join(fx.cache, 'index.lock')), 'the build took the lock');
    assert.ok(existsSync(join(fx.cache, 'index.owner')), 'and wrote whose it is');
    child.kill('SIGKILL');
    await exited;
    assert.ok(existsSync(join(fx.cache, 'index.lock')), 'killed while holding it');
    const r = run(['index', '--repo', fx.work, '--cache-dir', fx.cache, '--json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).built, true);
    // the same build without a lock, timed now: the killed holder may cost 20 s of a loaded
    // machine more, not the 30 s of a stale-lock timeout
    const free = run(['index', '--repo', fx.work, '--cache-dir', join(fx.dir, 'cache-free'), '--json']);
    assert.equal(free.code, 0, free.err);
    assert.ok(r.seconds < free.seconds + 20, `took ${r.seconds} s, ${free.seconds} s without a lock (a stale-lock timeout is 30 s)`);
  } finally {
    cleanup(fx.dir);
  }
});

test('a read-only cache: its indexes load; localize answers another commit from memory (one warning, exit 0); index fails at once naming the folder (exit 2)', () => {
  const fx = fixture();
  try {
    assert.equal(run(['index', '--repo', fx.work, '--cache-dir', fx.cache]).code, 0);
    const asRoot = process.getuid?.() === 0;
    // root passes permission checks: run as nobody then; otherwise take the write bits away
    const opts: SpawnSyncOptions = asRoot ? { uid: 65534, gid: 65534 } : {};
    const env: Record<string, string> = asRoot ? { HOME: fx.dir, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' } : {};
    if (asRoot) for (const d of [fx.dir, ...filesUnder(fx.work).map(dirname), fx.work]) chmodSync(d, 0o755);
    for (const d of [fx.cache, join(fx.cache, 'index')]) chmodSync(d, asRoot ? 0o755 : 0o555);
    try {
      const loaded = run(['localize', '--repo', fx.work, '--cache-dir', fx.cache, '--issue', 'render_table rows', '--json'], env, opts);
      assert.equal(loaded.code, 0, loaded.err);
      const answered = run(['localize', '--repo', fx.work, '--rev', fx.first, '--cache-dir', fx.cache, '--issue', 'render_table rows', '--no-progress'], env, opts);
      assert.equal(answered.code, 0, answered.err);
      assert.match(answered.err, new RegExp(`^issueloc: warning: cache folder ${fx.cache} cannot take the index of ${fx.first.slice(0, 12)} \\(EACCES\\): answered from memory, not saved \\(built again next time\\)\n$`));
      const r = run(['index', '--repo', fx.work, '--rev', fx.first, '--cache-dir', fx.cache], env, opts);
      assert.equal(r.code, 2, r.err);
      assert.ok(r.seconds * 1000 < loadBound(0, loaded.seconds * 1000), `took ${r.seconds} s, loading ${loaded.seconds} s`);
      assert.match(r.err, new RegExp(`^issueloc: cache folder ${fx.cache} is not writable \\(EACCES\\): cannot build the index of ${fx.first.slice(0, 12)} there; .*\n$`));
    } finally {
      for (const d of [fx.cache, join(fx.cache, 'index')]) chmodSync(d, 0o755);
    }
  } finally {
    cleanup(fx.dir);
  }
});

test('size cap: a build evicts the least recently used index; cache show and prune', async () => {
  const fx = fixture();
  try {
    const index = async (rev: string, extra: string[] = [], env: Record<string, string> = {}) => {
      const r = await runIn(['index', '--repo', fx.work, '--rev', rev, '--cache-dir', fx.cache, '--json', ...extra], env);
      assert.equal(r.code, 0, r.err);
      return JSON.parse(r.out) as { built: boolean };
    };
    await index(fx.first);
    const firstFiles = indexFiles(fx.cache);
    assert.equal(firstFiles.length, 4, firstFiles.join(" ")); // functions, files, the generated files list, the name table
    await index(fx.second);
    const old = new Date(Date.now() - 86_400_000);
    for (const f of firstFiles) utimesSync(f, old, old);
    const total = JSON.parse((await runIn(['cache', 'show', '--cache-dir', fx.cache, '--json'])).out).bytes as number;
    // one byte under what the cache holds: the least recently used entry goes, the rest stays
    await index(fx.second, ['--force', '--cache-max-size', String(total - 1)]);
    const left = indexFiles(fx.cache);
    assert.equal(left.length, 4, left.join(" "));
    assert.ok(firstFiles.every((f) => !left.includes(f)), 'the first commit\'s index was evicted');
    assert.equal((await index(fx.second)).built, false, 'the one just built stays');
    assert.equal((await index(fx.first, [], { ISSUELOC_CACHE_MAX_SIZE: '1M' })).built, true);
    const bad = await runIn(['index', '--repo', fx.work, '--cache-dir', fx.cache, '--cache-max-size', 'lots']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^issueloc: --cache-max-size takes a size such as 500M or 2G, got 'lots'\n$/);

    // cache show
    const shown = await runIn(['cache', 'show', '--cache-dir', fx.cache, '--json']);
    assert.equal(shown.code, 0, shown.err);
    const kinds = Object.fromEntries((JSON.parse(shown.out).kinds as { kind: string; entries: number; bytes: number }[]).map((k) => [k.kind, k]));
    assert.equal(kinds.index.entries, 2);
    assert.equal(kinds.blobs.entries, 3);
    assert.match((await runIn(['cache', 'show', '--cache-dir', fx.cache])).out, /index\s*│\s*2\s*│\s*[\d.]+ KiB\s*│\s*\d{4}-\d\d-\d\d \d\d:\d\d/);
    // cache prune: unknown files, files being written and the lock stay; leftovers of a killed write go
    writeFileSync(join(fx.cache, 'notes.txt'), 'mine');
    const writing = join(fx.cache, 'index', 'x.bin.tmp-1-abc');
    const leftover = join(fx.cache, 'index', 'y.bin.tmp-2-def');
    writeFileSync(writing, 'partial');
    writeFileSync(leftover, 'partial');
    utimesSync(leftover, old, old);
    const pruned = await runIn(['cache', 'prune', '--cache-dir', fx.cache, '--max-size', '0', '--json']);
    assert.equal(pruned.code, 0, pruned.err);
    // every entry of every kind (2 indexes, 3 blob entries, the history `index` prepared) and the leftover
    const entries = Object.values(kinds).reduce((n, k) => n + k.entries, 0);
    assert.ok(entries >= 2 + 3, JSON.stringify(kinds));
    assert.equal(JSON.parse(pruned.out).removed, entries + 1);
    assert.deepEqual(filesUnder(fx.cache).map((f) => f.slice(fx.cache.length + 1)).sort(), ['index/x.bin.tmp-1-abc', 'notes.txt', 'usage.json']);
    assert.equal((await runIn(['cache', 'prune', '--repo', fx.work, '--all'], { XDG_CACHE_HOME: join(fx.dir, 'xdg') })).code, 0);
    const missing = await runIn(['cache', 'show', '--cache-dir', join(fx.dir, 'none')]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^issueloc: --cache-dir .*none: no such folder\n$/);
  } finally {
    cleanup(fx.dir);
  }
});
