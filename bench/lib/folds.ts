/** Folds of repositories for tuning without leaking issues of one repository across folds. */

/**
 * Repositories into k folds of similar issue counts: largest first, each to the emptiest fold
 * (ties: repository name). Empty folds (k above the number of repositories) are dropped.
 * @returns the items of each fold, in the order repositories were assigned.
 */
export function repositoryFolds<T extends { repo: string }>(items: readonly T[], k: number): T[][] {
  const byRepo = new Map<string, T[]>();
  for (const i of items) byRepo.set(i.repo, [...(byRepo.get(i.repo) ?? []), i]);
  const folds: T[][] = Array.from({ length: k }, () => []);
  const repos = [...byRepo].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  for (const [, list] of repos) {
    const f = folds.reduce((best, fold, at) => (fold.length < folds[best].length ? at : best), 0);
    folds[f].push(...list);
  }
  return folds.filter((f) => f.length > 0);
}
