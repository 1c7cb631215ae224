/**
 * issueloc as a library: software issue localisation. {@link openLocalizer} ranks the files,
 * modules and functions of a git repository that an issue needs changed (lexical BM25F+ →
 * optional dense fusion → optional learned model → optional LLM rerank); the dataset, evaluation
 * and training entry points below are the ones the `issueloc` commands run.
 *
 * @example
 * import { openLocalizer } from 'issueloc';
 * const localizer = await openLocalizer({ repo: '.', model: 'default' });
 * const { files } = await localizer.localize('Crash in parse_date\nparse_date("") raises IndexError');
 * await localizer.close();
 */
export {
  openLocalizer, checkIssueText,
  type IssueLocalizer, type LocalizerOptions, type LocalizeCallOptions, type LocalizeResult, type IndexInfo, type EndpointOptions, type EmbedderInfo,
} from './pipeline/localizer.js';
export { STAGES, checkChain, type StageName } from './pipeline/stages.js';
export type { RankingOptions } from './retrieve/localize.js';
export { DEFAULT_RANKING } from './retrieve/localize.js';
export type { Localization, RankedItem } from './retrieve/rollup.js';
export { DEFAULT_INDEX_SETTINGS, type IndexSettings } from './index/code-index.js';
export type { IssueSignals } from './text/issue-signals.js';
export { extractIssueSignals } from './text/issue-signals.js';
export { parseIssue, type ParsedIssue, type ParsedIssueFormat } from './text/parsed-issue.js';
export type { Embedder, EmbedRole } from './embed/embedder.js';
export { EMBEDDER_PRESETS, type EmbedderPreset } from './embed/presets.js';
export type { ChatModel, ChatRequest, ChatAnswer } from './llm-rerank/chat-model.js';
export type { RerankStats } from './llm-rerank/listwise.js';
export { RankingModel, DEFAULT_MODEL_PATH } from './ltr/model.js';
export { IssuelocError } from './errors.js';
export { packageVersion } from './version.js';

// datasets: mining issue → fix links from git history, importing benchmarks, reading records
export { buildDataset, type BuildOptions, type BuildResult } from './dataset/build.js';
export { addFunctionLevel, type FunctionLevelOptions } from './dataset/build-functions.js';
export { runImport, IMPORT_SOURCES, type RunImportOptions, type ImportRun } from './dataset/import/run.js';
export { readDataset } from './dataset/read.js';
export type { DatasetRecord } from './dataset/record.js';
export { readIssues, ISSUE_FORMATS, type ReadIssuesOptions } from './issues/read.js';

// evaluation: IR baselines on a temporal split, the metrics of "file localisation for issues at large"
export { runEvaluation, type EvalOptions, type EvalRun } from './eval/run-eval.js';
export {
  accAtK, hitAtK, precisionAtK, recallAtK, rPrecision, reciprocalRank, averagePrecision, evaluateQuery, aggregate,
} from './metrics/ranking-metrics.js';

// learning to rank: training queries from labelled issues, fitting a model
export { collectQueries, fitModel, type CollectOptions, type FitOptions, type FitResult } from './ltr/train.js';
export { labelledIssueOf, type LabelledIssue } from './ltr/labelled-issues.js';
