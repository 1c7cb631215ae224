/**
 * Extra weight of each token of the title (its first line) in the query: the summary is
 * the reporter's own short statement of the problem, weighed apart from the description as in
 * Saha et al. (2013, BLUiR: summary and description as separate queries) and Ye et al. (2014).
 * Chosen by measurement (docs/results.md): 2 raised the mean of the seven Acc@k figures on
 * SWE-bench Lite by 1.5 points and every Loc-Bench figure by 0.7–2.3. The query itself is the
 * parsed issue's (`ParsedIssue.queryTerms`, src/text/parsed-issue.ts).
 */
export const DEFAULT_TITLE_WEIGHT = 2;
