// Help texts say what the code does: what --token-env leaves open, one default per option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../batch/cli-process.js';

test('serve --help names every route open without the token; comment --help gives --rev one default', async () => {
  const serve = await runCli(['serve', '--help']);
  assert.equal(serve.code, 0, serve.err);
  assert.match(serve.out.replace(/\s+/g, ' '), /--token-env <name> .*but \/healthz, \/openapi\.json and the web page's files \(\/, \/web\/app\.js, \/web\/style\.css\)/);
  const comment = await runCli(['comment', '--help']);
  assert.equal(comment.code, 0, comment.err);
  const rev = /--rev <rev>[^]*?(?=\n\s+-)/.exec(comment.out)?.[0] ?? '';
  assert.equal(rev.match(/\(default:/g)?.length, 1, rev);
  assert.match(rev.replace(/\s+/g, ' '), /\(default: HEAD, the checked-out commit\)/);
});
