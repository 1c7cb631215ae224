import { fileURLToPath } from 'node:url';
import type { OpenedIndex } from '../index/open-index.js';
import { RepoHistory } from '../history/repo-history.js';
import type { Localization } from '../retrieve/localize.js';
import { RankingModel } from '../ltr/model.js';
import { ModelRanker } from '../ltr/model-ranker.js';
import type { HistoryEvidence } from '../ltr/features.js';
import { extractIssueSignals } from '../text/issue-signals.js';

/** What `localize --model` reports besides the rankings. */
export interface ModelLocalization {
  localization: Localization;
  /** Milliseconds: reading the git history (first run on a repository), and the query itself. */
  historyMillis: number;
  queryMillis: number;
}

/**
 * The built-in model (src/ltr/default-model.json: trained on Loc-Bench issues of repositories
 * other than SWE-bench Lite's; docs/learning-to-rank.md), found at the same place relative to the
 * compiled code in a checkout and in the installed package (package.json `files` ships it).
 */
export const DEFAULT_MODEL_PATH = fileURLToPath(new URL('../../../src/ltr/default-model.json', import.meta.url));

/**
 * `localize --model FILE` (`--model default`: {@link DEFAULT_MODEL_PATH}): ranks with a learned model (src/ltr/) over an opened index. History
 * features are read from git (cached under the index cache folder) unless the model was trained
 * without them.
 * @throws IssuelocError for an unreadable or invalid model file, or when git cannot read the history.
 */
export async function localizeWithModel(opened: OpenedIndex, text: string, modelPath: string, top: number): Promise<ModelLocalization> {
  const model = RankingModel.load(modelPath === 'default' ? DEFAULT_MODEL_PATH : modelPath);
  const t0 = performance.now();
  let history: RepoHistory | undefined;
  if (model.file.training?.history !== false) {
    history = await RepoHistory.open(opened.repo.gitDir, [opened.commit], { cacheDir: opened.cacheDir });
    history.at(opened.commit);
  }
  const t1 = performance.now();
  const { codeIndex } = opened;
  const evidence: HistoryEvidence = history
    ? { files: history.at(opened.commit).files, messageScores: history.messageScores(opened.commit, text) }
    : {};
  const localization = new ModelRanker(codeIndex, model).localize(
    { signals: extractIssueSignals(text), text },
    evidence,
    { top },
  );
  return { localization, historyMillis: t1 - t0, queryMillis: performance.now() - t1 };
}
