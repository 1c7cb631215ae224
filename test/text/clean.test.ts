import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cleanIssueText, htmlToText, jiraWikiToText, markdownToText } from '../../src/text/clean.js';
import { parseStackFrames } from '../../src/text/stack-frames.js';
import { IssuelocError } from '../../src/errors.js';
import { fixtureData, sharedDataOrSkip } from '../fixtures/data.js';

// A shortened real description (MNG-5064 of the Maven Jira bugs, test/fixtures/data/maven-mng.jsonl) in Jira's
// rendered HTML: a {code} panel with highlighting spans, entities, a list, a link and an emoticon.
const JIRA_HTML = [
  '<p>Here&#39;s the command I ran &amp; its output:</p>',
  '',
  '<div class="code panel" style="border-width: 1px;"><div class="codeHeader panelHeader"><b>mvn.log</b></div><div class="codeContent panelContent">',
  '<pre class="code-java">$ mvn -nsu clean install\n[INFO] Scanning <span class="code-keyword">for</span> projects...\n\tat org.apache.maven.DefaultMaven.execute(DefaultMaven.java:156)\n</pre>',
  '</div></div>',
  '',
  '<p>Despite <tt>-nsu</tt> it downloaded &quot;snapshots&quot;.<br/>',
  'See <a href="https://github.com/apache/maven/pull/242" class="external-link" rel="nofollow">https://github.com/apache/maven/pull/242</a> and <a href="https://x.org/doc" class="external-link">the docs</a> ',
  '<img class="emoticon" src="https://issues.apache.org/jira/images/icons/emoticons/smile.png" alt=""/></p>',
  '<ul><li>first&nbsp;item</li><li>second &#8212; item</li></ul>',
  '<div class="preformatted panel"><div class="preformattedContent panelContent"><pre>noformat text</pre></div></div>',
  '<hr/><p>end</p>',
].join('\n');

test('htmlToText: Jira HTML with code kept, entities decoded, URL links dropped', () => {
  const text = htmlToText(JIRA_HTML);
  assert.equal(text, [
    "Here's the command I ran & its output:",
    'mvn.log',
    '$ mvn -nsu clean install',
    '[INFO] Scanning for projects...',
    '\tat org.apache.maven.DefaultMaven.execute(DefaultMaven.java:156)',
    'Despite -nsu it downloaded "snapshots".',
    'See and the docs',
    'first item',
    'second — item',
    'noformat text',
    'end',
  ].join('\n'));
  // the kept <pre> keeps its line structure, so the frame is still found
  assert.equal(parseStackFrames(text)[0].function, 'execute');
});

test('htmlToText: code removed or replaced by a marker; raw keeps URL link texts', () => {
  const removed = htmlToText(JIRA_HTML, { code: 'remove' });
  assert.ok(!removed.includes('Scanning') && !removed.includes('noformat text') && !removed.includes('mvn.log'));
  assert.ok(removed.includes('Despite -nsu'));
  const marked = htmlToText(JIRA_HTML, { code: 'marker' });
  assert.equal(marked.split('\n').filter((l) => l === 'codeblock').length, 2);
  assert.ok(!marked.includes('Scanning'));
  assert.equal(htmlToText('<pre>x = 1</pre><p>y</p>', { code: 'marker', marker: 'CODE' }), 'CODE\ny');
  const raw = htmlToText(JIRA_HTML, { mode: 'raw' });
  assert.ok(raw.includes('See https://github.com/apache/maven/pull/242 and the docs'));
});

/** htmlToText keeps no markup and no entity of the first `n` descriptions of a Maven Jira JSONL file; returns how many it checked. */
function assertCleanHtml(file: string, n: number): number {
  const rows = readFileSync(file, 'utf8').split('\n').slice(0, n).filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { description_html: string | null });
  let checked = 0;
  for (const r of rows) {
    const html = r.description_html ?? '';
    const t = htmlToText(html, { code: 'keep' });
    if (html.includes('&lt;') || html.includes('&amp;')) continue; // escaped markup is text

    assert.ok(!/<\/?(?:p|div|span|pre|br|a)\b/.test(t), t.slice(0, 200));
    assert.ok(!/&(?:amp|lt|gt|quot|#\d+);/.test(t), t.slice(0, 200));
    checked++;
  }
  return checked;
}

test('htmlToText on the committed Maven descriptions (code panels, quotes, entities) leaves no markup behind', () => {
  assert.ok(assertCleanHtml(fixtureData('maven-mng.jsonl'), 7) >= 4);
});

test('htmlToText on 200 real Maven descriptions never throws and leaves no markup behind', (t) => {
  const file = sharedDataOrSkip(t, 'jira/maven_mng_bugs.jsonl');
  if (!file) return;
  assert.ok(assertCleanHtml(file, 200) > 100);
});

const WIKI = [
  'h2. Build fails with *NPE* in _DefaultMaven_',
  '# run {{mvn -nsu install}}',
  '# see [the docs|http://maven.apache.org/guides] and [http://example.com] or [MNG-123] and [~jdoe]',
  '* attachment [^build.log] and !screenshot.png|thumbnail! and !http://x.org/a.gif!',
  'bq. quoted -deleted- +inserted+ ^sup^ ~sub~ ??cite?? {color:red}red{color}',
  '----',
  '||a||b||',
  'Smile :) (y) (!) keep foo_bar_baz and __init__ and -DskipTests and 2*3*4 and Hello! World!',
  '{code:title=Foo.java|borderStyle=solid}',
  '// *not bold* [not|a link]',
  '{code}',
  '{noformat}',
  '[INFO] BUILD FAILURE',
  '{noformat}',
  '{panel:title=Note}',
  'panel *text*',
  '{panel}',
  'tail',
].join('\n');

test('jiraWikiToText: remove-formatting keeps text and code content, drops images, links, rules, emoticons', () => {
  assert.equal(jiraWikiToText(WIKI), [
    'Build fails with NPE in DefaultMaven',
    'run mvn -nsu install',
    'see the docs and or [MNG-123] and',
    'attachment and and',
    'quoted deleted inserted sup sub cite red',
    ' a b',
    'Smile keep foo_bar_baz and __init__ and -DskipTests and 2*3*4 and Hello! World!',
    '',
    '// *not bold* [not|a link]',
    '',
    '[INFO] BUILD FAILURE',
    '',
    'panel text',
    '',
    'tail',
  ].join('\n'));
});

test('jiraWikiToText: raw mode and code handling', () => {
  assert.equal(jiraWikiToText(WIKI, { mode: 'raw' }), WIKI);
  const removed = jiraWikiToText(WIKI, { mode: 'raw', code: 'remove' });
  assert.ok(removed.startsWith('h2. Build fails with *NPE*'));
  assert.ok(!removed.includes('not bold') && !removed.includes('BUILD FAILURE') && !removed.includes('panel'));
  assert.ok(removed.endsWith('\ntail'));
  const marked = jiraWikiToText(WIKI, { code: 'marker' });
  assert.equal(marked.split('\n').filter((l) => l === 'codeblock').length, 3);
  // an unclosed block runs to the end, as Jira renders it
  assert.equal(jiraWikiToText('a\n{code}\nb\nc', { code: 'marker' }), 'a\n\ncodeblock');
});

const MD = [
  '<!-- Please fill the template -->',
  '### Bug summary',
  '**Bold** and *it* and ~~gone~~ with `__init__` and `List<String>` and foo_bar_baz.',
  'See [the docs](https://docs.x.org/a) ![shot](https://x.org/1.png) <https://x.org> https://bare.example.com/x :tada: 🎉 done.',
  '> quoted',
  '- [x] done item',
  '***',
  '| a | b |',
  '|---|:-:|',
  '```python',
  'Traceback (most recent call last):',
  '  File "x.py", line 1, in <module>',
  '```',
  '<pre>',
  'pre block',
  '</pre>',
  '[ref]: https://x.org',
  'tail',
].join('\n');

test('markdownToText: remove-formatting, code kept', () => {
  assert.equal(markdownToText(MD), [
    'Bug summary',
    'Bold and it and gone with __init__ and List<String> and foo_bar_baz.',
    'See the docs done.',
    'quoted',
    'done item',
    '  a b',
    'Traceback (most recent call last):',
    '  File "x.py", line 1, in <module>',
    '',
    'pre block',
    '',
    'tail',
  ].join('\n'));
});

test('markdownToText: markers, removal, raw', () => {
  const marked = markdownToText(MD, { code: 'marker' });
  assert.equal(marked.split('\n').filter((l) => l === 'codeblock').length, 2);
  assert.ok(!marked.includes('Traceback (most'));
  const removed = markdownToText(MD, { code: 'remove' });
  assert.ok(!removed.includes('pre block') && !removed.includes('codeblock'));
  const raw = markdownToText(MD, { mode: 'raw' });
  assert.ok(raw.includes('```python') && raw.includes('**Bold**') && raw.includes('<!-- Please'));
  // a fence closes only with the same character, at least as long; unclosed runs to the end
  assert.equal(markdownToText('a\n````\n```\nstill code\n````\nb', { code: 'marker' }), 'a\ncodeblock\nb');
  assert.equal(markdownToText('a\n~~~\nno close', { code: 'remove' }), 'a');
});

test('cleaners: bad options and inputs are IssuelocErrors; 1 MB inputs complete', () => {
  assert.throws(() => htmlToText('x', { mode: 'fancy' as never }), IssuelocError);
  assert.throws(() => jiraWikiToText('x', { code: 'drop' as never }), IssuelocError);
  assert.throws(() => markdownToText('x', { marker: 'two words' }), IssuelocError);
  assert.throws(() => markdownToText(undefined as unknown as string), IssuelocError);
  assert.throws(() => cleanIssueText('x', 'rtf' as never), IssuelocError);
  assert.equal(cleanIssueText('a  \r\n\r\n\r\nb', 'text'), 'a\n\nb');
  const mb = (unit: string) => unit.repeat(Math.ceil((1 << 20) / unit.length));
  // Built to hurt backtracking patterns; completing at all is the assertion (speed: bench/text-speed.ts).
  assert.equal(htmlToText(mb('<a<b<pre')).length, 1 << 20); // no tag closes: all of it is text
  assert.ok(jiraWikiToText(mb('*a [b !c {code:x ')).startsWith('*a [b !c {code:x *a'));
  assert.equal(markdownToText(mb('- - - ' + ' '.repeat(50) + '| --- ')), ''); // one table separator row
  assert.equal(markdownToText(mb('[a](b ![c](d <!-- ')), '[a](b ![c](d'); // unclosed comment runs to the end
});
