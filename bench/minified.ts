/**
 * bench/minified: time and memory to index one minified JavaScript file (all code on one line).
 *
 *   npx tsc -p tsconfig.json && node dist/bench/minified.js [--bytes 1000000] [--max-file-bytes N]
 *
 * Builds a temporary git repository holding one generated file of --bytes bytes (many functions,
 * classes and methods on one line: test/corpus/minified-js.ts), indexes it with an empty cache
 * and prints wall seconds, peak RSS, the number of function-level documents and the longest unit
 * text. Run it in a fresh process per figure (peak RSS is the process's).
 */
import { benchArgs } from './lib/args.js';
import { join } from 'node:path';
import { GitRepo } from '../src/repo/git.js';
import { indexCommit } from '../src/index/index-commit.js';
import { extractUnits } from '../src/corpus/extract.js';
import { cleanup, commitFiles, tempDir } from '../test/repo/git-fixture.js';
import { minifiedJs } from '../test/corpus/minified-js.js';

const { values: args } = benchArgs({
  options: {
    bytes: { type: 'string', default: '1000000' },
    'max-file-bytes': { type: 'string' },
  },
});

async function main(): Promise<void> {
  const bytes = Number(args.bytes);
  const text = minifiedJs(bytes);
  const dir = tempDir('issueloc-minified-');
  try {
    const commit = commitFiles(join(dir, 'repo'), { 'web/app.js': text });
    const repo = await GitRepo.open(join(dir, 'repo'));
    const maxFileBytes = args['max-file-bytes'] ? Number(args['max-file-bytes']) : undefined;
    const t0 = performance.now();
    const { codeIndex } = await indexCommit(repo, commit, { cacheDir: join(dir, 'cache'), settings: maxFileBytes ? { maxFileBytes } : {} });
    const seconds = (performance.now() - t0) / 1000;
    await repo.close();
    const t1 = performance.now();
    const units = await extractUnits('web/app.js', text);
    const extractSeconds = (performance.now() - t1) / 1000;
    let longest = 0;
    for (const u of units) if (u.kind !== 'file') longest = Math.max(longest, u.text.length);
    process.stdout.write(
      `minified JS, one line of ${text.length} bytes: index ${seconds.toFixed(2)} s, ` +
      `${codeIndex.units.length} function-level documents; extractUnits alone ${extractSeconds.toFixed(2)} s, ` +
      `${units.length} units, longest unit text ${longest} chars; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB\n`,
    );
  } finally {
    cleanup(dir);
  }
}

await main();
