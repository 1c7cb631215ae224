// Builds the GitHub Action's bundle (action.yml runs action/bundle/index.mjs): one ES module made
// by esbuild from src/forge/action.ts with every dependency inside, beside it web-tree-sitter's
// runtime, the tree-sitter grammars of the languages indexed by function, and the default
// learned model, so the action runs at its path without `npm install`.
//
//   node action/build.mjs [OUT_DIR]     (default action/bundle; `npm run build:action`)
//
// test/forge/action-bundle.test.ts builds into a temporary folder and compares it with the
// committed one: after a change to src/, run `npm run build:action` and commit action/bundle/.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'action/bundle'));
const require = createRequire(join(root, 'package.json'));

/** Text replaced in a source file for the bundle's layout; the build fails when the text is not there. */
const REWRITES = {
  'src/corpus/extract.ts': [['`../../../action/bundle/grammars/tree-sitter-${grammar}.wasm`', '`./grammars/tree-sitter-${grammar}.wasm`']],
  'src/ltr/model.ts': [["'../../../src/ltr/default-model.json'", "'./default-model.json'"]],
};

const layout = {
  name: 'bundle-layout',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const rel = args.path.slice(root.length + 1).split('\\').join('/');
      let text = readFileSync(args.path, 'utf8');
      for (const [from, to] of REWRITES[rel] ?? []) {
        if (!text.includes(from)) throw new Error(`${rel} no longer holds ${from}: update action/build.mjs`);
        text = text.split(from).join(to);
      }
      return { contents: text, loader: 'ts' };
    });
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'grammars'), { recursive: true });
await build({
  absWorkingDir: root,
  stdin: { contents: "import { runAction } from './src/forge/action.ts';\nawait runAction();\n", resolveDir: root, sourcefile: 'action-entry.ts', loader: 'ts' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outfile: join(out, 'index.mjs'),
  // CommonJS dependencies (undici, tunnel) call require(): give the ES module one
  banner: { js: "import { createRequire as __issuelocCreateRequire } from 'node:module';\nconst require = __issuelocCreateRequire(import.meta.url);" },
  // stages the action never opens (bi-encoders, local LLMs) load optional packages by name at run time
  external: ['@huggingface/transformers', 'onnxruntime-node', 'node-llama-cpp'],
  legalComments: 'eof',
  logLevel: 'warning',
  plugins: [layout],
});

copyFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm'), join(out, 'tree-sitter.wasm'));
copyFileSync(join(root, 'src/ltr/default-model.json'), join(out, 'default-model.json'));
// the grammars named by the extraction specs (`grammar: 'go'`, `jsSpec('tsx')`)
const specs = readFileSync(join(root, 'src/corpus/extract-specs.ts'), 'utf8');
const grammars = [...new Set([...specs.matchAll(/grammar: '(\w+)'|jsSpec\('(\w+)'\)/g)].map((m) => m[1] ?? m[2]))].sort();
for (const g of grammars) copyFileSync(require.resolve(`tree-sitter-wasms/out/tree-sitter-${g}.wasm`), join(out, 'grammars', `tree-sitter-${g}.wasm`));
writeFileSync(join(out, 'README.md'),
  '# action/bundle\n\nMade by `npm run build:action` (action/build.mjs); do not edit. The GitHub Action (action.yml) runs index.mjs.\n' +
  'Grammars: tree-sitter-wasms (Unlicense); tree-sitter.wasm: web-tree-sitter (MIT); licenses of bundled packages at the end of index.mjs.\n');
