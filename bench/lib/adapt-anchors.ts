/**
 * Where bench scripts adapt a model per repository: commits that are ancestors of every
 * evaluated issue's base commit, so that no evaluated issue's fix, nor anything after its base
 * commit, is learned from.
 */
import { join } from 'node:path';
import type { IndexSettings } from '../../src/index/code-index.js';
import type { AdaptSettings } from '../../src/ltr/adapt.js';
import { adaptedModel } from '../../src/ltr/adapted-models.js';
import type { LabelledIssue } from '../../src/ltr/labelled-issues.js';
import type { RankingModel } from '../../src/ltr/model.js';
import { GitRepo } from '../../src/repo/git.js';
import { mirrorPath } from '../../src/repo/mirrors.js';
import { progressBar } from '../../src/util/progress-bar.js';

/** An adaptation commit and the base commits (full SHAs) it serves. */
export interface AdaptAnchor {
  at: string;
  bases: string[];
}

/**
 * Groups `bases` (full SHAs) by common ancestry: each group's anchor is the merge base of its
 * members. A history with several roots (an imported project, a rewrite) can hold base commits
 * with no common ancestor: they get groups of their own. One group for a connected history;
 * groups in the order of their first member.
 */
export async function adaptAnchors(repo: GitRepo, bases: string[]): Promise<AdaptAnchor[]> {
  const anchors: AdaptAnchor[] = [];
  for (const base of bases) {
    let joined = false;
    for (const a of anchors) {
      const res = await repo.exec(['merge-base', a.at, base]);
      const at = res.stdout.toString('utf8').trim();
      if (res.code === 0 && at !== '') {
        a.at = at;
        a.bases.push(base);
        joined = true;
        break;
      }
    }
    if (!joined) anchors.push({ at: base, bases: [base] });
  }
  return anchors;
}

/** Options of {@link adaptPerRepository}. */
export interface AdaptPerRepositoryOptions {
  mirrors: string;
  /** Per repository, `<cacheDir>/<owner+name>` holds its adapted models (as the issue loop's caches). */
  cacheDir: string;
  index: Partial<IndexSettings>;
  featuresCache?: string;
  settings?: Partial<AdaptSettings>;
  /** Show progress bars on stderr. */
  progress: boolean;
  /** Prefix of warnings on stderr (the script's name). */
  name: string;
}

/**
 * The built-in model adapted to each repository's own history (src/ltr/adapted-models.ts), at
 * the anchors of {@link adaptAnchors}: per evaluated issue (by id), the model its ranking uses,
 * and one report line per adaptation. An issue whose repository or base commit cannot be read
 * has no entry (the caller ranks it with the built-in model).
 */
export async function adaptPerRepository(issues: LabelledIssue[], opts: AdaptPerRepositoryOptions): Promise<{ models: Map<string, RankingModel>; info: string[] }> {
  const models = new Map<string, RankingModel>();
  const info: string[] = [];
  const byRepo = new Map<string, LabelledIssue[]>();
  for (const i of issues) byRepo.set(i.repo, [...(byRepo.get(i.repo) ?? []), i]);
  for (const [name, list] of byRepo) {
    const path = list[0].repoPath ?? mirrorPath(opts.mirrors, name);
    if (!path) continue;
    const repo = await GitRepo.open(path);
    try {
      const shaOf = new Map<string, string>();
      for (const i of list) shaOf.set(i.id, await repo.resolveCommit(i.commit).catch(() => ''));
      const bases = [...new Set(shaOf.values())].filter(Boolean);
      for (const { at, bases: served } of await adaptAnchors(repo, bases)) {
        const bar = progressBar(`adapting ${name} at ${at.slice(0, 12)}`, opts.progress);
        const got = await adaptedModel(repo, at, {
          cacheDir: join(opts.cacheDir, name.replace('/', '+')), index: opts.index, featuresCache: opts.featuresCache, settings: opts.settings,
          onProgress: (step, done, total) => { if (step === 'features') bar.update(done, total); },
          onWarning: (m) => process.stderr.write(`${opts.name}: warning: adapt ${name}: ${m}\n`),
        }).finally(() => bar.stop());
        const set = new Set(served);
        const mine = list.filter((i) => set.has(shaOf.get(i.id)!));
        for (const i of mine) models.set(i.id, got.model);
        const a = got.model.file.training?.adapted as Record<string, unknown>;
        info.push(`${name || path}: adapted at ${at.slice(0, 12)}${served.includes(at) ? ' (the oldest base commit)' : ''} for ${mine.length} issues with ${served.length} base commits; ` +
          `${got.trained ? `${got.trained.mined} commits mined, trained in ${(got.trained.millis / 1000).toFixed(1)} s` : 'from the cache'}; ${JSON.stringify(a)}`);
      }
    } finally {
      await repo.close();
    }
  }
  return { models, info };
}
