// Issue 12 items 6 and 9: every cache file is verified on load (checksum, then structure); a
// corrupt one gives one warning line and is rebuilt, never used and never a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit, withCodeIndex } from '../../src/index/index-commit.js';
import { DEFAULT_INDEX_SETTINGS, indexFilePath, loadCodeIndex, type CodeIndex } from '../../src/index/code-index.js';
import { openLocalizer, type LocalizeResult } from '../../src/pipeline/localizer.js';
import { readCheckedFile, readCheckedPayload, setCacheWarningSink, writeCheckedFile } from '../../src/util/checked-file.js';
import { blocksLayout, editUnderChecksums } from '../util/checked-blocks-fixture.js';
import { VectorCache } from '../../src/embed/vector-cache.js';
import { CachedChatModel } from '../../src/llm-rerank/response-cache.js';
import type { ChatModel } from '../../src/llm-rerank/chat-model.js';
import { HistoryLog } from '../../src/history/history-log.js';
import { FeatureCache } from '../../src/ltr/feature-cache.js';
import { FEATURES } from '../../src/ltr/features/registry.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';

/** Runs `f` with cache warnings collected; returns them with f's value. */
async function withWarnings<T>(f: () => T | Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const prev = setCacheWarningSink((l) => warnings.push(l));
  try {
    return { value: await f(), warnings };
  } finally {
    setCacheWarningSink(prev);
  }
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

function flipBit(file: string, bit: number): void {
  const buf = readFileSync(file);
  buf[bit >> 3] ^= 1 << (bit & 7);
  writeFileSync(file, buf);
}

const corrupted = (file: string) => `issueloc: warning: corrupt cache file ${file}: rebuilt\n`;

test('checked files: every single-bit flip, truncation, another tag and a zero-length part are caught', () => {
  const dir = tempDir('issueloc-checked-');
  try {
    const file = join(dir, 'x.bin');
    const parts = ['{"a":1}', new Uint32Array([7, 8, 9]), Buffer.alloc(0), new Uint16Array(0), 'tail'];
    writeCheckedFile(file, 'test.v1', parts);
    const good = readFileSync(file);
    assert.equal(readCheckedPayload(file, 'test.v1')?.toString('latin1', 0, 7), '{"a":1}');
    for (let bit = 0; bit < good.length * 8; bit++) {
      writeFileSync(file, good);
      flipBit(file, bit);
      assert.equal(readCheckedPayload(file, 'test.v1'), null, `bit ${bit} flipped`);
    }
    writeFileSync(file, good.subarray(0, good.length - 1));
    assert.equal(readCheckedPayload(file, 'test.v1'), null, 'truncated');
    writeFileSync(file, good);
    assert.equal(readCheckedPayload(file, 'other'), null, 'another tag');
    assert.equal(readCheckedPayload(join(dir, 'none'), 'test.v1'), undefined, 'missing: a miss, not corrupt');
  } finally {
    cleanup(dir);
  }
});

function fixture() {
  const dir = tempDir('issueloc-integrity-');
  const work = join(dir, 'repo');
  const commit = commitFiles(work, {
    'a.py': 'class Parser:\n    def parse(self, text):\n        return text.split()\n\ndef helper():\n    pass\n',
    'b.js': 'function renderTable(rows) { return rows.join("\\n"); }\n',
  });
  return { dir, work, commit, cache: join(dir, 'cache') };
}

test('index files: a bit flipped in a head is rejected at load with a warning, then rebuilt; a unit file out of range too', async () => {
  const fx = fixture();
  const repo = await GitRepo.open(fx.work);
  try {
    const settings = DEFAULT_INDEX_SETTINGS;
    const fresh = (await indexCommit(repo, fx.commit, { cacheDir: fx.cache })).codeIndex;
    const ids = (ci: typeof fresh) => ci.units.map((u) => `${u.path}:${u.qualifiedName}`);
    for (const level of ['function', 'file'] as const) {
      const file = indexFilePath(fx.cache, fx.commit, settings, level);
      const { blockAt } = blocksLayout(readFileSync(file));
      const size = statSync(file).size;
      // the bits before the blocks (head, table) and after them (footer, trailer)
      const outside = 8 * (blockAt[0] + size - blockAt[blockAt.length - 1]);
      for (let k = 0; k < 24; k++) {
        await indexCommit(repo, fx.commit, { cacheDir: fx.cache, force: true });
        const n = (k * 7919 * 13 + level.length) % outside;
        const bit = n < 8 * blockAt[0] ? n : n - 8 * blockAt[0] + 8 * blockAt[blockAt.length - 1];
        flipBit(file, bit);
        const { value, warnings } = await withWarnings(() => indexCommit(repo, fx.commit, { cacheDir: fx.cache }));
        assert.equal(value.built, true, `${level} bit ${bit}: rebuilt, not loaded`);
        assert.deepEqual(ids(value.codeIndex), ids(fresh));
        assert.deepEqual(warnings, [corrupted(file)], `${level} bit ${bit}: one warning, not one per read`);
      }
    }
    // A matching checksum over a wrong structure: the first unit's file past the file count
    // (the unit table follows the key offsets of the term dictionary: src/index/store.ts).
    const file = indexFilePath(fx.cache, fx.commit, settings);
    editUnderChecksums(file, (bytes) => {
      const h = bytes.readUInt32LE(0);
      const header = JSON.parse(bytes.toString('utf8', 4, 4 + h)) as { termCount: number };
      const start = 4 + h + ((4 - ((4 + h) % 4)) % 4) + 4 * (Math.ceil(header.termCount / 16) + 1);
      bytes.writeUInt32LE(fresh.filePaths.length + 5, start);
    });
    const { value, warnings } = await withWarnings(() => loadCodeIndex(fx.cache, fx.commit, settings));
    assert.equal(value, undefined);
    assert.deepEqual(warnings, [corrupted(file)]);
  } finally {
    await repo.close();
    cleanup(fx.dir);
  }
});

test('index files: a bit flipped in a block of terms is found when a query reads it: one warning, the index rebuilt, the answer of a fresh cache', async () => {
  const fx = fixture();
  const issue = 'The parser fails: parse(text) returns a wrong split, see helper and renderTable rows';
  const answer = async (cacheDir: string) => {
    const localizer = await openLocalizer({ repo: fx.work, cacheDir });
    try {
      const first = await localizer.localize(issue, { top: 10 });
      const second = await localizer.localize(issue, { top: 10 });
      return { first, second };
    } finally {
      await localizer.close();
    }
  };
  const rankingOf = (r: LocalizeResult) => JSON.stringify([r.files, r.modules, r.functions]);
  try {
    const fresh = (await answer(fx.cache)).first;
    assert.ok(fresh.functions.length > 0);
    const settings = DEFAULT_INDEX_SETTINGS;
    for (const level of ['function', 'file'] as const) {
      for (const every of [true, false]) {
        const file = indexFilePath(fx.cache, fx.commit, settings, level);
        const good = readFileSync(file);
        const { blockAt } = blocksLayout(good);
        // one bit in each block (a query reads some of them), or in the first only
        const bad = Buffer.from(good);
        for (let b = 0; b < (every ? blockAt.length - 1 : 1); b++) if (blockAt[b + 1] > blockAt[b]) bad[blockAt[b] + ((b * 31) % (blockAt[b + 1] - blockAt[b]))] ^= 0x10;
        writeFileSync(file, bad);
        const { value, warnings } = await withWarnings(() => answer(fx.cache));
        assert.equal(rankingOf(value.first), rankingOf(fresh), `${level}, ${every ? 'every block' : 'the first block'}: the ranking of a fresh cache`);
        assert.equal(rankingOf(value.second), rankingOf(fresh));
        if (every) {
          assert.deepEqual(warnings, [corrupted(file)], `${level}: one warning`);
          assert.equal(value.first.index.built, true, 'answered from the rebuilt index');
          assert.ok(statSync(file).size > 0 && !readFileSync(file).equals(bad), 'the file is written anew');
        } else if (warnings.length === 0) {
          assert.equal(value.first.index.built, false, 'a block no query read: loaded, no warning');
          writeFileSync(file, good);
        }
        const again = await withWarnings(() => answer(fx.cache));
        assert.deepEqual(again.warnings, [], 'the next run is clean');
      }
    }
  } finally {
    cleanup(fx.dir);
  }
});

test('withCodeIndex: a corrupt block met by its user has the index rebuilt and the user run once more, on the rebuilt index', async () => {
  const fx = fixture();
  const repo = await GitRepo.open(fx.work);
  try {
    await indexCommit(repo, fx.commit, { cacheDir: fx.cache });
    const file = indexFilePath(fx.cache, fx.commit, DEFAULT_INDEX_SETTINGS);
    const bytes = readFileSync(file);
    const { blockAt } = blocksLayout(bytes);
    for (let b = 0; b + 1 < blockAt.length; b++) bytes[blockAt[b]] ^= 0x01;
    writeFileSync(file, bytes);
    const runs: boolean[] = [];
    const postingsOfAll = async ({ codeIndex, built }: { codeIndex: CodeIndex; built: boolean }) => {
      runs.push(built);
      const { index } = codeIndex;
      let n = 0;
      for (let t = 0; t < index.termCount; t++) n += index.postings(t).doc.length;
      return n;
    };
    const { value, warnings } = await withWarnings(() => withCodeIndex(repo, fx.commit, { cacheDir: fx.cache }, postingsOfAll));
    assert.deepEqual(runs, [false, true], 'loaded, then rebuilt');
    assert.deepEqual(warnings, [corrupted(file)]);
    const again = await withWarnings(() => withCodeIndex(repo, fx.commit, { cacheDir: fx.cache }, postingsOfAll));
    assert.equal(again.value, value);
    assert.deepEqual(again.warnings, []);
    assert.deepEqual(runs, [false, true, false], 'the rebuilt file loads');
  } finally {
    await repo.close();
    cleanup(fx.dir);
  }
});

test('blob entries: an edited or non-array entry is not used; index --force re-parses every blob', async () => {
  const fx = fixture();
  const repo = await GitRepo.open(fx.work);
  try {
    await indexCommit(repo, fx.commit, { cacheDir: fx.cache });
    const blobFiles = filesUnder(fx.cache).filter((f) => f.includes('/blobs-'));
    assert.equal(blobFiles.length, 2);
    // `[]` would hide a.py, `{}` crashed every run: both with and without a fitting trailer
    writeFileSync(blobFiles[0], '[]');
    writeCheckedFile(blobFiles[1], 'blob.v1', ['{}']);
    const { value, warnings } = await withWarnings(() => indexCommit(repo, fx.commit, { cacheDir: fx.cache, force: true }));
    assert.equal(value.codeIndex.stats.parsedBlobs, 2, '--force re-parses');
    assert.equal(value.codeIndex.stats.cachedBlobs, 0);
    assert.deepEqual(warnings, [], '--force does not read blob entries at all');
    // Corrupt them again: a rebuild without --force warns, re-parses and finds every function.
    writeFileSync(blobFiles[0], '[]');
    writeCheckedFile(blobFiles[1], 'blob.v1', ['{}']);
    const settings = DEFAULT_INDEX_SETTINGS;
    for (const level of ['function', 'file'] as const) writeFileSync(indexFilePath(fx.cache, fx.commit, settings, level), '');
    const again = await withWarnings(() => indexCommit(repo, fx.commit, { cacheDir: fx.cache }));
    assert.deepEqual(again.value.codeIndex.units.map((u) => u.qualifiedName).sort(), ['Parser.parse', 'helper', 'renderTable']);
    assert.equal(again.value.codeIndex.stats.parsedBlobs, 2);
    assert.equal(again.warnings.filter((w) => /corrupt cache file .*blobs-/.test(w)).length, 2, again.warnings.join(''));
  } finally {
    await repo.close();
    cleanup(fx.dir);
  }
});

test('vector, LLM answer, history and feature caches: a corrupt file is a miss with one warning', async () => {
  const fx = fixture();
  try {
    // vectors
    const vc = new VectorCache(fx.cache, 'fake:model');
    vc.checkDimension(2);
    vc.set('ab12', { spans: [[1, 3]], dim: 2, vectors: new Float32Array([0.5, 0.25]) });
    assert.deepEqual([...new VectorCache(fx.cache, 'fake:model').get('ab12')!.vectors], [0.5, 0.25]);
    const vecFile = filesUnder(join(fx.cache, 'vectors')).find((f) => f.endsWith('.f32'))!;
    flipBit(vecFile, 8 * statSync(vecFile).size - 200);
    const vec = await withWarnings(() => new VectorCache(fx.cache, 'fake:model').get('ab12'));
    assert.equal(vec.value, undefined);
    assert.deepEqual(vec.warnings, [corrupted(vecFile)]);
    // LLM answers
    let calls = 0;
    const inner: ChatModel = { id: 'fake', complete: async () => ({ text: `answer ${++calls}`, inputTokens: 3, outputTokens: 1 }) };
    const req = { messages: [{ role: 'user' as const, content: 'rank these' }], maxTokens: 5 };
    const llm = new CachedChatModel(inner, join(fx.cache, 'llm'));
    assert.equal((await llm.complete(req)).text, 'answer 1');
    assert.equal((await llm.complete(req)).text, 'answer 1', 'from the cache');
    const answerFile = filesUnder(join(fx.cache, 'llm'))[0];
    writeFileSync(answerFile, readFileSync(answerFile, 'utf8').replace('answer 1', 'answer X'));
    const answer = await withWarnings(() => llm.complete(req));
    assert.equal(answer.value.text, 'answer 2', 'the edited answer is not used');
    assert.deepEqual(answer.warnings, [corrupted(answerFile)]);
    // history log
    const head = git(fx.work, 'rev-parse', 'HEAD');
    assert.equal((await HistoryLog.load(fx.work, [head], { cacheDir: fx.cache })).size, 1);
    const logFile = filesUnder(join(fx.cache, 'history'))[0];
    writeFileSync(logFile, readFileSync(logFile, 'utf8').replace('"shas":["', '"shas":["0'));
    const log = await withWarnings(() => HistoryLog.load(fx.work, [head], { cacheDir: fx.cache }));
    assert.equal(log.value.indexOf(head), 0, 'rebuilt from git');
    assert.deepEqual(log.warnings, [corrupted(logFile)]);
    // features: a checksum that fits over a feature matrix that does not
    const fc = new FeatureCache(join(fx.dir, 'features'), {});
    const issue = { id: 'i1', repo: 'o/r', commit: head, text: 't', created: 0, gold: { file: [], module: [], function: [] } };
    const n = 2;
    fc.set(issue, { id: 'i1', repo: 'o/r', n, features: new Float32Array(n * FEATURES.length), ids: ['a', 'b'], paths: ['a', 'b'], modules: ['a', 'b'], gold: issue.gold });
    assert.equal(fc.get(issue)?.n, 2);
    const featFile = filesUnder(join(fx.dir, 'features'))[0];
    const stored = readCheckedFile(featFile, 'feat.v2', (p) => JSON.parse(p.toString('utf8')) as { n: number });
    writeCheckedFile(featFile, 'feat.v2', [JSON.stringify({ ...stored, n: 3 })]);
    const feat = await withWarnings(() => fc.get(issue));
    assert.equal(feat.value, undefined);
    assert.deepEqual(feat.warnings, [corrupted(featFile)]);
  } finally {
    cleanup(fx.dir);
  }
});
