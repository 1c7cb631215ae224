// Bundles the compiled CLI (dist/src/cli/bin.js, as tsc made it) into dist/bundle/: one ES module
// for what every call runs, and one chunk per part loaded on use (each command, the dense, LLM,
// service, MCP and batch stages, tree-sitter), so a warm `issueloc localize` parses a few files,
// not the ~140 modules of dist/src. bin/issueloc.js runs it while dist/src/cli/main.js has the
// time written in dist/bundle/built-from.json (else dist/src: `tsc` alone rewrote it since).
//
//   node build/cli-bundle.mjs [OUT_DIR]     (default dist/bundle; part of `npm run build` and `prepare`)
//
// Bundled: our code and the small pure-JS packages every call loads (BUNDLED). Every other
// package stays an import by name (optional ones such as @huggingface/transformers load only
// when present). Paths a module finds from its own place (`new URL('./x.js', import.meta.url)`
// for a worker, the default model, package.json; `require.resolve('../…')` of the grammars) are
// rewritten to point from the bundle's folder at the same file as before, so workers still run
// the modules of dist/src.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist/bundle'));

/** Packages inside the bundle: pure JS, no files of their own read at run time, loaded by every call. */
const BUNDLED = new Set(['commander', 'stemmer', 'entities']);

/** `name` of a bare specifier (`@scope/name/sub` → `@scope/name`). */
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/** A relative path string found from `file`'s folder, rewritten to be found from the bundle's folder. */
function rebase(file, path) {
  const cut = path.lastIndexOf('/') + 1;
  let dir = relative(out, resolve(dirname(file), path.slice(0, cut) || '.')).split(sep).join('/');
  if (!dir.startsWith('.')) dir = dir === '' ? '.' : `./${dir}`;
  return `${dir}/${path.slice(cut)}`;
}

/** A relative path in `new URL('…', import.meta.url)` or `require.resolve('…')` (the text up to a `${`). */
const RELATIVE_PATH = /(new URL\(|require\.resolve\()(['"`])(\.\.?\/[^'"`$]*)/g;

const layout = {
  name: 'cli-bundle-layout',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || !BUNDLED.has(packageOf(args.path))) return { path: args.path, external: true };
      return undefined;
    });
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(join(root, 'dist/src') + sep)) return undefined;
      const text = readFileSync(args.path, 'utf8').replace(RELATIVE_PATH, (_, call, quote, path) => `${call}${quote}${rebase(args.path, path)}`);
      return { contents: text, loader: 'js' };
    });
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  stdin: { contents: `import './dist/src/cli/bin.js';\n`, resolveDir: root, sourcefile: 'issueloc.js', loader: 'js' },
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outdir: out,
  outExtension: { '.js': '.mjs' },
  entryNames: 'issueloc',
  chunkNames: 'chunk-[hash]',
  // commander (CommonJS) calls require(): give the ES modules one, made on its first call (every
  // file gets the banner, one file's runtime helper calls it: ≈ 50 createRequire calls saved)
  banner: {
    js: "import { createRequire as __issuelocCreateRequire } from 'node:module';\n" +
      'let __issuelocRequire;\n' +
      'const __issuelocRequireOf = () => (__issuelocRequire ??= __issuelocCreateRequire(import.meta.url));\n' +
      'const require = Object.assign((id) => __issuelocRequireOf()(id), { resolve: (id, options) => __issuelocRequireOf().resolve(id, options) });',
  },
  legalComments: 'eof',
  logLevel: 'warning',
  plugins: [layout],
});

// The `localize` command as one CommonJS script (localize.cjs), run by localize.mjs with a V8 code
// cache (src/cli/code-cache.ts): no ES module to resolve, read and link per chunk, and the bytecode
// of the last call's functions deserialized instead of compiled (Node 20 caches no ES module's
// code). Built from the same modules as the ES bundle; the other commands' modules are left out
// (bin/issueloc.js runs this script for `localize` only). A script has no `import.meta` and no
// `import()`: the build names them `__issuelocMeta` and `__issuelocImport` (src/cli/code-cache.ts
// gives both), and refuses a script where either is left.
/** `import(` of a package by name or a computed name (relative ones are bundled). */
const DYNAMIC_IMPORT = /(?<![\w$.])import\((?!\s*['"`]\.)/g;
/**
 * Packages of the localize script besides {@link BUNDLED}: cli-table3 and what it requires, for
 * the text output's tables, so that the code cache holds their bytecode too (loaded and compiled
 * from node_modules, the first table of a call cost ≈ 20 ms CPU more than a later one). Evaluated
 * when the first table is drawn (`--json` draws none).
 */
const SCRIPT_BUNDLED = new Set([...BUNDLED, 'cli-table3', 'string-width', 'strip-ansi', 'ansi-regex', 'is-fullwidth-code-point', 'emoji-regex']);
/** The text output's load of cli-table3 (src/cli/localize.ts), as a require the script build bundles. */
const TABLE_REQUIRE = /createRequire\(import\.meta\.url\)\('cli-table3'\)/;
/**
 * string-width as cli-table3 sees it in the localize script: the length of a string of printable
 * ASCII characters (the width string-width gives it: no escape sequence, emoji or wide character
 * can be in it), string-width itself for any other. cli-table3 measures each cell's text many
 * times, and string-width strips ANSI codes and replaces emoji with regular expressions each
 * time: ≈ 10 % of a `--model none` call's CPU went to drawing its three tables.
 */
const ASCII_WIDTH = `const stringWidth = require('string-width');
const PRINTABLE_ASCII = /^[\\x20-\\x7e]*$/;
const width = (s) => (typeof s === 'string' && PRINTABLE_ASCII.test(s) ? s.length : stringWidth(s));
module.exports = width;
module.exports.default = width;
`;
/** commander's one require of child_process (lib/command.js), whose `spawn` alone it calls. */
const COMMANDER_CHILD_PROCESS = /^const childProcess = require\('node:child_process'\);$/m;
const localizeOnly = {
  name: 'cli-localize-script',
  setup(b) {
    b.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (args) => (args.importer === join(root, 'dist/src/cli/main.js') && args.path !== './localize.js' && args.kind === 'dynamic-import'
      ? { path: args.path, namespace: 'other-command' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'other-command' }, () => ({ contents: 'export {};\n', loader: 'js' }));
    b.onResolve({ filter: /^string-width$/ }, (args) => (args.namespace === 'file' && /[\\/]cli-table3[\\/]/.test(args.importer)
      ? { path: args.path, namespace: 'ascii-width', pluginData: dirname(args.importer) } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'ascii-width' }, (args) => ({ contents: ASCII_WIDTH, loader: 'js', resolveDir: args.pluginData }));
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || !SCRIPT_BUNDLED.has(packageOf(args.path))) return { path: args.path, external: true };
      return undefined;
    });
    // commander loads child_process for its executable subcommands (none here): on first use
    // only, so a call that starts no git loads neither it nor net and dgram (src/repo/git-process.ts)
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const lazy = text.replace(COMMANDER_CHILD_PROCESS, "let childProcessModule;\nconst childProcess = { spawn: (...a) => (childProcessModule ??= require('node:child_process')).spawn(...a) };");
      if (lazy === text) throw new Error(`${args.path}: commander's require of node:child_process not found`);
      return { contents: lazy, loader: 'js' };
    });
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(join(root, 'dist/src') + sep)) return undefined;
      let text = readFileSync(args.path, 'utf8');
      if (args.path === join(root, 'dist/src/cli/localize.js')) {
        if (!TABLE_REQUIRE.test(text)) throw new Error(`${args.path}: the load of cli-table3 not found`);
        text = text.replace(TABLE_REQUIRE, "require('cli-table3')");
      }
      text = text
        .replace(RELATIVE_PATH, (_, call, quote, path) => `${call}${quote}${rebase(args.path, path)}`)
        .replace(DYNAMIC_IMPORT, '__issuelocImport(');
      return { contents: text, loader: 'js' };
    });
  },
};
const scriptFile = join(out, 'localize.cjs');
await build({
  absWorkingDir: root,
  stdin: { contents: `export { runCli } from './dist/src/cli/run.js';\n`, resolveDir: root, sourcefile: 'localize.js', loader: 'js' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: scriptFile,
  // fewer bytes to read (comments and indentation go; names stay, as do stack traces' function names)
  minifyWhitespace: true,
  define: { 'import.meta.url': '__issuelocMeta.url', 'import.meta.resolve': '__issuelocMeta.resolve' },
  legalComments: 'eof',
  logLevel: 'warning',
  plugins: [localizeOnly],
});
// esbuild writes ASCII but for a regular expression's own characters: escaped here too, so the
// source is a one-byte string for V8 (half the memory, a faster scan)
const script = readFileSync(scriptFile, 'utf8').replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
writeFileSync(scriptFile, script);
// a word `import(` or `import.meta` (out of strings and comments, which whitespace minifying drops) would fail at run time
if (/(?<![\w$.])import\(|import\.meta/.test(script.replace(/\/\*[\s\S]*?\*\//g, ''))) throw new Error(`${scriptFile}: an import() or import.meta is left in the script`);
const scriptHash = createHash('sha256').update(script).digest('hex').slice(0, 16);
await build({
  absWorkingDir: root,
  stdin: {
    contents: "import { fileURLToPath } from 'node:url';\n" +
      "import { defaultCodeCacheDir, runScriptCli } from './dist/src/cli/code-cache.js';\n" +
      `await runScriptCli(fileURLToPath(new URL('./localize.cjs', import.meta.url)), { buildHash: ${JSON.stringify(scriptHash)}, ` +
      'cacheDir: process.env.ISSUELOC_CODE_CACHE === "0" ? undefined : defaultCodeCacheDir(), importModule: (s) => import(s), resolveModule: (s) => import.meta.resolve(s) });\n',
    resolveDir: root,
    sourcefile: 'localize-runner.js',
    loader: 'js',
  },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outfile: join(out, 'localize.mjs'),
  logLevel: 'warning',
});

// written last: a bundle whose build failed half-way has none, and is not run
writeFileSync(join(out, 'built-from.json'), `${JSON.stringify({ mainMtimeMs: statSync(join(root, 'dist/src/cli/main.js')).mtimeMs })}\n`);
