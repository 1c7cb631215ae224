// The package as users get it: `npm pack`, the tarball unpacked into node_modules of a fresh
// folder (no network: its dependencies are links to this checkout's installed ones, only those
// package.json declares as `dependencies`: npm installs no optional peer dependency), then from
// there, on a repository built here: `issueloc localize --model default`, the README's library
// example (`import 'issueloc'`), a TypeScript file type-checked against the shipped declarations,
// every command's --help, and the optional parts refused with the install command they need.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { inProcessCli } from './in-process.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const work = tempDir('issueloc-package-');
after(() => cleanup(work));

interface Manifest {
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * Packs this checkout (its built dist/; --ignore-scripts: no rebuild) and unpacks the tarball as
 * `<consumer>/node_modules/issueloc`; returns the unpacked package folder and the tarball's file list.
 */
function packAndUnpack(consumer: string): { pkg: string; files: string[] } {
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  const modules = join(consumer, 'node_modules');
  mkdirSync(modules, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', modules]);
  const pkg = join(modules, 'issueloc');
  renameSync(join(modules, 'package'), pkg);
  // the dependencies `npm install` brings, from this checkout's node_modules (theirs resolve from
  // there): `dependencies` and `optionalDependencies`; optional peer dependencies are the user's to add
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Manifest;
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    const installed = join(root, 'node_modules', name);
    assert.ok(existsSync(installed), `dependency ${name} is not installed in ${root}`);
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(installed, join(modules, name), 'dir');
  }
  return { pkg, files: packed.files.map((f) => f.path) };
}

let packed: { consumer: string; pkg: string; files: string[]; repo: string } | undefined;

/** The package packed and unpacked once, and the repository the tests rank. */
function installed(): NonNullable<typeof packed> {
  if (packed) return packed;
  const consumer = join(work, 'consumer');
  const { pkg, files } = packAndUnpack(consumer);
  const repo = join(work, 'repo');
  commitFiles(repo, {
    'shop/cart.py': 'def total(items):\n    return sum(i.price for i in items)\n\n\ndef discount(total, rate):\n    return total * rate\n',
    'shop/report.py': 'def price_report(items):\n    """Price of every item."""\n    return [i.price for i in items]\n',
    'shop/users.py': 'def login(name, password):\n    return name == password\n',
  }, 'shop: cart, report, users');
  commitFiles(repo, { 'shop/cart.py': 'def total(items):\n    return sum(i.price * i.count for i in items)\n\n\ndef discount(total, rate):\n    return total * rate\n' }, 'cart: count items');
  return (packed = { consumer, pkg, files, repo });
}

test('the packed package ships the built-in model, and `localize --model default` ranks from an install', () => {
  const { consumer, pkg, files, repo } = installed();
  assert.ok(files.includes('src/ltr/default-model.json'), 'the tarball holds the built-in model');
  assert.ok(files.includes('dist/src/index.d.ts'), 'the tarball holds the type declarations');
  for (const f of ['index.html', 'app.js', 'style.css']) assert.ok(files.includes(`src/service/web/assets/${f}`), `the tarball holds the web page's ${f}`);
  assert.ok(!files.some((f) => f.startsWith('test/') || f.startsWith('dist/test/')), 'no tests in the tarball');
  // the CLI bundle bin/issueloc.js runs from an install, made from this checkout's dist/src as it is
  assert.ok(files.includes('dist/bundle/issueloc.mjs') && files.includes('dist/bundle/built-from.json'), 'the tarball holds the CLI bundle (made by `npm run build`)');
  const stamp = JSON.parse(readFileSync(join(root, 'dist/bundle/built-from.json'), 'utf8')) as { mainMtimeMs: number };
  assert.equal(statSync(join(root, 'dist/src/cli/main.js')).mtimeMs, stamp.mainMtimeMs, 'the CLI bundle is of an older dist/src: run `npm run build` before this test');

  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Manifest;
  const bin = join(pkg, manifest.bin.issueloc);
  const r = spawnSync(process.execPath, [bin, 'localize', '--repo', repo, '--issue', 'The discount rate is applied twice to the cart total',
    '--model', 'default', '--json', '--no-progress', '--cache-dir', join(work, 'cache')], { cwd: consumer, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { files: { id: string }[]; functions: { id: string }[] };
  assert.equal(out.files[0].id, 'shop/cart.py', r.stdout);
  assert.equal(out.functions[0].id, 'shop/cart.py:discount', r.stdout);
});

test('the README\'s library example runs from an install: import \'issueloc\' ranks the repository', () => {
  const { consumer, repo } = installed();
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const m = /<!-- readme-example[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, 'README.md has the marked library example');
  writeFileSync(join(consumer, 'example.mjs'), m[1]);
  const r = spawnSync(process.execPath, ['example.mjs', repo], {
    cwd: consumer, encoding: 'utf8', timeout: 60_000, env: { ...process.env, XDG_CACHE_HOME: join(work, 'xdg'), ISSUELOC_CACHE_DIR: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^base commit [0-9a-f]{40}, stages lexical → model\n/);
  assert.match(r.stdout, /\n\d+\.\d\d shop\/cart\.py\n/);
  assert.match(r.stdout, /first function: shop\/cart\.py:discount\n$/);
});

test('the shipped declarations type-check a consumer, and catch a misspelt option', () => {
  const { consumer } = installed();
  writeFileSync(join(consumer, 'check.ts'), [
    "import { openLocalizer, type LocalizeResult, type StageName } from 'issueloc';",
    'export async function best(repo: string): Promise<string | undefined> {',
    "  const localizer = await openLocalizer({ repo, model: 'default', rerank: { top: 20 } });",
    "  const result: LocalizeResult = await localizer.localize('cart total is wrong', { top: 3 });",
    '  const stages: readonly StageName[] = result.stages;',
    '  await localizer.close();',
    '  return stages.length > 0 ? result.files[0]?.id : undefined;',
    '}',
    '// @ts-expect-error a misspelt option is a type error',
    "void openLocalizer({ repo: '.', modle: 'default' });",
    '',
  ].join('\n'));
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(root, 'node_modules/@types')] },
    files: ['check.ts'],
  }));
  const r = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: consumer, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('without the optional packages: every --help works, and each optional part is refused in one line naming its install', async () => {
  const { consumer, pkg, files, repo } = installed();
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Manifest & { peerDependenciesMeta?: Record<string, { optional?: boolean }> };
  assert.equal(manifest.optionalDependencies, undefined, 'npm installs optionalDependencies by default: the optional parts are optional peers');
  for (const name of Object.keys(manifest.peerDependencies ?? {})) assert.equal(manifest.peerDependenciesMeta?.[name]?.optional, true, `${name} is an optional peer`);
  for (const heavy of ['fastify', '@modelcontextprotocol/sdk', 'bullmq', 'vega', '@huggingface/transformers', 'tree-sitter-wasms', '@actions/core']) {
    assert.equal(manifest.dependencies?.[heavy], undefined, `${heavy} is not installed with the core`);
  }
  assert.ok(files.includes('action/bundle/grammars/tree-sitter-python.wasm'), 'the grammars the index parses ship in the package');
  assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 15, 'only the grammars of the languages indexed by function');

  const bin = join(pkg, manifest.bin.issueloc);
  const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: consumer, encoding: 'utf8', timeout: 60_000, env: { ...process.env, XDG_CACHE_HOME: join(work, 'xdg') } });
  const help = run(['--help']);
  assert.equal(help.status, 0, help.stderr);
  const commands = [...help.stdout.matchAll(/^ {2}([a-z][\w-]*)[ |[<]/gm)].map((m) => m[1]).filter((c) => c !== 'help');
  for (const c of ['localize', 'index', 'eval', 'stats', 'report', 'serve', 'mcp', 'batch', 'comment']) assert.ok(commands.includes(c), `--help lists ${c}`);
  // each command's --help through the installed package's main in one worker thread (the
  // executable's start is the run above)
  const installedCli = inProcessCli(join(pkg, 'dist', 'src', 'cli', 'main.js'));
  for (const c of commands) {
    const r = await installedCli([c, '--help'], { XDG_CACHE_HOME: join(work, 'xdg') });
    assert.equal(r.code, 0, `${c} --help: ${r.err}`);
    assert.match(r.out, new RegExp(`\\b${c}\\b`), `${c} --help names the command`);
  }

  // the first through the executable, the others through the installed main in the worker thread
  let executable = true;
  const refused = async (args: string[], line: RegExp) => {
    const r = executable ? (({ status, stdout, stderr }) => ({ code: status, out: stdout, err: stderr }))(run(args)) : await installedCli(args, { XDG_CACHE_HOME: join(work, 'xdg') });
    executable = false;
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}${r.err}`);
    assert.match(r.err, line);
    assert.equal(r.err.split('\n').length, 2, `one line: ${r.err}`);
  };
  await refused(['serve', '--repo', repo, '--port', '0'], /^issueloc: serve needs fastify, prom-client, @modelcontextprotocol\/sdk, zod: npm install fastify@\^5[\d.]* prom-client@\^15[\d.]* @modelcontextprotocol\/sdk@\^1[\d.]* zod@\^4[\d.]*\n$/);
  await refused(['mcp', '--repo', repo], /^issueloc: mcp needs @modelcontextprotocol\/sdk, zod: npm install @modelcontextprotocol\/sdk@\^1[\d.]* zod@\^4[\d.]*\n$/);
  await refused(['batch', 'worker', '--queue', 'redis://127.0.0.1:1'], /^issueloc: batch --queue needs bullmq, ioredis: npm install bullmq@\^5[\d.]* ioredis@\^5[\d.]*\n$/);
  await refused(['stats', join(work, 'results'), '--by', 'type'], /^issueloc: stats needs @stdlib\/math-base-special-gammainc, @stdlib\/stats-base-dists-t-cdf: npm install @stdlib\/math-base-special-gammainc@\S+ @stdlib\/stats-base-dists-t-cdf@\S+\n$/);
  await refused(['report', join(work, 'results'), '-o', join(work, 'report.html')], /^issueloc: report needs @stdlib\/math-base-special-gammainc, @stdlib\/stats-base-dists-t-cdf, vega, vega-lite, @resvg\/resvg-js: npm install \S+ \S+ vega@\S+ vega-lite@\S+ @resvg\/resvg-js@\S+\n$/);
  await refused(['comment', '--repo', repo, '--event', join(work, 'no-event.json')], /^issueloc: comment needs @actions\/github: npm install @actions\/github@\^9[\d.]*\n$/);
  // a model folder as far as its file names go: the package is asked for before the model is read
  const model = join(work, 'model');
  mkdirSync(join(model, 'onnx'), { recursive: true });
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) writeFileSync(join(model, f), '{}');
  await refused(['localize', '--repo', repo, '--issue', 'cart total', '--embedder', `onnx:${model}`, '--no-progress'],
    /^issueloc: --embedder onnx needs @huggingface\/transformers: npm install @huggingface\/transformers@\^4[\d.]*\n$/);
});
