import { Command } from 'commander';
import { openIndex, type OpenedIndex } from '../index/open-index.js';
import { IssuelocError } from '../errors.js';
import { addToUsageEstimate, cacheMaxBytes } from '../index/cache-usage.js';
import { indexOptions, parseIndexSettings } from './options.js';
import { progressBar } from '../util/progress-bar.js';
import { openCommitHistory } from '../history/commit-history.js';
import { readCoChange } from '../history/co-change.js';
import { DEFAULT_PERIPHERAL_PLACEMENT, PeripheralRule } from '../retrieve/peripheral.js';
import { docsByNameOf, storeDocsByNameAt } from '../retrieve/unit-lookup.js';
import { indexFilePath } from '../index/code-index.js';

/** `issueloc index`: build (or refresh) the index of a commit ahead of time. */
export function registerIndexCommand(program: Command): void {
  const cmd = program
    .command('index')
    .description('build the index of a commit ahead of time (localize reuses it)')
    .option('--repo <path>', 'git repository (work tree or bare)', '.')
    .option('--rev <rev>', 'commit to index (any git revision)', 'HEAD')
    .option('--force', 'rebuild even if an index exists, re-parsing every file')
    .option('--json', 'machine output')
    .option('--no-history', 'do not prepare the history signals of the commit (the first localize with the model then reads them)')
    .option('--no-progress', 'no progress bar on stderr');
  indexOptions(cmd);
  cmd.action(async (o) => {
    const bar = progressBar('indexing', o.progress);
    const opened = await openIndex(o.repo, {
      rev: o.rev, cacheDir: o.cacheDir, settings: parseIndexSettings(o), force: o.force, onProgress: bar.update, maxCacheBytes: cacheMaxBytes(o.cacheMaxSize),
    });
    bar.stop();
    try {
      // what the first localize needs besides the index: the history signals the model and the placements read
      if (o.history) await prepareHistory(opened.repo, opened.commit, opened.cacheDir, o.progress);
      await prepareGenerated(opened);
      prepareNameTable(opened);
    } finally {
      await opened.repo.close();
    }
    const { stats, nonSource } = opened.codeIndex;
    const summary = {
      commit: opened.commit, cacheDir: opened.cacheDir, built: opened.built, seconds: Math.round(opened.millis) / 1000,
      files: stats.files, documents: stats.units, ...(nonSource ? { nonSourceFiles: nonSource.paths.length } : {}),
      parsedBlobs: stats.parsedBlobs, cachedBlobs: stats.cachedBlobs, skipped: stats.skipped,
    };
    if (o.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
    else {
      const skipped = Object.entries(stats.skipped).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
      process.stdout.write(
        `${opened.built ? 'indexed' : 'already indexed'} ${opened.commit.slice(0, 12)}: ${stats.files} files, ${stats.units} documents` +
        `${nonSource ? `, ${nonSource.paths.length} files that are not source code` : ''} ` +
        `in ${summary.seconds} s (${stats.parsedBlobs} blobs parsed, ${stats.cachedBlobs} from cache)\n` +
        `skipped: ${skipped}\ncache: ${opened.cacheDir}\n`,
      );
    }
  });
}

/**
 * Stores the history signals of `commit` (file histories, commit-message index, recent
 * co-changes) in the cache folder, so the first `localize` after `index` pays only its query.
 * A history git cannot read gives one warning line: the index stays usable.
 */
async function prepareHistory(repo: OpenedIndex['repo'], commit: string, cacheDir: string, progress: boolean): Promise<void> {
  const bar = progressBar('reading git history', progress);
  try {
    await openCommitHistory(repo.gitDir, commit, { cacheDir, onProgress: bar.update });
    await readCoChange(repo, commit, { cacheDir });
  } catch (e) {
    if (!(e instanceof IssuelocError)) throw e;
    process.stderr.write(`issueloc: warning: history signals not prepared: ${e.message}\n`);
  } finally {
    bar.stop();
  }
}

/**
 * Stores which source files of the index say they were generated (read from their heads), so a
 * `localize` reads no file head from git. A cache folder that cannot take the list gives one
 * warning line: `localize` then reads the heads it needs.
 */
async function prepareGenerated(opened: OpenedIndex): Promise<void> {
  try {
    await new PeripheralRule(opened.codeIndex, DEFAULT_PERIPHERAL_PLACEMENT, opened.repo, opened.cacheDir).prepare();
  } catch (e) {
    if (!(e instanceof IssuelocError) && typeof (e as NodeJS.ErrnoException).code !== 'string') throw e;
    process.stderr.write(`issueloc: warning: generated files not listed: ${(e as Error).message}\n`);
  }
}

/**
 * Stores the index's table of functions by name (src/retrieve/unit-lookup.ts) beside it, so a
 * `localize` reads it instead of making it; a cache folder that cannot take it keeps none (each
 * `localize` then makes it).
 */
function prepareNameTable(opened: OpenedIndex): void {
  const { codeIndex } = opened;
  const { commit, settings } = codeIndex;
  const { cacheDir } = opened;
  storeDocsByNameAt(codeIndex.table, indexFilePath(cacheDir, commit, settings, 'names'), indexFilePath(cacheDir, commit, settings), (bytes) => addToUsageEstimate(cacheDir, bytes));
  docsByNameOf(codeIndex.table);
}
