import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  CODE_KEYWORDS,
  ENGLISH_STOP_WORDS,
  createTokenizer,
  defaultStopWords,
  languageKeywords,
  splitIdentifier,
  termFrequencies,
  tokenize,
  tokenizeWords,
  wordsOf,
} from '../../src/text/tokenize.js';
import { ACRONYM_FRAGMENT, DIGIT_FRAGMENT, fragmentKinds } from '../../src/text/identifier-split.js';
import { IssuelocError } from '../../src/errors.js';
import { fixtureData, sharedDataOrSkip } from '../fixtures/data.js';

// Golden values below were produced by running the reference evaluator itself (ref_eval.py, the
// stdlib-only Python yardstick of the shared tools; see src/text/tokenize.ts):
//   python3 -c "import sys; sys.path.insert(0, TOOLS); import ref_eval; print(ref_eval.tokenize(S))"
// (and with `ref_eval.STEMMER = ref_eval.porter_stem` for the stemmed ones).
const GOLDEN: [string, string[]][] = [
  ['def parseHTTPServer(self):', ['def', 'parsehttpserver', 'parse', 'http', 'server', 'self']],
  [
    'HTTPServer HTTP http_server __init__ _private_var MAX_SIZE x2 utf8 UTF8Encoder',
    ['httpserver', 'http', 'server', 'http', 'http_server', 'http', 'server', 'init', 'private_var', 'private', 'var',
      'max_size', 'max', 'size', 'x2', 'utf8', 'utf', 'utf8encoder', 'utf', 'encoder'],
  ],
  [
    'sympy.core.basic.Basic.subs() raises TypeError when called with a dict_keys object',
    ['sympy', 'core', 'basic', 'basic', 'subs', 'raises', 'typeerror', 'type', 'error', 'called', 'dict_keys', 'dict',
      'keys', 'object'],
  ],
  [
    'getURLForID ABCDef aB AbC a1b2c3 IOError XMLHttpRequest2 JSONDecodeError iPhone',
    ['geturlforid', 'get', 'url', 'id', 'abcdef', 'abc', 'def', 'ab', 'abc', 'ab', 'a1b2c3', 'ioerror', 'io', 'error',
      'xmlhttprequest2', 'xml', 'http', 'request', 'jsondecodeerror', 'json', 'decode', 'error', 'iphone', 'phone'],
  ],
  ['café_au_lait naïve résumé — “quoted” x<y> ñandú 日本語 foo…bar', ['caf', 'au_lait', 'au', 'lait', 'na', 'sum', 'quoted', 'foo', 'bar']],
  [
    'File "/usr/lib/python3.8/site-packages/django/db/models/query.py", line 42, in get_queryset',
    ['file', 'usr', 'lib', 'python3', 'python', 'site', 'packages', 'django', 'db', 'models', 'query', 'py', 'line', '42',
      'get_queryset', 'get', 'queryset'],
  ],
  ["I don't think it's the user's fault; we'll see. Isn't it? They've won't shouldn't", ['think', 'user', 'fault', 'see']],
  ['___ _ __a__ 123 0x1F 3.14159 a_b_c A_B_C aBC ABc ABCdEF', ['123', '0x1f', '14159', 'a_b_c', 'a_b_c', 'abc', 'bc', 'abc', 'bc', 'abcdef', 'ab', 'cd', 'ef']],
  ['', []],
  ['The the THE a An and OR If if', []],
];

const GOLDEN_STEMMED: [string, string[]][] = [
  [
    'running tests connection connected generalization relational hopeful_words caresses ponies agreed plastered motoring sized happy conditional',
    ['run', 'test', 'connect', 'connect', 'gener', 'relat', 'hopeful_words', 'hope', 'word', 'caress', 'poni', 'agre',
      'plaster', 'motor', 'size', 'happi', 'condit'],
  ],
  ['fooBars are Running quickly', ['foobar', 'foo', 'bar', 'run', 'quickli']],
];

const REF = { keepSnakeParts: false } as const;

test('keepSnakeParts: false equals ref_eval.py tokenize on golden strings', () => {
  for (const [text, expected] of GOLDEN) assert.deepEqual(tokenize(text, REF), expected, text);
});

test('stem: true equals ref_eval.py with its Porter stemmer (alphabetic tokens only)', () => {
  for (const [text, expected] of GOLDEN_STEMMED) assert.deepEqual(tokenize(text, { ...REF, stem: true }), expected, text);
});

test('by default each snake_case part that splits further is kept whole too', () => {
  assert.deepEqual(tokenize('GitHub_token_v2'), ['github_token_v2', 'github', 'git', 'hub', 'token', 'v2']);
  assert.deepEqual(tokenize('parseHTTPServer_v2 UTF8Encoder_x'),
    ['parsehttpserver_v2', 'parsehttpserver', 'parse', 'http', 'server', 'v2', 'utf8encoder_x', 'utf8encoder', 'utf', 'encoder']);
  // parts that do not split further are not repeated; words without an inner `_` are unchanged
  assert.deepEqual(tokenize('get_queryset MAX_SIZE __init__ _GitHub x2_y'),
    ['get_queryset', 'get', 'queryset', 'max_size', 'max', 'size', 'init', 'github', 'git', 'hub', 'x2_y', 'x2']);
  assert.deepEqual(tokenize('GitHub_token_v2', { keepWhole: false }), ['git', 'hub', 'token']);
  assert.deepEqual(tokenize('GitHub_the_v2', { stem: true }), ['github_the_v2', 'github', 'git', 'hub', 'v2']);
  // on the golden strings the default only adds tokens: ref_eval.py's are a subsequence
  for (const [text, expected] of GOLDEN) {
    const mine = tokenize(text);
    let k = 0;
    for (const t of mine) if (k < expected.length && t === expected[k]) k++;
    assert.equal(k, expected.length, text);
  }
});

/** sha256 of the tokens of the first `n` problem statements of a JSONL file: one line of space-joined tokens per issue. */
function tokenDigest(file: string, n: number, stem: boolean): string {
  const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(0, n).map((l) => JSON.parse(l) as { problem_statement: string });
  const joined = rows.map((r) => tokenize(r.problem_statement, { ...REF, stem }).join(' ')).join('\n');
  return createHash('sha256').update(joined).digest('hex');
}

// Digests from ref_eval.py over the same texts:
//   "\n".join(" ".join(tokenize(ps)) for ps in rows) -> sha256 (clear `_word_memo` after setting STEMMER).
test('tokens of the 3 committed SWE-bench issues hash to ref_eval.py digests (plain and stemmed)', () => {
  const file = fixtureData('swebench-lite.jsonl');
  assert.equal(tokenDigest(file, 3, false), '672754e29a506bc5002de57296982db9437e881c0efa8480520b712f0d876050');
  assert.equal(tokenDigest(file, 3, true), 'c99a9f8bb54478930e5e38382889745629ecbf37ac27c37b7a352c73f1cf6a3e');
});

test('tokens of 40 real SWE-bench issues hash to ref_eval.py digests (plain and stemmed; 7974 tokens)', (t) => {
  const file = sharedDataOrSkip(t, 'swebench-lite/swebench_lite.jsonl');
  if (!file) return;
  assert.equal(tokenDigest(file, 40, false), 'b9c324ff2415f9986319ce0cc7e3f211d980045ab51de013c3e3187cd4eea6de');
  assert.equal(tokenDigest(file, 40, true), '0ec6a5051a32ec08f83ba4fc185a58b124fb0f966a47f1e445bd48af94264359');
});

test('dropFragments: the fragments of a split word are left out, its whole kept (mixed-case acronyms, letter-digit splits)', () => {
  const acronyms = { dropFragments: 'acronyms' } as const;
  const all = { dropFragments: 'all' } as const;
  assert.deepEqual(tokenize('LaTeX output breaks', acronyms), ['latex', 'output', 'breaks']);
  assert.deepEqual(tokenize('TeX PyPI XeLaTeX MiB NaN', acronyms), ['tex', 'pypi', 'xelatex', 'mib', 'nan']);
  assert.deepEqual(tokenize('BM25F should score', all), ['bm25f', 'score']);
  assert.deepEqual(tokenize('BM25F should score', acronyms), ['bm25f', 'bm', '25', 'score']);
  assert.deepEqual(tokenize('md5 int64 h5py utf8', all), ['md5', 'int64', 'int', 'h5py', 'utf8', 'utf']);
  assert.deepEqual(tokenize('LaTeXPrinter BM25F_score', all), ['latexprinter', 'printer', 'bm25f_score', 'bm25f', 'score']);
  // ordinary short camelCase parts are words, not fragments
  assert.deepEqual(tokenize('toDB isOK IoError NumPy getX iOS findById', all),
    ['todb', 'db', 'isok', 'ok', 'ioerror', 'io', 'error', 'numpy', 'num', 'py', 'getx', 'get', 'ios', 'os', 'findbyid', 'find', 'id']);
  // a word that is one part, and a short word on its own, are never fragments
  assert.deepEqual(tokenize('la te 25 bm Py', all), ['la', 'te', '25', 'bm', 'py']);
  // the default keeps them (what documents and queries hold); keepWhole: false keeps the parts
  assert.deepEqual(tokenize('LaTeX BM25F'), ['latex', 'la', 'te', 'bm25f', 'bm', '25']);
  assert.deepEqual(tokenize('LaTeX', { keepWhole: false, dropFragments: 'all' }), ['la', 'te']);
  assert.throws(() => tokenize('x', { dropFragments: 'some' as never }), IssuelocError);
});

test('fragmentKinds: short parts at a letter-digit boundary, or in a run of short parts with a Capital-lower one', () => {
  const kinds = (w: string) => fragmentKinds(splitIdentifier(w));
  const [D, A] = [DIGIT_FRAGMENT, ACRONYM_FRAGMENT];
  assert.deepEqual(kinds('LaTeX'), [A, A, A]);
  assert.deepEqual(kinds('BM25F'), [D, D, D]);
  assert.deepEqual(kinds('int64'), [0, D]);
  assert.deepEqual(kinds('sha256'), [0, 0]);
  assert.deepEqual(kinds('toDB'), [0, 0]);
  assert.deepEqual(kinds('NumPy'), [0, 0]);
  assert.deepEqual(kinds('fpToString'), [0, 0, 0]);
  assert.deepEqual(kinds('isOk'), [0, 0]);
  assert.deepEqual(kinds('findById'), [0, 0, 0]);
  assert.deepEqual(kinds('NaN'), [A, A]);
  assert.deepEqual(kinds('LaTeXOutput'), [A, A, A, 0]);
  assert.deepEqual(kinds('PyQt5'), [0, D, D]);
  assert.deepEqual(kinds('La'), [0]);
  assert.deepEqual(fragmentKinds([]), []);
});

test('splitIdentifier keeps case and follows the camelCase / acronym / digit rules', () => {
  assert.deepEqual(splitIdentifier('HTTPServer'), ['HTTP', 'Server']);
  assert.deepEqual(splitIdentifier('HTTP'), ['HTTP']);
  assert.deepEqual(splitIdentifier('parseHTTPServer_v2'), ['parse', 'HTTP', 'Server', 'v', '2']);
  assert.deepEqual(splitIdentifier('__init__'), ['init']);
  assert.deepEqual(splitIdentifier('ABc'), ['A', 'Bc']);
  assert.deepEqual(splitIdentifier(''), []);
  assert.deepEqual(splitIdentifier('naïve'), ['na', 've']);
});

test('options: no splitting, no whole identifier, minLength', () => {
  assert.deepEqual(tokenize('getFooBar __x__', { splitIdentifiers: false }), ['getfoobar', '__x__']);
  assert.deepEqual(tokenize('getFooBar', { keepWhole: false }), ['get', 'foo', 'bar']);
  assert.deepEqual(tokenize('a bc def', { minLength: 3 }), ['def']);
  assert.deepEqual(tokenize('a bc', { minLength: 1, stopWords: new Set() }), ['a', 'bc']);
  assert.deepEqual(tokenize('The getHTTPServer runs', { lowercase: false }), ['getHTTPServer', 'get', 'HTTP', 'Server', 'runs']);
  assert.deepEqual(tokenize('The getHTTPServer runs', { lowercase: false, stem: true }), ['gethttpserv', 'get', 'http', 'server', 'run']);
  assert.throws(() => tokenize('x', { minLength: 0 }), IssuelocError);
  assert.throws(() => createTokenizer({ minLength: 1.5 }), IssuelocError);
});

test('stop words: English by default, language keywords on request', () => {
  assert.equal(ENGLISH_STOP_WORDS.size, 153);
  for (const kw of ['def', 'self', 'return', 'public', 'void', 'func', 'fn', 'let', 'const', 'elif', 'impl', 'nullptr']) {
    assert.ok(CODE_KEYWORDS.has(kw), kw);
  }
  const code = 'def get_user(self): return self.user_id  // public static void fn';
  assert.deepEqual(tokenize(code), ['def', 'get_user', 'get', 'user', 'self', 'return', 'self', 'user_id', 'user', 'id', 'public', 'static', 'void', 'fn']);
  assert.deepEqual(tokenize(code, { stopWords: defaultStopWords('english+code') }), ['get_user', 'get', 'user', 'user_id', 'user', 'id']);
  assert.equal(defaultStopWords('english+code'), defaultStopWords('english+code'));
  assert.throws(() => defaultStopWords('klingon' as never), IssuelocError);
});

test('languageKeywords: the reserved words of one language, with those it takes from another', () => {
  const py = languageKeywords('python');
  for (const kw of ['true', 'false', 'none', 'import', 'def', 'return', 'self']) assert.ok(py.has(kw), kw);
  assert.ok(!py.has('function') && !py.has('int'));
  assert.ok(languageKeywords('typescript').has('function') && languageKeywords('typescript').has('readonly'));
  assert.ok(languageKeywords('cpp').has('int') && languageKeywords('cpp').has('nullptr'));
  assert.ok(languageKeywords('cython').has('def'));
  assert.equal(languageKeywords('kotlin').size, 0);
  assert.equal(languageKeywords(undefined).size, 0);
  assert.equal(languageKeywords('python'), languageKeywords('python'));
});

test('a reused tokenizer gives the same answer from its memo', () => {
  const tk = createTokenizer({ stem: true });
  const first = tk.tokenize('connectionPool connections connectionPool');
  assert.deepEqual(first, ['connectionpool', 'connect', 'pool', 'connect', 'connectionpool', 'connect', 'pool']);
  assert.deepEqual(tk.tokenize('connectionPool'), ['connectionpool', 'connect', 'pool']);
});

test('non-strings are rejected with IssuelocError, odd strings never throw', () => {
  assert.throws(() => tokenize(undefined as unknown as string), IssuelocError);
  assert.deepEqual(tokenize('\u0000\uffff\ud800 😀 \n\t'), []);
});

test('termFrequencies counts tokens', () => {
  const tf = termFrequencies(tokenize('foo_bar foo bar foo'));
  assert.deepEqual([...tf], [['foo_bar', 1], ['foo', 3], ['bar', 2]]);
});

test('names of every language split into their words: ::, ->, #, Go initialisms, SCREAMING_CASE', () => {
  const t = (w: string) => tokenize(w, { stem: false });
  assert.deepEqual(t('parseURL'), ['parseurl', 'parse', 'url']);
  assert.deepEqual(t('getHTTPResponseCode'), ['gethttpresponsecode', 'get', 'http', 'response', 'code']);
  assert.deepEqual(t('userID'), ['userid', 'user', 'id']);
  assert.deepEqual(t('crate::module::read_to_end'), ['crate', 'module', 'read_to_end', 'read', 'end']);
  assert.deepEqual(t('ptr->next_node'), ['ptr', 'next_node', 'next', 'node']);
  assert.deepEqual(t('MAX_BUFFER_SIZE'), ['max_buffer_size', 'max', 'buffer', 'size']);
  assert.deepEqual(t('Gson#toJson'), ['gson', 'tojson', 'json']);
  assert.deepEqual(t('$scope'), ['scope']);
});

test('wordsOf + tokenizeWords: the tokens of tokenize, the text scanned once for every option set', () => {
  const text = 'Crash in parse_date: LaTeX BM25F x2 naïve_user __init__ 3D_plot getHTTPResponse2\n`to_sympy()` -- 42 ab';
  assert.deepEqual(wordsOf(text), ['Crash', 'in', 'parse_date', 'LaTeX', 'BM25F', 'x2', 'na', 've_user', '__init__', '3D_plot', 'getHTTPResponse2', 'to_sympy', '42', 'ab']);
  for (const opts of [{}, { stem: true }, { dropFragments: 'all' as const }, { stem: true, dropFragments: 'all' as const }, { keepSnakeParts: false }]) {
    assert.deepEqual(tokenizeWords(wordsOf(text), opts), tokenize(text, opts), JSON.stringify(opts));
  }
  assert.throws(() => wordsOf(undefined as unknown as string), IssuelocError);
});
