/**
 * Plain BM25 over whole files, the yardstick of the multi-language bench: one document per
 * file of the base commit — by default each source file the code index would take (a code
 * extension, vendored folders left out: `isSourceFile`), with `files: 'all'` every regular text
 * file (docs, manifests, changelogs too); binary files, blobs missing from the snapshot and files
 * over `maxFileBytes` left out, test files too unless `includeTests` — its text = the path, a
 * newline, and the file's content, tokenized as the reference evaluator does (runs of
 * `[A-Za-z0-9_]` split on `_` and camelCase, whole identifier kept, lower-cased, no stemming,
 * NLTK stop words). BM25 with k1 1.2, b 0.75, no lower bound (δ 0), idf ln(1 + (N − n + .5) / (n + .5)),
 * query terms weighted by their count in the issue; ties in path order.
 *
 * Term counts are kept per (path, blob) for the life of the object (one repository's run):
 * consecutive base commits share most files, so each is read and tokenized once.
 */
import { decodeSource, isBinary } from '../../src/corpus/decode.js';
import { isTestPath } from '../../src/corpus/languages.js';
import { isSourceFile } from '../../src/corpus/select.js';
import { commitInfo, stateFiles } from '../../src/eval/state-files.js';
import type { GitRepo } from '../../src/repo/git.js';
import { Bm25fFileRetriever } from '../../src/retrieve/file-retrievers/bm25f.js';
import { bagOf, FileCorpusBuilder, Vocabulary, type TermBag } from '../../src/retrieve/file-retrievers/corpus.js';
import { rankFiles } from '../../src/retrieve/file-retrievers/types.js';
import { createTokenizer, termFrequencies } from '../../src/text/tokenize.js';

/** Options of {@link WholeFileBm25}. */
export interface WholeFileBm25Options {
  /** `source` (default): the source files of the code index's rule; `all`: every text file. */
  files?: 'source' | 'all';
  /** Index test files too (default false: gold files are never test files). */
  includeTests?: boolean;
  /** Files larger than this many bytes are left out (default 1 MiB, as the code index). */
  maxFileBytes?: number;
}

/** Plain BM25 over the whole files of one repository's base commits (see the module comment). */
export class WholeFileBm25 {
  private readonly vocabulary = new Vocabulary();
  private readonly tokenizer = createTokenizer({ lowercase: true, stem: false, splitIdentifiers: true });
  /** `path\0blob` → the document's terms; null = left out (binary, missing, too large). */
  private readonly bags = new Map<string, TermBag | null>();
  private readonly keep: (path: string) => boolean;
  private readonly maxBytes: number;

  constructor(private readonly repo: GitRepo, opts: WholeFileBm25Options = {}) {
    const includeTests = opts.includeTests ?? false;
    this.keep = (opts.files ?? 'source') === 'source'
      ? (path) => isSourceFile(path, { includeTests, includeVendored: false })
      : (path) => includeTests || !isTestPath(path);
    this.maxBytes = opts.maxFileBytes ?? 1 << 20;
  }

  /**
   * Every retrieved file of `commit` for `issueText`, best first (files sharing no term with
   * the issue are not retrieved).
   * @throws Error when the commit is not in the repository.
   */
  async rank(commit: string, issueText: string): Promise<string[]> {
    const info = await commitInfo(this.repo, commit);
    if (!info) throw new Error(`commit ${commit} is not in ${this.repo.gitDir}`);
    const files = (await stateFiles(this.repo, info)).filter((f) => this.keep(f.path));
    const keyOf = (f: { path: string; blob: string }) => `${f.path}\0${f.blob}`;
    const pending = files.filter((f) => !this.bags.has(keyOf(f)));
    if (pending.length > 0) {
      const paths = new Map<string, string[]>();
      for (const f of pending) paths.set(f.blob, [...(paths.get(f.blob) ?? []), f.path]);
      for await (const [blob, buf] of this.repo.readBlobs([...paths.keys()])) {
        const text = buf === null || buf.length > this.maxBytes || isBinary(buf) ? null : decodeSource(buf);
        for (const path of paths.get(blob) ?? []) {
          this.bags.set(`${path}\0${blob}`, text === null ? null : bagOf(this.tokenizer.tokenize(`${path}\n${text}`), this.vocabulary));
        }
      }
    }
    const builder = new FileCorpusBuilder(this.vocabulary, ['text']);
    for (const f of files) {
      const bag = this.bags.get(keyOf(f));
      if (bag) builder.add(f.path, keyOf(f), [bag]);
    }
    const corpus = builder.build();
    const retriever = new Bm25fFileRetriever({ params: { k1: 1.2, b: 0.75, delta: 0, weights: [1] }, queryWeights: 'count', name: 'bm25' });
    retriever.index(corpus);
    return rankFiles(corpus, retriever.score(termFrequencies(this.tokenizer.tokenize(issueText))), false).map((r) => r.id);
  }
}
