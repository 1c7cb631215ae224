import { Command, Option } from 'commander';
import { IssuelocError } from '../errors.js';
import { GitRepo } from '../repo/git.js';
import { cacheDirFor } from '../index/cache-dir.js';
import { cacheMaxBytes } from '../index/cache-usage.js';
import { readDataset } from '../dataset/read.js';
import { toJsonl } from '../dataset/output.js';
import { exportTraining } from '../training-data/export.js';
import { CONTRASTIVE_FORMATS, contrastiveJsonl, contrastiveRows, listwiseJsonl, type ContrastiveFormat } from '../training-data/formats.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { indexOptions, parseIndexSettings, rankingOptions, wholeOption } from './options.js';
import { parseRankingOptions } from '../retrieve/ranking-spec.js';
import { retrievalOptions, stageSettings } from './retrieval-options.js';
import { checkChain } from '../pipeline/stages.js';
import { openEmbedderStage } from '../pipeline/localizer.js';
import { progressBar } from '../util/progress-bar.js';

/** `x.jsonl` → `x.listwise.jsonl` and `x.dropped.jsonl`. */
function besideOut(out: string, tag: string): string {
  return `${out.replace(/\.jsonl$/i, '')}.${tag}.jsonl`;
}

/** `issueloc export-training`: contrastive and listwise training data from a mined dataset. */
export function registerExportTrainingCommand(program: Command): void {
  const cmd = program
    .command('export-training')
    .description('training data in the SweLoc manner: issue as query, changed functions as positives, retriever hard negatives')
    .requiredOption('--dataset <file>', 'dataset JSONL (issueloc dataset build)')
    .requiredOption('--repo <path>', 'the git repository of the dataset')
    .requiredOption('-o, --out <file>', 'contrastive JSONL in --format; the listwise file and dropped issues go beside it')
    .addOption(new Option('--format <name>', 'contrastive file layout: issueloc (mined examples with ids), sentence-transformers (anchor, positive, negative_1..n), flagembedding (query, pos, neg)')
      .choices([...CONTRASTIVE_FORMATS]).default('issueloc'))
    .option('--listwise-out <file>', 'listwise JSONL for reranker training (default <out>.listwise.jsonl)')
    .option('--negatives <n>', 'hard negatives per issue', wholeOption('--negatives', 1), 10)
    .option('--filter-top <n>', 'keep an issue only when a positive ranks within this many (0 = keep all)', wholeOption('--filter-top', 0), 20)
    .option('--window <n>', 'candidates per listwise example', wholeOption('--window', 1), 10)
    .option('--no-progress', 'no progress bar on stderr');
  indexOptions(cmd);
  rankingOptions(cmd);
  retrievalOptions(cmd, { rerank: false });
  cmd.action(async (o, command: Command) => {
    const stages = stageSettings(o, command);
    const dense = stages.embedder !== undefined && stages.embedder !== 'none';
    checkChain({ dense, model: false, rerank: false, denseSettings: stages.settingNames?.dense, endpointSettings: stages.settingNames?.endpoint });
    const format = o.format as ContrastiveFormat;
    // FlagEmbedding's loader skips, without a word, a --train_data file not named *.json or *.jsonl.
    if (format === 'flagembedding' && !/\.jsonl?$/i.test(o.out)) throw new IssuelocError(`--format flagembedding: the output ${o.out} must end in .jsonl or .json (FlagEmbedding ignores other files)`);
    const records = readDataset(o.dataset);
    if (records.length === 0) throw new IssuelocError(`no records in ${o.dataset}`);
    const repo = await GitRepo.open(o.repo);
    const cacheDir = cacheDirFor(repo, o.cacheDir);
    const embedder = await openEmbedderStage(stages, (m) => process.stderr.write(`issueloc: warning: ${m}\n`));
    const bar = progressBar('exporting', o.progress);
    try {
      const { contrastive, listwise, dropped } = await exportTraining(records, repo, {
        cacheDir, maxCacheBytes: cacheMaxBytes(o.cacheMaxSize), settings: parseIndexSettings(o), ranking: parseRankingOptions(o),
        embedder, fusion: stages.fusion !== undefined ? { method: stages.fusion } : {},
        negatives: o.negatives, filterTop: o.filterTop, listwiseSize: o.window, onProgress: bar.update,
      });
      bar.stop();
      const limits = { negatives: o.negatives };
      const rows = contrastiveRows(contrastive, format, limits);
      // Every file is checked against its format before any is renamed into place.
      const texts = { contrastive: contrastiveJsonl(rows.rows, format, limits), listwise: listwiseJsonl(listwise) };
      const allDropped = [...dropped, ...rows.dropped];
      writeFileAtomic(besideOut(o.out, 'dropped'), [toJsonl(allDropped)]);
      writeFileAtomic(o.listwiseOut ?? besideOut(o.out, 'listwise'), [texts.listwise]);
      writeFileAtomic(o.out, [texts.contrastive]);
      const exported = contrastive.length - rows.dropped.length;
      process.stderr.write(`issueloc: ${exported} of ${records.length} issues exported (${allDropped.length} dropped: see ${besideOut(o.out, 'dropped')})\n`);
      if (exported === 0) process.exitCode = 1;
    } finally {
      bar.stop();
      await embedder?.close?.();
      await repo.close();
    }
  });
}
