// The placement rules after the stages (issue 18): peripheral code (examples, scripts, a minority
// language) kept out of the top places unless the issue names it, and the first file's habitual
// partner in the history brought to place 4 — never from a commit after the base commit.
// A tiny Rust repository built here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { commitFiles, tempDir, cleanup, git } from '../repo/git-fixture.js';
import { openLocalizer, IssuelocError, type LocalizerOptions } from '../../src/index.js';
import { GitRepo } from '../../src/repo/git.js';
import { readCoChange } from '../../src/history/co-change.js';
import { demoteItems, inPeripheralFolder } from '../../src/retrieve/peripheral.js';
import { isGeneratedSource } from '../../src/corpus/generated.js';

let root: string, work: string, base: string;
const ISSUE = 'Tokenizer drops the last token\ntokenize_line drops the last token of a line';
const OFF = { peripheral: { place: 0 }, coChange: { rank: 0 } };

before(() => {
  root = tempDir('issueloc-placements-');
  work = join(root, 'repo');
  commitFiles(work, {
    'src/tokenizer.rs': '/// Splits a line into tokens, the last token included.\npub fn tokenize_line(line: &str) -> Vec<&str> {\n    line.split(\' \').collect()\n}\n',
    'src/lexer.rs': 'pub fn lex(text: &str) -> usize {\n    text.len()\n}\n',
    'src/render.rs': 'pub fn render(out: &mut String) {\n    out.push(\'x\');\n}\n',
    'src/io.rs': 'pub fn read_all(path: &str) -> String {\n    path.to_string()\n}\n',
    'src/config.rs': 'pub fn load_config(path: &str) -> bool {\n    path.is_empty()\n}\n',
    // most of the repository's code is Rust: the Ruby file is under a tenth of it
    'src/table.rs': `pub fn table() -> Vec<u32> {\n${Array.from({ length: 60 }, (_, i) => `    let v${i} = ${i} * width + height - offset;`).join('\n')}\n    vec![]\n}\n`,
    // an example that matches the issue better than the product code does
    'examples/tokenize_demo.rs': 'fn main() {\n    // print the last token of a line\n    println!("last token");\n}\n',
    // a Ruby formula: a language the repository holds little of
    'pkg/brew/tool.rb': 'class Tool < Formula\n  def tokenize_line\n    "last token of a line"\n  end\nend\n',
  }, 'init');
  // three fixes change the tokenizer and the lexer together: the lexer is the tokenizer's partner
  for (let i = 1; i <= 3; i++) {
    commitFiles(work, {
      'src/tokenizer.rs': `/// Splits a line into tokens, the last token included.\npub fn tokenize_line(line: &str) -> Vec<&str> {\n    line.split(' ').skip(${i}).collect()\n}\n`,
      'src/lexer.rs': `pub fn lex(text: &str) -> usize {\n    text.len() + ${i}\n}\n`,
    }, `fix ${i}`);
  }
  base = git(work, 'rev-parse', 'HEAD');
  // later commits pair the tokenizer with the renderer: after the base commit, never counted there
  for (let i = 1; i <= 6; i++) {
    commitFiles(work, {
      'src/tokenizer.rs': `pub fn tokenize_line(line: &str) -> Vec<&str> {\n    line.split(' ').take(${i}).collect()\n}\n`,
      'src/render.rs': `pub fn render(out: &mut String) {\n    out.push_str("${i}");\n}\n`,
    }, `later ${i}`);
  }
});
after(() => cleanup(root));

const open = (extra: Partial<LocalizerOptions> = {}) => openLocalizer({ repo: work, rev: base, cacheDir: join(root, 'cache'), ...extra });

test('peripheral folders: the first or second folder by convention, not deeper; contrib is product code', () => {
  for (const p of ['examples/a.rs', 'benches/b.rs', 'scripts/x.js', 'docs/conf.py', 'crates/examples/e.rs', 'sympy/benchmarks/bench_x.py', 'xtask/src/main.rs']) assert.ok(inPeripheralFolder(p), p);
  for (const p of ['src/examples.rs', 'a/b/examples/c.rs', 'django/contrib/admin/sites.py', 'examples', 'src/lib.rs']) assert.ok(!inPeripheralFolder(p), p);
});

test('demoteItems keeps moved items out of the first places, in order, scores descending', () => {
  const items = ['p1', 'a', 'p2', 'b', 'c', 'd'].map((id, i) => ({ id, score: 10 - i }));
  const out = demoteItems(items, (id) => id.startsWith('p'), 4);
  assert.deepEqual(out.map((x) => x.id), ['a', 'b', 'c', 'p1', 'p2', 'd']);
  assert.ok(out.every((x, i) => i === 0 || x.score <= out[i - 1].score));
  // too few others: the moved ones follow them
  assert.deepEqual(demoteItems(items.slice(0, 3), (id) => id.startsWith('p'), 4).map((x) => x.id), ['a', 'p1', 'p2']);
  assert.deepEqual(demoteItems(items, () => false, 4), items);
});

test('an example and a minority-language file rank below the product code; named by the issue, they keep their place', async () => {
  const off = await open({ ranking: OFF });
  const on = await open({ ranking: { coChange: { rank: 0 } } });
  try {
    const before = (await off.localize(ISSUE)).files.map((f) => f.id);
    assert.equal(before[0], 'src/tokenizer.rs');
    assert.ok(before.indexOf('examples/tokenize_demo.rs') === 1 || before.indexOf('pkg/brew/tool.rb') === 1, `peripheral code second without the rule: ${before.join(' ')}`);
    const r = await on.localize(ISSUE);
    const files = r.files.map((f) => f.id);
    const product = files.filter((f) => f.startsWith('src/'));
    assert.deepEqual(files.slice(0, product.length), product, `product code first: ${files.join(' ')}`);
    assert.ok(files.includes('examples/tokenize_demo.rs') && files.includes('pkg/brew/tool.rb'), 'still ranked, lower');
    const fns = r.functions.map((f) => f.id);
    assert.ok(fns.indexOf('pkg/brew/tool.rb:Tool.tokenize_line') > fns.indexOf('src/tokenizer.rs:tokenize_line'), fns.join(' '));
    const named = (await on.localize(`${ISSUE}\nSee examples/tokenize_demo.rs for a reproduction`)).files.map((f) => f.id);
    assert.ok(named.indexOf('examples/tokenize_demo.rs') <= 1, `named: not moved, ${named.join(' ')}`);
    const lastProduct = Math.max(...named.map((f, i) => (f.startsWith('src/') ? i : -1)));
    assert.ok(named.indexOf('pkg/brew/tool.rb') > lastProduct, named.join(' '));
  } finally {
    await off.close();
    await on.close();
  }
});

test('the first file brings its partner of the history to place 4 (or the end), with its evidence', async () => {
  const loc = await open({ ranking: { peripheral: { place: 0 } } });
  try {
    const r = await loc.localize(ISSUE);
    assert.equal(r.files[0].id, 'src/tokenizer.rs');
    const i = r.files.findIndex((f) => f.id === 'src/lexer.rs');
    assert.equal(i, Math.min(3, r.files.length - 1), r.files.map((f) => f.id).join(' '));
    assert.ok(r.files[i].signals?.includes('coChange'));
    assert.match(r.files[i].evidence!.at(-1)!, /changed with src\/tokenizer\.rs in 4 of its 4 recent commits/);
    assert.ok(r.files.every((f, k) => k === 0 || f.score <= r.files[k - 1].score), 'scores descend');
    assert.ok(!r.files.some((f) => f.id === 'src/render.rs' && f.signals?.includes('coChange')), 'no later commit counts');
  } finally {
    await loc.close();
  }
});

test('co-change partners count the ancestors of the base commit alone; too little support gives none', async () => {
  const repo = await GitRepo.open(work);
  try {
    const atBase = await readCoChange(repo, base);
    assert.deepEqual(atBase.partnersOf('src/tokenizer.rs').map((p) => [p.path, p.together, p.support]), [
      ['src/lexer.rs', 4, 4], // then the files of the first commit, in git's order
      ['examples/tokenize_demo.rs', 1, 4], ['pkg/brew/tool.rb', 1, 4], ['src/config.rs', 1, 4], ['src/io.rs', 1, 4], ['src/render.rs', 1, 4], ['src/table.rs', 1, 4],
    ]);
    assert.deepEqual(atBase.partnersOf('src/tokenizer.rs', { minConfidence: 0.3 }).map((p) => p.path), ['src/lexer.rs']);
    assert.deepEqual(atBase.partnersOf('src/config.rs'), [], 'changed once: no support');
    const head = await readCoChange(repo, await repo.resolveCommit('HEAD'));
    assert.equal(head.partnersOf('src/tokenizer.rs')[0].path, 'src/render.rs', 'at HEAD the later commits count');
  } finally {
    await repo.close();
  }
});

test('co-change read: kept per commit in the cache folder, then read with no git process, the same partners and rates', async () => {
  const cache = tempDir('issueloc-cochange-');
  const repo = await GitRepo.open(work);
  const exec = repo.exec.bind(repo);
  let logs = 0;
  repo.exec = ((args: string[], ...rest: unknown[]) => {
    if (args.includes('log')) logs++;
    return (exec as (...a: unknown[]) => unknown)(args, ...rest);
  }) as typeof repo.exec;
  try {
    const shape = (c: Awaited<ReturnType<typeof readCoChange>>) => JSON.stringify([[...c.rates], c.commits, c.partnersOf('src/tokenizer.rs')]);
    const fresh = shape(await readCoChange(repo, base));
    assert.equal(shape(await readCoChange(repo, base, { cacheDir: cache })), fresh);
    assert.equal(logs, 2);
    assert.equal(shape(await readCoChange(repo, base, { cacheDir: cache })), fresh);
    assert.equal(logs, 2, 'the second read at the commit runs no git log');
  } finally {
    await repo.close();
    cleanup(cache);
  }
});

test('placement settings go with the built-in model (they are no lexical setting): the default stays the model', async () => {
  const loc = await open({ ranking: OFF });
  try {
    const r = await loc.localize(ISSUE);
    assert.deepEqual(r.stages, ['lexical', 'model']);
    assert.ok(!r.files.some((f) => f.signals?.includes('coChange')));
  } finally {
    await loc.close();
  }
});

test('bad placement settings are refused with one line naming the setting', async () => {
  await assert.rejects(open({ ranking: { peripheral: { place: -1 } } }), (e: Error) => e instanceof IssuelocError && /^ranking\.peripheral\.place /.test(e.message));
  await assert.rejects(open({ ranking: { coChange: { minConfidence: 2 } } }), (e: Error) => e instanceof IssuelocError && /^ranking\.coChange\.minConfidence /.test(e.message));
  await assert.rejects(open({ ranking: { coChange: { window: 3 } as never } }), (e: Error) => e instanceof IssuelocError && /ranking\.coChange/.test(e.message));
});

test('generated code: a marker on a comment line of the head, not further down and not in code', () => {
  for (const head of [
    '// Code generated by protoc-gen-go. DO NOT EDIT.\npackage pb\n',
    '/* A Bison parser, made by GNU Bison 3.8.2.  */\n',
    '#line 2 "src/lexer.c"\n/* A lexical scanner generated by flex */\n',
    '//  Catch v3.4.0\n//  This file is an amalgamation of multiple different files.\n',
    '# This file is automatically generated by tools/gen.py; do not edit.\n',
    '# @generated by sync-tool\n',
  ]) assert.ok(isGeneratedSource(head), head);
  for (const text of [
    'fn main() {}\n// we generated this list by hand, do edit it\n',
    'const NOTE = "Code generated by x. DO NOT EDIT.";\n',
    `${'\n'.repeat(40)}// Code generated by y. DO NOT EDIT.\n`,
  ]) assert.ok(!isGeneratedSource(text), text);
});

test('a generated file that matches the issue best ranks below the code it was generated for', async () => {
  const dir = join(root, 'generated');
  commitFiles(dir, {
    'src/parser.rs': 'pub fn parse(line: &str) -> usize {\n    line.len()\n}\n',
    'src/header_table.rs': '// Code generated by headergen. DO NOT EDIT.\npub fn parse_header_table(line: &str) -> usize {\n    // header line parse header line parse header\n    line.len()\n}\n',
  }, 'init');
  const issue = 'parse fails on a header line\nThe header line parse fails';
  const off = await openLocalizer({ repo: dir, cacheDir: join(root, 'cache-gen'), model: 'none', ranking: OFF });
  const on = await openLocalizer({ repo: dir, cacheDir: join(root, 'cache-gen'), model: 'none' });
  try {
    assert.equal((await off.localize(issue)).files[0].id, 'src/header_table.rs', 'without the rule the generated file is first');
    assert.deepEqual((await on.localize(issue)).files.map((f) => f.id), ['src/parser.rs', 'src/header_table.rs']);
  } finally {
    await off.close();
    await on.close();
  }
});

test('a generated file in a folder whose name holds `:` is moved down at every level (its path read from the id by the last `:`)', async () => {
  const dir = join(root, 'generated-colon');
  commitFiles(dir, {
    'src/parser.rs': 'pub fn parse(line: &str) -> usize {\n    line.len()\n}\n',
    'src/gen:v1/header_table.rs': '// Code generated by headergen. DO NOT EDIT.\npub fn parse_header_table(line: &str) -> usize {\n    // header line parse header line parse header\n    line.len()\n}\n',
  }, 'init');
  const issue = 'parse fails on a header line\nThe header line parse fails';
  const on = await openLocalizer({ repo: dir, cacheDir: join(root, 'cache-gen-colon'), model: 'none' });
  try {
    const loc = await on.localize(issue);
    assert.deepEqual(loc.files.map((f) => f.id), ['src/parser.rs', 'src/gen:v1/header_table.rs']);
    assert.deepEqual(loc.modules.map((m) => m.id), ['src/parser.rs:parse', 'src/gen:v1/header_table.rs:parse_header_table']);
    assert.deepEqual(loc.functions.map((f) => f.id), ['src/parser.rs:parse', 'src/gen:v1/header_table.rs:parse_header_table']);
  } finally {
    await on.close();
  }
});
