import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_TITLE_WEIGHT } from '../../src/retrieve/query.js';
import { IssuelocError } from '../../src/errors.js';
import { extractIssueSignals } from '../../src/text/issue-signals.js';
import { fragmentTermsOf, MAX_TITLE_CHARS, parseIssue, titleOf } from '../../src/text/parsed-issue.js';
import { tokenize, tokenizeWords, wordsOf } from '../../src/text/tokenize.js';

test('query terms: counts, plus the title weight for each token of the first line', () => {
  const text = '\n  StatReloader misses changes\nThe reloader skips manage.py; changes are lost.';
  const issue = parseIssue(text);
  assert.equal(issue.title, 'StatReloader misses changes');
  assert.equal(titleOf(text), issue.title);
  const plain = issue.queryTerms({ stem: false, titleWeight: 0 });
  assert.equal(plain.get('changes'), 2);
  assert.equal(plain.get('reloader'), 2, 'from StatReloader and from the body');
  const q = issue.queryTerms({ stem: false, titleWeight: DEFAULT_TITLE_WEIGHT });
  assert.equal(q.get('changes'), 2 + DEFAULT_TITLE_WEIGHT);
  assert.equal(q.get('statreloader'), 1 + DEFAULT_TITLE_WEIGHT, 'the whole identifier is a title token too');
  assert.equal(q.get('manage'), 1, 'body-only tokens keep their count');
  assert.equal(parseIssue('').queryTerms({ stem: false, titleWeight: DEFAULT_TITLE_WEIGHT }).size, 0);
  assert.equal(parseIssue('x'.repeat(1000)).title.length, MAX_TITLE_CHARS);
});

test('a parsed issue: title, body, format, signals and words read once, derived forms kept', () => {
  const text = 'Crash in parse_date\n\nparse_date("") raises IndexError in utils/dates.py\n`DateParser.parse` too';
  const issue = parseIssue(text, { format: 'github' });
  assert.equal(issue.text, text);
  assert.equal(issue.title, 'Crash in parse_date');
  assert.equal(issue.body, '\nparse_date("") raises IndexError in utils/dates.py\n`DateParser.parse` too');
  assert.equal(issue.format, 'github');
  assert.equal(parseIssue(text).format, 'text');
  assert.deepEqual(issue.signals, extractIssueSignals(text));
  assert.deepEqual(issue.signals.filePaths, ['utils/dates.py']);
  assert.ok(issue.wordSet.has('IndexError') && issue.titleWords.has('parse_date') && !issue.titleWords.has('IndexError'));
  assert.deepEqual(issue.tokens(true), tokenize(text, { stem: true }));
  assert.deepEqual(issue.titleTerms(false), new Map([['crash', 1], ['parse_date', 1], ['parse', 1], ['date', 1]]));
  const q = issue.queryTerms({ stem: true, titleWeight: 2 });
  assert.equal(issue.queryTerms({ stem: true, titleWeight: 2 }), q, 'made once per option set');
  assert.notEqual(issue.queryTerms({ stem: false, titleWeight: 2 }), q);
  assert.equal(issue.tokens(false), issue.tokens(false));
  assert.equal(parseIssue('   ').body, '');
  assert.throws(() => parseIssue(null as unknown as string), IssuelocError);
});

test('fragmentTermsOf: the query terms the issue holds only as fragments of split words (not shown as matched terms)', () => {
  const issue = parseIssue('LaTeX output breaks with BM25F\nla is a word here, toDB too');
  const q = issue.queryTerms({ stem: false, titleWeight: 2 });
  assert.ok(['latex', 'la', 'te', 'bm25f', 'bm', '25', 'db'].every((t) => q.has(t)), [...q.keys()].join(' '));
  assert.deepEqual([...fragmentTermsOf(q)].sort(), ['25', 'bm', 'te']);
  assert.equal(fragmentTermsOf(new Map([['te', 1]])).size, 0, 'only for a parsed issue\'s query');
});

test('fragmentTermsOf: the query terms no fragment-free token of the text gives, a cut title\'s token among them', () => {
  const long = `${'word '.repeat(Math.floor((MAX_TITLE_CHARS - 5) / 5))}zzLongtail`;
  for (const text of [`${long}\nbody`, 'Parse x2 and LaTeX in toDB\nlog2(x) and LaTeX', 'plain words only\nnothing split']) {
    for (const stem of [false, true]) {
      const q = parseIssue(text).queryTerms({ stem, titleWeight: 1 });
      const whole = new Set(tokenizeWords(wordsOf(text), { stem, dropFragments: 'all' }));
      assert.deepEqual([...fragmentTermsOf(q)], [...q.keys()].filter((t) => !whole.has(t)), `${text.slice(-30)} stem ${stem}`);
    }
  }
  assert.ok(fragmentTermsOf(parseIssue(`${long}\nbody`).queryTerms({ stem: false, titleWeight: 1 })).size > 0, 'the cut title gives a term the text lacks');
});
