// The library facade as a JavaScript program calls it: bad values are refused with one line
// naming them, custom backends that throw or hang fall back like a dead endpoint, calls are
// serialized, and a closed localizer refuses work. A tiny repository built here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { commitFiles, git, tempDir, cleanup } from '../repo/git-fixture.js';
import { openLocalizer, IssuelocError, type Embedder, type ChatModel, type LocalizerOptions } from '../../src/index.js';

let root: string, work: string;
const ISSUE = 'the json parser breaks on empty input';

before(() => {
  root = tempDir('issueloc-library-inputs-');
  work = join(root, 'repo');
  commitFiles(work, {
    'pkg/parser.py': 'def parse_json(text):\n    """json parser"""\n    return text\n\n\ndef parse_yaml(text):\n    return text\n',
    'pkg/net.py': 'def connect(host):\n    return host\n',
    'pkg/empty.py': 'def check_empty(text):\n    return not text\n',
  });
});
after(() => cleanup(root));

const open = (extra: Record<string, unknown> = {}) => openLocalizer({ repo: work, cacheDir: join(root, 'cache'), ...extra } as LocalizerOptions);

/** Rejects with an IssuelocError whose one-line message matches `re`. */
async function refused(p: Promise<unknown>, re: RegExp): Promise<void> {
  await assert.rejects(p, (e: Error) => {
    assert.ok(e instanceof IssuelocError, `${e.name}: ${e.message}`);
    assert.match(e.message, re);
    assert.equal(e.message.split('\n').length, 1, e.message);
    return true;
  });
}

test('bad options of openLocalizer are refused, each naming the option', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ranking: { bm25: { k1: 'big' } } }, /^ranking\.bm25\.k1 must be a number, got 'big'$/],
    [{ ranking: { bm25: { k1: -3 } } }, /^ranking\.bm25\.k1 takes a number ≥ 0, got '-3'$/],
    [{ ranking: { bm25: { b: 7 } } }, /^ranking\.bm25\.b takes a number from 0 to 1/],
    [{ ranking: { filePrior: 'lots' } }, /^ranking\.filePrior must be a number/],
    [{ ranking: { signals: { frameFiel: 1 } } }, /^ranking\.signals: unknown option 'frameFiel'/],
    [{ index: { languages: ['klingon'] } }, /^index\.languages: unknown language klingon/],
    [{ index: { languages: 'python' } }, /^index\.languages must be a list of language names/],
    [{ modle: 'default' }, /^openLocalizer options: unknown option 'modle'/],
    [{ model: { foo: 1 } }, /^model must be 'default', a model file or a RankingModel/],
    [{ rerank: { window: 0 }, reranker: 'none' }, /^rerank\.window takes a whole number ≥ 2/],
    [{ rerank: { mode: 'vibes' } }, /^rerank\.mode must be 'first-token' or 'permutation'/],
    [{ deadlineMs: 'soon' }, /^deadlineMs must be a number/],
    [{ deadlineMs: -5 }, /^deadlineMs takes a number > 0/],
    [{ rev: 123 }, /^rev must be a non-empty string, got 123$/],
    [{ embedder: { embed: 1 } }, /^embedder must be a spec .* or an object with an id and embed\(\)/],
    [{ repo: 42 }, /^repo must be a non-empty string, got 42$/],
    // chains that are none, refused in the library's own names
    [{ model: 'default', embedder: { id: 'e', batchSize: 1, embed: () => Promise.resolve([]) } }, /^a learned model \(model\) ranks the lexical candidates it was trained on: it cannot follow dense fusion \(embedder\); use one of them$/],
    [{ fusion: 'dense' }, /^fusion sets up dense retrieval: give embedder too$/],
    [{ rerank: { top: 5 } }, /^rerank sets up LLM reranking: give reranker too$/],
    [{ model: 'default', ranking: { filePrior: 2 } }, /ranking options \(filePrior\) cannot change them; drop them or drop model$/],
  ];
  for (const [extra, re] of cases) await refused(open(extra), re);
  await refused(openLocalizer(undefined as unknown as LocalizerOptions), /^openLocalizer options must be an object, got undefined$/);
});

test('bad localize calls are refused naming the input; a closed localizer refuses work', async () => {
  const localizer = await open({ maxIssueBytes: 64 });
  try {
    await refused(localizer.localize(ISSUE, { top: -1 }), /^top takes a positive whole number, got '-1'$/);
    await refused(localizer.localize(ISSUE, { top: 'ten' } as never), /^top must be a number, got 'ten'$/);
    await refused(localizer.localize(ISSUE, { top: 2.5 }), /^top takes a positive whole number/);
    await refused(localizer.localize(undefined as never), /^issueText must be a string, got undefined$/);
    await refused(localizer.localize('x'.repeat(65)), /^issueText is 65 bytes, more than maxIssueBytes \(64\)$/);
    await refused(localizer.localize(ISSUE, { rev: 'nope' }), /nope/);
    await refused(localizer.localize(ISSUE, { format: 'rtf' } as never), /^format must be one of text, github, jira, markdown, html, jira-wiki, got 'rtf'$/);
    await refused(localizer.localize('the of and'), /no searchable word/);
    assert.ok((await localizer.localize(ISSUE, { top: 2 })).functions.length > 0, 'still usable after refusals');
  } finally {
    await localizer.close();
  }
  await refused(localizer.localize(ISSUE), /^this localizer is closed/);
});

test('concurrent calls give what one call after the other gives', async () => {
  const localizer = await open();
  try {
    const texts = [ISSUE, 'connect to host fails', 'yaml parse error', 'empty text check'];
    const together = await Promise.all(texts.map((t) => localizer.localize(t, { top: 3 })));
    for (const [i, t] of texts.entries()) {
      const alone = await localizer.localize(t, { top: 3 });
      assert.deepEqual(together[i].functions, alone.functions, t);
    }
  } finally {
    await localizer.close();
  }
});

test('the full SHA of the commit at hand, gone after a history rewrite and gc, is refused as a fresh localizer refuses it', async () => {
  const dir = join(root, 'rewrite');
  commitFiles(dir, { 'a.py': 'def parse_date(text):\n    return 1\n' }, 'first');
  const old = commitFiles(dir, { 'b.py': 'def color_name(rgb):\n    return 2\n' }, 'second');
  const localizer = await openLocalizer({ repo: dir, cacheDir: join(root, 'cache') });
  try {
    assert.equal((await localizer.localize('parse date', { rev: old, top: 3 })).commit, old);
    git(dir, 'commit', '-q', '--amend', '-m', 'rewritten');
    git(dir, 'reflog', 'expire', '--expire=now', '--all');
    git(dir, 'gc', '-q', '--prune=now');
    const fresh = await openLocalizer({ repo: dir, cacheDir: join(root, 'cache') });
    try {
      await refused(fresh.localize('parse date', { rev: old }), /is not in/);
    } finally {
      await fresh.close();
    }
    for (const rev of [old, old.toUpperCase()]) await refused(localizer.localize('parse date', { rev }), /is not in/);
    // the rewritten commit is answered by the same localizer
    const now = git(dir, 'rev-parse', 'HEAD');
    assert.equal((await localizer.localize('parse date', { rev: now, top: 3 })).commit, now);
  } finally {
    await localizer.close();
  }
});

test('a custom embedder that throws or hangs leaves the lexical ranking, with a warning', async () => {
  const lexical = await open({ model: 'none' });
  const expected = (await lexical.localize(ISSUE, { top: 3 })).functions;
  await lexical.close();
  const throwing: Embedder = { id: 'boom', batchSize: 8, embed: () => Promise.reject(new Error('boom from my embedder')) };
  const hanging: Embedder = { id: 'slow', batchSize: 8, embed: () => new Promise(() => {}) };
  for (const [embedder, why] of [[throwing, /embedder boom failed: boom from my embedder/], [hanging, /embedder slow gave no answer within 200 ms/]] as const) {
    const warnings: string[] = [];
    const localizer = await open({ embedder, embedderEndpoint: { timeoutMs: 200 }, onWarning: (m: string) => warnings.push(m) });
    try {
      const r = await localizer.localize(ISSUE, { top: 3 });
      assert.deepEqual(r.stages, ['lexical']);
      assert.deepEqual(r.functions, expected);
      assert.match(warnings.join('\n'), why);
    } finally {
      await localizer.close();
    }
  }
});

test('a reranker whose every window fails leaves the previous stage\'s ranking and scores; rerank is not a stage that ran', async () => {
  const previous = await open(); // the built-in model's ranking
  const expected = (await previous.localize(ISSUE, { top: 3 })).functions;
  await previous.close();
  const failing: ChatModel = { id: 'down', complete: () => Promise.reject(new Error('connection refused')) };
  const warnings: string[] = [];
  const localizer = await open({ reranker: failing, rerank: { top: 3, window: 2, stride: 1 }, onWarning: (m: string) => warnings.push(m) });
  try {
    const r = await localizer.localize(ISSUE, { top: 3 });
    assert.deepEqual(r.stages, ['lexical', 'model']);
    assert.deepEqual(r.functions, expected, 'scores are the model\'s, not 1/rank');
    assert.equal(r.rerank?.fallbackWindows, r.rerank?.windows);
    assert.match(warnings.join('\n'), /chat model down failed: connection refused/);
  } finally {
    await localizer.close();
  }
});
