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
  /** Per function-level document of `docs`, the issue terms it holds (at most `limit`, highest idf first). */
  matchedTerms(docs: readonly number[], query: QueryTerms, limit: number): string[][];
  /** The same for file-level documents `files`. */
  matchedFileTerms(files: readonly number[], query: QueryTerms, limit: number): string[][];
  /** Whether each function-level document of `docs` holds `term` as `matchedTerms` shows it. */
  holdsTerm(docs: readonly number[], term: string): boolean[];
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
  // each item's document (function- or file-level), then the terms of every such document at once
  const fnDocs = new Map<number, number>();
  const fileDocs = new Map<number, number>();
  const slotOf = (docs: Map<number, number>, d: number) => {
    let k = docs.get(d);
    if (k === undefined) docs.set(d, (k = docs.size));
    return k;
  };
  const wanted: { item: RankedItem; wholeFile: boolean; slot: number; from: ItemSource | ScoredFile }[] = [];
  for (const { items, wholeFile, sourceOf } of levels) {
    for (const it of items) {
      const source = sourceOf(it.id);
      if (!source) {
        const bare = functionless.get(it.id);
        if (!bare) continue;
        wanted.push({ item: it, wholeFile: true, slot: slotOf(fileDocs, bare.file), from: bare });
        continue;
      }
      wanted.push({ item: it, wholeFile, slot: wholeFile ? slotOf(fileDocs, fileOf[source.doc]) : slotOf(fnDocs, source.doc), from: source });
    }
  }
  const fnTerms = fnDocs.size > 0 ? localizer.matchedTerms([...fnDocs.keys()], query, perItem) : [];
  const fileTerms = fileDocs.size > 0 ? localizer.matchedFileTerms([...fileDocs.keys()], query, perItem) : [];
  // a function-level document's list is shared by its items; a file's is each item's own
  for (const { item, wholeFile, slot, from } of wanted) {
    item.matchedTerms = wholeFile ? [...fileTerms[slot]] : fnTerms[slot];
    if (from.signals) { item.signals = from.signals; item.evidence = from.evidence; }
  }
}
