import { Command } from 'commander';
import { cacheDirFor } from '../index/cache-dir.js';
import { ADAPT_DEFAULTS, type AdaptedTraining } from '../ltr/adapt.js';
import { adaptedModel } from '../ltr/adapted-models.js';
import { GitRepo } from '../repo/git.js';
import { progressBar } from '../util/progress-bar.js';
import { indexOptions, parseIndexSettings, wholeOption } from './options.js';

/**
 * `issueloc adapt`: adapt the built-in model to a repository's own history before a base commit
 * (src/ltr/adapt.ts) and keep it in the cache, for `localize --model repo` (`repo@REV`).
 */
export function registerAdaptCommand(program: Command): void {
  const cmd = program
    .command('adapt')
    .description("train the ranking model on the repository's own commit history before a base commit (for localize --model repo)")
    .option('--repo <path>', 'git repository (work tree or bare)', '.')
    .option('--rev <rev>', 'base commit: only its ancestors are learned from (any git revision)', 'HEAD')
    .option('--commits <n>', `most recent commits used as training examples (default ${ADAPT_DEFAULTS.limit})`, wholeOption('--commits', 1, 100_000))
    .option('--force', 'train again even when the cache holds the model')
    .option('--json', 'one JSON object: commit, model, trained, fromCache, seconds, commits (mined), examples, level, trees, holdOut (the same fields when read from the cache)')
    .option('--no-progress', 'no progress bar on stderr');
  indexOptions(cmd);
  cmd.action(async (o) => {
    const index = parseIndexSettings(o);
    const repo = await GitRepo.open(o.repo);
    try {
      const base = await repo.resolveCommit(o.rev);
      if (repo.isShallow) process.stderr.write(`issueloc: warning: ${o.repo} is a shallow clone: only the commits after its cut are learned from (git fetch --unshallow for the whole history)\n`);
      const cacheDir = cacheDirFor(repo, o.cacheDir);
      const bar = progressBar('adapting: features of past commits', o.progress);
      const got = await adaptedModel(repo, base, {
        cacheDir, index, force: o.force, settings: o.commits !== undefined ? { limit: o.commits } : {},
        onProgress: (step, done, total) => { if (step === 'features') bar.update(done, total); },
        onWarning: (m) => process.stderr.write(`issueloc: warning: ${m}\n`),
      }).finally(() => bar.stop());
      const adapted = got.model.file.training?.adapted as AdaptedTraining;
      const t = got.trained;
      // the same fields trained now or read from the cache (training.adapted of the model file)
      const summary = {
        commit: base, model: got.file, trained: t !== undefined, fromCache: t === undefined, seconds: t ? Math.round(t.millis) / 1000 : 0,
        commits: adapted.mined ?? null, examples: adapted.pseudoIssues, level: adapted.level, trees: adapted.trees, holdOut: adapted.holdOut,
      };
      if (o.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else {
        const how = adapted.pseudoIssues < ADAPT_DEFAULTS.minExamples
          ? `fewer than ${ADAPT_DEFAULTS.minExamples} usable past commits: the model is the built-in one`
          : adapted.trees === 0
          ? 'no added tree beat the built-in model on the newest held-out commits: the model is the built-in one'
          : `${adapted.trees} trees (${adapted.level} level) added to the built-in model; held-out MAP ${adapted.holdOut.builtIn} -> ${adapted.holdOut.adapted}`;
        process.stdout.write(`${t ? `adapted in ${summary.seconds} s` : 'already adapted'} at ${base.slice(0, 12)}: ${adapted.pseudoIssues} past commits as examples; ${how}\n` +
          `model: ${got.file}\n`);
      }
    } finally {
      await repo.close();
    }
  });
}
