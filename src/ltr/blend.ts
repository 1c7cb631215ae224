/**
 * A blend of ranking models: score = Σ_m share_m · score_m, as one model file (linear weights
 * added, each ensemble's leaves scaled by its share and learning rate into one ensemble of
 * learning rate 1), so a blend ranks exactly as the weighted sum of its parts and is read by any
 * reader of model files.
 */
import { IssuelocError } from '../errors.js';
import { FEATURES } from './features/registry.js';
import { RankingModel } from './model.js';
import { RegressionTree, TreeEnsemble } from './regression-tree.js';

/**
 * The blend of `parts` (shares > 0; they need not sum to 1). Every part must rank all levels
 * with one scorer (no own file or module scorer) and share the first part's candidates.
 * @throws IssuelocError for no part, a share that is not positive, a part with own level scorers,
 *   or parts with other candidate pipelines.
 */
export function blendModels(parts: readonly { model: RankingModel; share: number }[], training?: Record<string, unknown>): RankingModel {
  if (parts.length === 0) throw new IssuelocError('blend: no model');
  const candidates = JSON.stringify(parts[0].model.candidates);
  const weights: Record<string, number> = {};
  const trees: RegressionTree[] = [];
  for (const { model, share } of parts) {
    if (!(share > 0) || !Number.isFinite(share)) throw new IssuelocError(`blend: share must be a positive number, got ${share}`);
    if (model.file.levels || model.file.levelTrees) throw new IssuelocError('blend: a model with own file or module scorers cannot be blended');
    if (JSON.stringify(model.candidates) !== candidates) throw new IssuelocError('blend: the models make their candidates differently');
    for (const [name, w] of Object.entries(model.file.weights)) weights[name] = (weights[name] ?? 0) + share * w;
    const ensemble = model.scorers.function.ensemble;
    if (!ensemble) continue;
    const k = share * ensemble.learningRate;
    for (const t of ensemble.trees) trees.push(new RegressionTree(t.feature, t.threshold, t.left, t.right, t.value.map((v) => v * k)));
  }
  for (const name of Object.keys(weights)) if (weights[name] === 0) delete weights[name];
  return new RankingModel({
    weights,
    ...(trees.length > 0 ? { trees: new TreeEnsemble(1, trees).toJson(FEATURES) } : {}),
    candidates: parts[0].model.candidates,
    training: { ...blendProvenance(parts), ...training },
  });
}

/**
 * What a blend was trained on: each part's share and provenance (without its issue lists), and
 * the union of the parts' `repos` and `issueIds`, so benches that refuse a model's training
 * issues (bench/locbench.ts) refuse those of every part.
 */
function blendProvenance(parts: readonly { model: RankingModel; share: number }[]): Record<string, unknown> {
  const repos = new Set<string>();
  const issueIds = new Set<string>();
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const blend = parts.map(({ model, share }) => {
    const { repos: r, issueIds: ids, ...rest } = model.file.training ?? {};
    list(r).forEach((x) => repos.add(x));
    list(ids).forEach((x) => issueIds.add(x));
    return { share, ...rest };
  });
  return { blend, repos: [...repos].sort(), issueIds: [...issueIds] };
}
