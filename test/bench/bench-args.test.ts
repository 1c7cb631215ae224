// bench/lib/args: a bench script's --help (its header comment and options) and its one-line refusal
// of an unknown option, run as a person would run the script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../bench/lib/regressions.js';
import { BAD_ARGS_EXIT } from '../../bench/lib/args.js';

const script = join(ROOT, 'dist', 'bench', 'peers', 'lucene.js');

test('--help prints the script header and its options, exit 0', () => {
  const r = spawnSync(process.execPath, [script, '--help'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^bench\/peers\/lucene: issueloc's warm query/);
  assert.match(r.stdout, /\noptions:\n(?:.*\n)*  --rounds VALUE \(default: "5"\)\n/);
  assert.equal(r.stderr, '');
});

test('an unknown option: one line naming it and the script, exit code 2, nothing on stdout', () => {
  const r = spawnSync(process.execPath, [script, '--roundz', '3'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, BAD_ARGS_EXIT);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^bench\/peers\/lucene: Unknown option '--roundz' \(--help lists the options\)\n$/);
});
