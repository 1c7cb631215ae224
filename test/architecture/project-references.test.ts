import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { repositoryRoot } from './layer-rules.js';

/**
 * The code and the docs speak of the project alone: no number of the project's issue tracker
 * ("issue 12", "issues 4, 13": say what was done, or link the doc), no path outside the
 * repository (`../shared/…`, `shared/data/…`) and no folder of one machine (`/work/…`): commands
 * use placeholders (`DATA`, `MIRRORS`, `OUT`). Another tracker's issue named as such
 * ("GitHub issue 123", "Jira issue 7") is fine.
 */
const FORBIDDEN: readonly { what: string; pattern: RegExp }[] = [
  { what: 'a number of the project\'s issue tracker', pattern: /(?<!\b(?:GitHub|Jira|Bugzilla|upstream)\s)\bissues?\s+#?\d+\b(?![/\d])/gi },
  { what: 'a path outside the repository', pattern: /\.\.\/shared\b|\bshared\/(?:data|tools|docs)\b/g },
  { what: 'a folder of one machine', pattern: /\/work\//g },
];

/** Files exempt, each with its reason. */
const EXEMPT: Readonly<Record<string, string>> = {
  // the built-in model records the dataset it was trained from as `issueloc train` wrote it;
  // editing it would change the shipped model file
  'src/ltr/default-model.json': 'training provenance written by issueloc train',
};

const root = repositoryRoot(import.meta.url);

/** Text files below `dir`, repository-relative. */
function textFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|md|json|txt)$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** `file:line: what: the matched text` for every forbidden reference in `text`. */
function findings(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const f of FORBIDDEN) {
      for (const m of line.matchAll(f.pattern)) out.push(`${file}:${i + 1}: ${f.what}: "${m[0]}"`);
    }
  });
  return out;
}

test('src/ and docs/ name no issue number of the project, no path outside the repository, no machine folder', () => {
  const files = [...textFiles('src'), ...textFiles('docs'), 'ARCHITECTURE.md'].filter((f) => !(f in EXEMPT));
  assert.ok(files.length > 150, `only ${files.length} files read`);
  const found = files.flatMap((f) => findings(f, readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(found, [], `replace these with in-repo links or plain descriptions, and commands' folders with DATA, MIRRORS, OUT:\n${found.join('\n')}`);
});

test('the patterns catch the project\'s references and leave other wording alone', () => {
  const flagged = (s: string) => findings('x', s).length > 0;
  for (const s of [
    'the defaults named in issue 2', 'the probes of Issue 12 against', 'Misbehaving endpoints (issues 4, 13)',
    'issue #7', 'the issue 6 prototype', "issue 6's target", 'see ../shared/data/README.md', 'shared/tools/ref_eval.py',
    '--mirrors /work/.mirror', 'cd /work/data-out',
  ]) assert.ok(flagged(s), `not caught: ${s}`);
  for (const s of [
    'GitHub issue 123 of psf/requests', 'a Jira issue 7', 'Splits issues 50/50 in time', '274 issues remain',
    'issue-type analysis', '`fixes #12`', 'shared among its files', 'the shared history cache', 'DATA/swebench-lite/x.jsonl',
    'issues of 140 repositories', 'one issue each',
  ]) assert.ok(!flagged(s), `flagged wrongly: ${s}`);
});
