// The code cache of the CLI bundle's localize script (src/cli/code-cache.ts): used when it is of
// this script's build, passed over (and written anew) when it is corrupt, cut short, of another
// program or refused by V8, never used for a changed script, and never an error when its folder
// cannot be written.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheFileBytes, cachePayload, codeCacheFile, loadScript, localizeVariant, removeStaleTemporaries, type ScriptOptions } from '../../src/cli/code-cache.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

const work = tempDir('issueloc-code-cache-');
after(() => cleanup(work));

/** A script as the build makes one (CommonJS, `import.meta` and `import()` named as the build names them). */
const SCRIPT = (answer: number) => `const path = require('node:path');
function answer(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s + ${answer}; }
module.exports = { answer: answer(10), url: __issuelocMeta.url, base: path.basename(__filename), load: () => __issuelocImport('node:os') };
`;

const options = (cacheDir: string | undefined, buildHash = 'b1'): ScriptOptions => ({ cacheDir, buildHash, importModule: (s) => import(s), resolveModule: (s) => import.meta.resolve(s) });

const MODULE = fileURLToPath(new URL('../../src/cli/code-cache.js', import.meta.url));

/**
 * {@link loadScript} and saveCache in a process of its own (in this one, V8 would compile a text it
 * compiled before from its own memory, whatever the cache file holds): the script's answer and
 * whether the cache was used.
 */
function loadInProcess(file: string, cacheDir: string, buildHash = 'b1', variant = 'all'): { answer: number; cacheUsed: boolean } {
  const code = `const { loadScript } = await import(${JSON.stringify(MODULE)});
const s = loadScript(${JSON.stringify(file)}, { cacheDir: ${JSON.stringify(cacheDir)}, buildHash: ${JSON.stringify(buildHash)}, variant: ${JSON.stringify(variant)}, importModule: (x) => import(x), resolveModule: (x) => x });
s.saveCache();
process.stdout.write(JSON.stringify({ answer: s.exports.answer, cacheUsed: s.cacheUsed }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 })) as { answer: number; cacheUsed: boolean };
}

let n = 0;
/** A new script file (its own folder) with `text`. */
function scriptFile(text: string): string {
  const dir = join(work, `s${n++}`);
  mkdirSync(dir);
  const file = join(dir, 'localize.cjs');
  writeFileSync(file, text);
  return file;
}

test('a script runs from its text, then from the code cache its run wrote', async () => {
  const cache = join(work, 'cache-1');
  const file = scriptFile(SCRIPT(1));
  const first = loadScript(file, options(cache));
  assert.equal(first.exports.answer, 46);
  assert.equal(first.exports.base, 'localize.cjs');
  assert.equal(first.exports.url, `file://${file}`);
  assert.equal(typeof ((await (first.exports.load as () => Promise<{ EOL: string }>)()).EOL), 'string', "the script's import()");
  assert.equal(first.cacheUsed, false);
  // the cache written and read by processes alike (V8 may refuse data of a process with other options)
  assert.deepEqual(loadInProcess(file, cache), { answer: 46, cacheUsed: false });
  const [name] = readdirSync(cache);
  assert.ok(cachePayload(readFileSync(join(cache, name))), 'a whole cache file written');
  assert.deepEqual(loadInProcess(file, cache), { answer: 46, cacheUsed: true });
  assert.deepEqual(readdirSync(cache), [name], 'one file, no temporary left');
});

test('a corrupt, cut, foreign or refused cache file is passed over, and written anew', () => {
  const cache = join(work, 'cache-2');
  const file = scriptFile(SCRIPT(2));
  assert.deepEqual(loadInProcess(file, cache), { answer: 47, cacheUsed: false });
  const cacheFile = join(cache, readdirSync(cache)[0]);
  const good = readFileSync(cacheFile);
  const flipped = Buffer.from(good);
  flipped[flipped.length - 100] ^= 0xff;
  // past the file's own check (a whole header for bytes that are not V8's): V8 refuses them
  const cases: [string, Buffer][] = [
    ['a payload byte flipped', flipped],
    ['cut short', good.subarray(0, good.length - 10)],
    ['header only', good.subarray(0, 16)],
    ['empty', Buffer.alloc(0)],
    ['another program', Buffer.from('#!/bin/sh\necho hello\n')],
    ['no payload check (a header made for garbage)', cacheFileBytes(Buffer.from('x'.repeat(1000)))],
  ];
  for (const [what, bytes] of cases) {
    writeFileSync(cacheFile, bytes);
    assert.deepEqual(loadInProcess(file, cache), { answer: 47, cacheUsed: false }, what);
    assert.ok(cachePayload(readFileSync(cacheFile)), `${what}: written anew`);
    assert.deepEqual(loadInProcess(file, cache), { answer: 47, cacheUsed: true }, `${what}: used after`);
  }
});

test('a changed script (another build, or the same build edited) does not use the old cache, and its own replaces it', () => {
  const cache = join(work, 'cache-3');
  const file = scriptFile(SCRIPT(3));
  const t = 1_000_000;
  utimesSync(file, t, t);
  assert.deepEqual(loadInProcess(file, cache, 'b1'), { answer: 48, cacheUsed: false });
  const old = readdirSync(cache);
  // the same length, another text (V8 checks a cached script's length only: run with the old
  // bytecode, this would answer 48)
  writeFileSync(file, SCRIPT(4));
  utimesSync(file, t, t);
  assert.deepEqual(loadInProcess(file, cache, 'b2'), { answer: 49, cacheUsed: false }, 'another build');
  assert.notDeepEqual(readdirSync(cache), old, "the old build's file replaced");
  assert.equal(readdirSync(cache).length, 1, "the old build's file removed");
  assert.deepEqual(loadInProcess(file, cache, 'b2'), { answer: 49, cacheUsed: true });
  // edited by hand after the build (the same build digest): its time differs
  writeFileSync(file, SCRIPT(5));
  utimesSync(file, t + 1, t + 1);
  assert.deepEqual(loadInProcess(file, cache, 'b2'), { answer: 50, cacheUsed: false }, 'edited');
});

test('the cache file is named by the build, the script, the Node version and the architecture', () => {
  const name = codeCacheFile('/c', '/x/localize.cjs', 'abc123', 1000, 1234.5).split('/').pop()!;
  assert.match(name, /^localize-abc123-rs-ya-all-v\d+\.\d+\.\d+-\w+\.bin$/);
  assert.notEqual(codeCacheFile('/c', '/x/localize.cjs', 'abc124', 1000, 1234.5), codeCacheFile('/c', '/x/localize.cjs', 'abc123', 1000, 1234.5));
  assert.notEqual(codeCacheFile('/c', '/x/localize.cjs', 'abc123', 1001, 1234.5), codeCacheFile('/c', '/x/localize.cjs', 'abc123', 1000, 1234.5));
});

test('no cache folder, or one that cannot be made: the script runs, nothing is thrown', () => {
  const file = scriptFile(SCRIPT(6));
  const none = loadScript(file, options(undefined));
  assert.equal(none.exports.answer, 51);
  assert.equal(none.cacheFile, undefined);
  none.saveCache();
  // a file where the folder should be (root may write any folder: this refuses root too)
  const asFile = join(work, 'a-file');
  writeFileSync(asFile, '');
  const blocked = loadScript(file, options(join(asFile, 'code')));
  blocked.saveCache();
  assert.equal(blocked.exports.answer, 51);
  assert.deepEqual(readdirSync(work).filter((f) => f.endsWith('.tmp')), []);
});

test('each variant (a localize pipeline) keeps a cache of its own; a new build replaces each', () => {
  assert.equal(localizeVariant(['node', 'issueloc', 'localize', '--model', 'none']), 'lexical');
  assert.equal(localizeVariant(['node', 'issueloc', 'localize', '--model=none']), 'lexical');
  assert.equal(localizeVariant(['node', 'issueloc', 'localize', '--model', 'none', '--model', 'default']), 'model');
  assert.equal(localizeVariant(['node', 'issueloc', 'localize', '--issue', 'x']), 'model');
  const cache = join(work, 'cache-4');
  const file = scriptFile(SCRIPT(7));
  loadInProcess(file, cache, 'b1', 'lexical');
  loadInProcess(file, cache, 'b1', 'model');
  assert.deepEqual(readdirSync(cache).map((f) => f.split('-')[4]).sort(), ['lexical', 'model']);
  assert.deepEqual(loadInProcess(file, cache, 'b1', 'lexical'), { answer: 52, cacheUsed: true });
  writeFileSync(file, SCRIPT(8));
  loadInProcess(file, cache, 'b2', 'model');
  assert.equal(readdirSync(cache).length, 2, "the old build's model cache replaced, its lexical one left to its next run");
  loadInProcess(file, cache, 'b2', 'lexical');
  assert.ok(readdirSync(cache).every((f) => f.includes('-b2-')), readdirSync(cache).join(' '));
});

test('a temporary file a killed writer left is removed by the next run; a live writer\'s is not', () => {
  const cache = join(work, 'cache-temporaries');
  mkdirSync(cache, { recursive: true });
  const file = scriptFile(SCRIPT(5));
  const target = codeCacheFile(cache, file, 'b1', 1, 1);
  // a process that has ended: its pid names none now
  const gone = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
  const payload = Buffer.alloc(666_000, 1);
  const killed = `${target}.tmp-${gone}-k1ll3d`;
  const live = `${target}.tmp-${process.pid}-l1v3`;
  const oldLive = `${target}.tmp-${process.pid}-0ld`;
  const unrelated = join(cache, `notes.txt.tmp-${gone}-k1ll3d`);
  for (const f of [killed, live, oldLive, unrelated]) writeFileSync(f, payload);
  const hourAgo = (Date.now() - 3_600_000) / 1000;
  utimesSync(oldLive, hourAgo, hourAgo);
  // the next run, in a process of its own as the CLI's would be
  loadInProcess(file, cache);
  const left = new Set(readdirSync(cache));
  assert.ok(!left.has(basename(killed)), "the killed writer's temporary file is removed");
  assert.ok(left.has(basename(live)), "a live writer's temporary file is left");
  assert.ok(!left.has(basename(oldLive)), 'a temporary file older than the bound is removed (its pid reused since)');
  assert.ok(left.has(basename(unrelated)), 'a file not of the code cache is left');
  removeStaleTemporaries(join(cache, 'no-such-folder'));
});
