import type { DatasetRecord } from '../../src/dataset/record.js';

/** A Python function whose comment holds `words` (the fixtures' unit of text). */
export const pyFunction = (name: string, words: string): string => `def ${name}(x):\n    # ${words}\n    return x\n\n\n`;

/** A dataset record of repository `test/app` at `commit` whose positives are `path:function` ids. */
export function trainingRecord(commit: string, id: string, title: string, body: string, positives: string[]): DatasetRecord {
  return {
    issue: { id, title, body, bodyRaw: body, type: 'Bug', category: 'Bug', created: null, resolved: null, labels: [] },
    repo: 'test/app', commits: [], aprioriCommit: commit, positives: [...new Set(positives.map((p) => p.split(':')[0]))],
    positiveFunctions: positives, candidates: 4, variant: 'test', provenance: {},
  };
}
