// The CLI bundle (build/cli-bundle.mjs, made by `npm run build`): its ES modules and its localize
// script (with and without its code cache) rank exactly as the modules of dist/src do, load none of
// them for a localize call, and bin/issueloc.js runs it only when it
// was made from dist/src as it is (after `tsc` alone, the stale bundle is passed over).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const work = tempDir('issueloc-bundle-');
after(() => cleanup(work));

/** A `--json` answer without its timings and whether this call built the index. */
const ranking = (out: string) => JSON.stringify(JSON.parse(out, (k, v: unknown) => (/millis$/i.test(k) || k === 'built' ? undefined : v)));

test('the bundle ranks as dist/src does, with and without the built-in model, and loads no module of dist/src', () => {
  // inside the checkout, as dist/bundle is: the packages it imports by name resolve from its node_modules
  const out = join(root, 'dist', `bundle-test-${process.pid}`);
  after(() => cleanup(out));
  execFileSync(process.execPath, [join(root, 'build/cli-bundle.mjs'), out], { stdio: 'pipe' });
  const repo = join(work, 'repo');
  commitFiles(repo, {
    'shop/cart.py': 'def total(items):\n    return sum(i.price for i in items)\n\n\ndef discount(total, rate):\n    return total * rate\n',
    'shop/report.py': 'def price_report(items):\n    """Price of every item."""\n    return [i.price for i in items]\n',
    'shop/users.py': 'def login(name, password):\n    return name == password\n',
  });
  commitFiles(repo, { 'shop/cart.py': 'def total(items):\n    return sum(i.price * i.count for i in items)\n\n\ndef discount(total, rate):\n    return total * rate\n' }, 'cart: count');
  const cache = join(work, 'cache');
  const log = join(work, 'modules.log');
  const hook = `import { appendFileSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }`;
  const logModules = ['--import', `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`)}`];
  const codeCache = join(work, 'xdg');
  const run = (node: string[], cli: string, model: string) => {
    const r = spawnSync(process.execPath, [...node, cli, 'localize', '--repo', repo, '--cache-dir', cache, '--issue', 'The discount rate is applied twice to the cart total',
      '--model', model, '--json', '--no-progress'], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, XDG_CACHE_HOME: codeCache } });
    assert.equal(r.status, 0, r.stderr);
    return ranking(r.stdout);
  };
  for (const model of ['none', 'default']) {
    const expected = run([], join(root, 'dist/src/cli/bin.js'), model);
    // the ES modules (every command), and the localize script (bin/issueloc.js runs it for localize)
    // without its code cache, then with the code cache the first run wrote
    for (const [entry, what] of [['issueloc.mjs', 'the ES modules'], ['localize.mjs', 'the script'], ['localize.mjs', 'the script with its code cache']]) {
      writeFileSync(log, '');
      assert.equal(run(logModules, join(out, entry), model), expected, `${what}, --model ${model}`);
      const loaded = readFileSync(log, 'utf8').split('\n').filter((u) => u.startsWith('file:'));
      assert.ok(loaded.some((u) => u.includes(`/bundle-test-${process.pid}/`)), `${what}: the bundle ran`);
      assert.deepEqual(loaded.filter((u) => u.includes('/dist/src/')), [], `${what}: no module of dist/src loaded`);
    }
  }
  assert.deepEqual(readdirSync(join(codeCache, 'issueloc/code')).map((f) => f.split('-')[4]).sort(), ['lexical', 'model'], 'a code cache file per pipeline');
  // `localize --help` and a usage error compile little of the command: no code cache from them
  const fresh = join(work, 'xdg-help');
  for (const args of [['--help'], ['--top', 'x', '--issue', 'a']]) {
    const r = spawnSync(process.execPath, [join(out, 'localize.mjs'), 'localize', '--repo', repo, '--cache-dir', cache, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, XDG_CACHE_HOME: fresh } });
    assert.equal(r.status, args[0] === '--help' ? 0 : 2, r.stderr);
  }
  assert.equal(existsSync(join(fresh, 'issueloc/code')), false, 'no code cache written by --help or a usage error');
});

test('bin/issueloc.js runs the bundle made from dist/src as it is, else dist/src; an installed package runs its bundle', () => {
  // the package's layout with stand-ins that say which of them ran: in a checkout, and unpacked under node_modules
  const layout = (pkg: string) => {
    cpSync(join(root, 'bin'), join(pkg, 'bin'), { recursive: true });
    mkdirSync(join(pkg, 'dist/src/cli'), { recursive: true });
    mkdirSync(join(pkg, 'dist/bundle'), { recursive: true });
    writeFileSync(join(pkg, 'dist/src/cli/bin.js'), "process.stdout.write('dist');\n");
    writeFileSync(join(pkg, 'dist/src/cli/main.js'), '');
    return () => execFileSync(process.execPath, [join(pkg, 'bin/issueloc.js')], { encoding: 'utf8' });
  };
  const pkg = join(work, 'checkout');
  const ran = layout(pkg);
  assert.equal(ran(), 'dist', 'no bundle');
  writeFileSync(join(pkg, 'dist/bundle/issueloc.mjs'), "process.stdout.write('bundle');\n");
  assert.equal(ran(), 'dist', 'a bundle without built-from.json (its build failed half-way)');
  const stamp = (mainMtimeMs: number) => writeFileSync(join(pkg, 'dist/bundle/built-from.json'), JSON.stringify({ mainMtimeMs }));
  stamp(statSync(join(pkg, 'dist/src/cli/main.js')).mtimeMs);
  assert.equal(ran(), 'bundle', 'made from dist/src as it is');
  utimesSync(join(pkg, 'dist/src/cli/main.js'), 3_000_000, 3_000_000);
  assert.equal(ran(), 'dist', 'tsc rewrote dist/src since: stale');

  const installed = join(work, 'consumer/node_modules/issueloc');
  const ranInstalled = layout(installed);
  writeFileSync(join(installed, 'dist/bundle/issueloc.mjs'), "process.stdout.write('bundle');\n");
  writeFileSync(join(installed, 'dist/bundle/built-from.json'), JSON.stringify({ mainMtimeMs: 1 }));
  assert.equal(ranInstalled(), 'bundle', 'an installed package (its files timed by their unpacking)');
});

test('the localize script draws the tables dist/src draws, for ids of wide characters, emoji and combining marks too', () => {
  // the script measures printable ASCII by its length, anything else with string-width (build/cli-bundle.mjs)
  const out = join(root, 'dist', `bundle-tables-${process.pid}`);
  after(() => cleanup(out));
  execFileSync(process.execPath, [join(root, 'build/cli-bundle.mjs'), out], { stdio: 'pipe' });
  const repo = join(work, 'repo-wide');
  commitFiles(repo, {
    'shop/cart.py': 'def total(items):\n    return sum(i.price for i in items)\n\n\ndef discount(total, rate):\n    return total * rate\n',
    'shop/購物車.py': 'def 合計(items):\n    return sum(i.price for i in items)\n\n\ndef discount_total(total):\n    return total\n',
    'shop/emoji_😀.py': 'def cart_total_emoji(items):\n    return len(items)\n',
    'shop/cafe\u0301.py': 'def cart_discount(rate):\n    return rate\n',
  });
  const cache = join(work, 'cache-wide');
  const issue = 'The discount total of the cart is wrong in 購物車.py and emoji_😀.py; cafe\u0301 too';
  const text = (cli: string, columns: string, explain: string[]) => {
    const r = spawnSync(process.execPath, [cli, 'localize', '--repo', repo, '--cache-dir', cache, '--issue', issue, '--model', 'none', '--no-progress', ...explain],
      { encoding: 'utf8', timeout: 120_000, env: { ...process.env, COLUMNS: columns, XDG_CACHE_HOME: join(work, 'xdg-wide') } });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  for (const columns of ['100', '40']) {
    for (const explain of [[], ['--explain']]) {
      const expected = text(join(root, 'dist/src/cli/bin.js'), columns, explain);
      assert.match(expected, /購物車/);
      assert.equal(text(join(out, 'localize.mjs'), columns, explain), expected, `COLUMNS=${columns} ${explain.join(' ')}`);
    }
  }
});
