/**
 * bench/docs-features: writes the feature table of docs/learning-to-rank.md from the feature
 * registry (src/ltr/features/registry.ts), so the docs list exactly the features the ranker has.
 *
 *   npm run docs:features                      # tsc, then rewrite the table in place
 *   node dist/bench/docs-features.js --check   # exit 1 when the table differs from the registry
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './lib/args.js';
import { withFeatureTable } from '../src/ltr/features/table.js';
import { writeFileAtomic } from '../src/util/atomic-write.js';

const { values: args, positionals } = benchArgs({ options: { check: { type: 'boolean', default: false } }, allowPositionals: true });
const file = positionals[0] ?? fileURLToPath(new URL('../../docs/learning-to-rank.md', import.meta.url));

try {
  const old = readFileSync(file, 'utf8');
  const updated = withFeatureTable(old);
  if (args.check) {
    if (updated !== old) {
      process.stderr.write(`docs-features: the feature table of ${file} differs from the registry: run npm run docs:features\n`);
      process.exitCode = 1;
    }
  } else if (updated !== old) {
    writeFileAtomic(file, [updated]);
    process.stdout.write(`docs-features: wrote the feature table of ${file}\n`);
  }
} catch (e) {
  process.stderr.write(`docs-features: ${file}: ${(e as Error).message}\n`);
  process.exitCode = 2;
}
