/**
 * The last step of result assembly, shared by every ranker (the lexical `Localizer`, the learned
 * `ModelRanker`): the items shown get the issue terms they match and the signals that raised
 * them, from the document that placed each item (its best function-level document), or, for a
 * function-less file, from its file-level document.
 */
import type { QueryTerms } from './bm25f.js';
import type { RankedItem, ScoredFile } from './rollup.js';
import type { SignalName } from './signals.js';

/** What annotation reads of a ranker's index: the lexical `Localizer` is one. */
export interface TermMatcher {
  codeIndex: { fileOfUnit: Uint32Array };
  /** The issue terms function-level document `doc` holds (at most `limit`, highest idf first). */
  matchedTerms(doc: number, query: QueryTerms, limit: number): string[];
  /** The same for file-level document `file`. */
  matchedFileTerms(file: number, query: QueryTerms, limit: number): string[];
}

/** The document behind a shown item, and the signals that raised it. */
export interface ItemSource {
  /** Function-level document (index into `CodeIndex.units`). */
  doc: number;
  signals?: SignalName[];
  /** What in the issue fired each of `signals` (same order). */
  evidence?: string[];
}

/** One level's shown items and where each came from. */
export interface AnnotatedLevel {
  items: RankedItem[];
  /** A file level: its items list the terms of their whole file, not of one function. */
  wholeFile: boolean;
  /** The source of an item (undefined: a function-less file, looked up in `functionless`). */
  sourceOf: (id: string) => ItemSource | undefined;
}

/**
 * Sets `matchedTerms` (at most `perItem`, highest idf first), `signals` and `evidence` on the
 * items of each level, in place. An item whose source is unknown and that is a function-less
 * file of `functionless` (by path) gets its file's terms and its file-level signals.
 */
export function annotateItems(
  localizer: TermMatcher,
  query: QueryTerms,
  perItem: number,
  levels: readonly AnnotatedLevel[],
  functionless: ReadonlyMap<string, ScoredFile>,
): void {
  if (perItem <= 0) return;
  const fileOf = localizer.codeIndex.fileOfUnit;
  const memo = new Map<number, string[]>();
  for (const { items, wholeFile, sourceOf } of levels) {
    for (const it of items) {
      const source = sourceOf(it.id);
      if (!source) {
        const bare = functionless.get(it.id);
        if (!bare) continue;
        it.matchedTerms = localizer.matchedFileTerms(bare.file, query, perItem);
        if (bare.signals) { it.signals = bare.signals; it.evidence = bare.evidence; }
        continue;
      }
      if (wholeFile) {
        it.matchedTerms = localizer.matchedFileTerms(fileOf[source.doc], query, perItem);
      } else {
        let t = memo.get(source.doc);
        if (!t) memo.set(source.doc, (t = localizer.matchedTerms(source.doc, query, perItem)));
        it.matchedTerms = t;
      }
      if (source.signals) { it.signals = source.signals; it.evidence = source.evidence; }
    }
  }
}
