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
  // the localize command's modules in the entry itself (the call agents make most): one file
  // parsed for it, not a chunk per set of commands sharing a module
  stdin: { contents: `import './dist/src/cli/localize.js';\nimport './dist/src/cli/bin.js';\n`, resolveDir: root, sourcefile: 'issueloc.js', loader: 'js' },
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
// written last: a bundle whose build failed half-way has none, and is not run
writeFileSync(join(out, 'built-from.json'), `${JSON.stringify({ mainMtimeMs: statSync(join(root, 'dist/src/cli/main.js')).mtimeMs })}\n`);
