// A cache folder that cannot take the history log (read-only, or `history` not a folder) still
// serves: `localize --model default` ranks, with one warning line, and the log is not kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HistoryLog } from '../../src/history/history-log.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));

const repo = () => fixtureRepo([
  { id: 'A', message: 'initial import', files: { 'pkg/render.py': 'def render(doc, colour=None):\n    return str(doc)\n', 'pkg/config.py': 'def load(path):\n    return {}\n' } },
  { id: 'B', parents: ['A'], message: 'Fix render crash without colour', files: { 'pkg/render.py': 'def render(doc, colour="red"):\n    return str(doc)\n' } },
]);

test('history log: a cache folder that cannot take it gives the log and one warning', async () => {
  const r = repo();
  const cache = tempDir('issueloc-hist-ro-');
  try {
    writeFileSync(join(cache, 'history'), 'not a folder'); // root ignores permissions; this fails for everyone
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((s: string) => { lines.push(String(s)); return true; }) as typeof process.stderr.write;
    let log: HistoryLog;
    try {
      log = await HistoryLog.load(r.dir, [r.sha('B')], { cacheDir: cache });
    } finally {
      process.stderr.write = write;
    }
    assert.equal(log.size, 2);
    assert.equal(lines.length, 1, lines.join(''));
    assert.match(lines[0], /^issueloc: warning: cannot save the history cache .*history.* \(ENOTDIR\); it is read from git again next time\n$/);
  } finally {
    r.remove();
    cleanup(cache);
  }
});

test('localize --model default on a cache folder that holds the index but cannot take the history: exit 0, a warning', () => {
  const r = repo();
  const cache = tempDir('issueloc-hist-ro-');
  try {
    const index = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, BIN, 'index', '--repo', r.dir, '--cache-dir', cache, '--no-progress', '--no-history'], { encoding: 'utf8' });
    assert.equal(index.status, 0, index.stderr);
    writeFileSync(join(cache, 'history'), 'not a folder');
    const run = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, BIN, 'localize', '--repo', r.dir, '--cache-dir', cache, '--issue', 'render crash colour', '--model', 'default', '--json', '--no-progress'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /issueloc: warning: cannot save the history cache/);
    const out = JSON.parse(run.stdout) as { functions: { id: string }[] };
    assert.equal(out.functions[0]?.id, 'pkg/render.py:render');
  } finally {
    r.remove();
    cleanup(cache);
  }
});
