/**
 * A labelled issue's candidates and features as one training (or evaluation) query.
 */
import type { FeatureExtractor } from './features/extract.js';
import type { IssueContext } from './labelled-issues.js';
import type { TrainingQuery } from './objective.js';

/** Extracts the candidates of the issue of `ctx` with their features and its gold items. */
export function trainingQueryOf(ctx: IssueContext, extractor: FeatureExtractor): TrainingQuery {
  const set = extractor.extract(ctx.parsed, ctx.history());
  return {
    id: ctx.issue.id,
    repo: ctx.issue.repo,
    n: set.docs.length,
    features: set.features,
    ids: set.ids,
    paths: set.paths,
    modules: set.modules,
    gold: ctx.issue.gold,
    otherFiles: set.otherFiles.map((f) => ({ path: ctx.codeIndex.filePaths[f.file], score: set.pipelineScores[0] > 0 ? Math.fround(f.score / set.pipelineScores[0]) : 0 })), // as the float32 `pipeline` feature
  };
}
