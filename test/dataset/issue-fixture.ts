/** Issues for dataset tests. */
import type { Issue } from '../../src/issues/types.js';

/** A minimal Fixed Bug issue with id `id` (override any field). */
export function issue(id: string, extra: Partial<Issue> = {}): Issue {
  return {
    id, title: `title of ${id}`, body: 'body', bodyRaw: 'body', bodyFormat: 'text', type: 'Bug', category: 'Bug',
    created: '2019-12-01T00:00:00.000Z', resolved: null, labels: [], status: 'Closed', resolution: 'Fixed', origin: `test:${id}`, ...extra,
  };
}
