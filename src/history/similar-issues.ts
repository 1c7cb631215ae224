/**
 * SimiScore from a dataset of earlier issues (Zhou, Zhang & Lo 2012, "Where should the bugs be
 * fixed?", ICSE, Eq. 7; Ye et al. 2014's collaborative-filtering feature f3): files fixed for
 * earlier issues whose text resembles the new one.
 */
import { tokenize } from '../text/tokenize.js';
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
 * count, so a query never sees its own fix or a later one.
 */
export class SimilarIssues {
  private readonly index: CosineIndex;
  private readonly allowed: Uint8Array;

  /**
   * @param issues the dataset (issues with an unknown time, NaN, are left out).
   * @param top similar issues summed per query (default 50).
   */
  constructor(private readonly issues: readonly EarlierIssue[], private readonly top = 50) {
    this.index = new CosineIndex(issues.map((i) => tokenize(i.text)));
    this.allowed = new Uint8Array(issues.length);
  }

  /**
   * SimiScore of each file for an issue reported at `time` (ms since the epoch).
   * @returns path → score (absent = 0); empty when no earlier issue is similar.
   */
  scores(text: string, time: number): Map<string, number> {
    for (let i = 0; i < this.issues.length; i++) this.allowed[i] = this.issues[i].time < time ? 1 : 0;
    const hits = this.index.similar(tokenize(text), this.top, this.allowed);
    return simiScore(hits, (i) => this.issues[i].files);
  }
}
