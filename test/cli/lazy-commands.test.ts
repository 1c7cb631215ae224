// A command imports only its own module: `issueloc localize` loads none of serve's, batch's or
// eval's libraries; `--version` loads none; `--help` and unknown commands still see every command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProgram } from '../../src/cli/main.js';

const names = (p: Awaited<ReturnType<typeof buildProgram>>) => p.commands.map((c) => c.name());

test('a named command registers its own module alone; no command or an unknown one registers all', async () => {
  assert.deepEqual(names(await buildProgram(['node', 'issueloc', 'localize', '--issue', 'x'])), ['localize']);
  assert.deepEqual(names(await buildProgram(['node', 'issueloc', 'stats', 'r'])), ['eval', 'stats', 'report']);
  const all = names(await buildProgram());
  for (const argv of [['node', 'issueloc'], ['node', 'issueloc', '--help'], ['node', 'issueloc', 'nosuch']]) {
    assert.deepEqual(names(await buildProgram(argv)), all, argv.join(' '));
  }
  for (const c of ['localize', 'index', 'dataset', 'eval', 'serve', 'mcp', 'batch', 'cache', 'comment']) assert.ok(all.includes(c), c);
  for (const flag of ['--version', '-V']) assert.deepEqual(names(await buildProgram(['node', 'issueloc', flag])), [], flag);
});
