/**
 * SimiScore from a dataset of earlier issues (Zhou, Zhang & Lo 2012, "Where should the bugs be
 * fixed?", ICSE, Eq. 7; Ye et al. 2014's collaborative-filtering feature f3): files fixed for
 * earlier issues whose text resembles the new one.
 */
import { createHash } from 'node:crypto';
import { tokenize } from '../text/tokenize.js';
import type { ParsedIssue } from '../text/parsed-issue.js';
import { CosineIndex, simiScore } from './similarity.js';

/** An earlier issue: its text, when it was reported, and the files its fix changed. */
export interface EarlierIssue {
  id: string;
  /** Title and body. */
  text: string;
  /** Report time, milliseconds since the epoch. */
  time: number;
  files: readonly string[];
}

/**
 * Similar earlier issues of a dataset. Only issues reported strictly before the query issue
 * count, both as matches and in the term weights (idf over the earlier issues alone), so a
 * query never sees its own fix or a later issue, and adding later issues to the dataset changes
 * nothing for it.
 */
export class SimilarIssues {
  private readonly index: CosineIndex;

  /**
   * @param issues the dataset (issues with an unknown time, NaN, are left out).
   * @param top similar issues summed per query (default 50).
   */
  constructor(private readonly issues: readonly EarlierIssue[], private readonly top = 50) {
    this.index = new CosineIndex(issues.map((i) => tokenize(i.text)));
  }

  private earlierThan(time: number): Uint8Array {
    const mark = new Uint8Array(this.issues.length);
    for (let i = 0; i < this.issues.length; i++) mark[i] = this.issues[i].time < time ? 1 : 0;
    return mark;
  }

  /**
   * SimiScore of each file for an issue reported at `time` (ms since the epoch).
   * @returns path → score (absent = 0); empty when no earlier issue is similar.
   */
  scores(issue: ParsedIssue, time: number): Map<string, number> {
    const hits = this.index.similar(issue.tokens(false), this.top, { within: this.index.collection(this.earlierThan(time)) });
    return simiScore(hits, (i) => this.issues[i].files);
  }

  /**
   * A digest (hex) of everything {@link scores} reads for an issue reported at `time`: the
   * earlier issues' ids, times, texts and files, in the dataset's order. Equal digests give equal
   * scores; feature caches key on it.
   */
  digestBefore(time: number): string {
    this.digests ??= this.issues.map((i) => createHash('sha1').update(JSON.stringify([i.id, i.time, i.text, i.files])).digest());
    const h = createHash('sha1').update(String(this.top));
    const mark = this.earlierThan(time);
    this.digests.forEach((d, k) => {
      if (mark[k] === 1) h.update(d);
    });
    return h.digest('hex');
  }

  private digests: Buffer[] | undefined;
}
