import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CorruptCacheFileError, hasCheckedTrailer, openCheckedBlocks, readCheckedJson, setCacheWarningSink, writeCheckedBlocks, writeCheckedJson, type CheckedBlocks,
} from '../../src/util/checked-file.js';
import { blocksLayout, editUnderChecksums } from './checked-blocks-fixture.js';

const isPoint = (x: unknown): x is { x: number } => typeof x === 'object' && x !== null && typeof (x as { x: unknown }).x === 'number';

test('checked file: a good file reads back; a flipped byte is one warning and the file is removed, so the next read is a plain miss', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-checked-'));
  const warnings: string[] = [];
  const prev = setCacheWarningSink((l) => warnings.push(l));
  try {
    const f = join(dir, 'p.json');
    writeCheckedJson(f, 'test.v1', { x: 7 });
    assert.deepEqual(readCheckedJson(f, 'test.v1', isPoint), { x: 7 });
    assert.equal(readCheckedJson(f, 'test.v2', isPoint), undefined, 'another tag is not read');
    assert.equal(warnings.length, 1);
    assert.equal(existsSync(f), false, 'the corrupt (other-format) file is removed');
    writeCheckedJson(f, 'test.v1', { x: 7 });
    const bytes = readFileSync(f);
    bytes[3] ^= 0x10;
    writeFileSync(f, bytes);
    assert.equal(readCheckedJson(f, 'test.v1', isPoint), undefined);
    assert.equal(warnings.length, 2);
    assert.match(warnings[1], /^issueloc: warning: corrupt cache file .*p\.json: rebuilt\n$/);
    assert.equal(existsSync(f), false);
    assert.equal(readCheckedJson(f, 'test.v1', isPoint), undefined);
    assert.equal(warnings.length, 2, 'a missing file is no warning');
  } finally {
    setCacheWarningSink(prev);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('checked blocks: the head and the table are verified at open, each block at its first read; every single-bit flip is caught, none reads wrong bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-blocks-'));
  const warnings: string[] = [];
  const prev = setCacheWarningSink((l) => warnings.push(l));
  try {
    const f = join(dir, 'b.bin');
    const body = Buffer.from('alpha|beta|gamma-delta');
    const start = [0, 6, 6, 11, body.length]; // an empty block too
    const head = ['{"h":1}', new Uint16Array([3, 4, 5])];
    const size = writeCheckedBlocks(f, 'test.v1', head, body, start);
    const good = readFileSync(f);
    assert.equal(size, good.length);
    assert.ok(hasCheckedTrailer(f, good.length), 'cache-usage tells it is a file issueloc wrote');
    const open = () => openCheckedBlocks(f, 'test.v1', (h, blocks) => ({ h: Buffer.from(h), blocks }));
    const all = (blocks: CheckedBlocks) => Array.from({ length: blocks.count }, (_, b) => blocks.read(b).toString('latin1'));
    const back = open()!;
    assert.equal(back.h.toString('latin1', 0, 7), '{"h":1}');
    assert.equal(back.h.length, 13);
    assert.deepEqual(all(back.blocks), ['alpha|', '', 'beta|', 'gamma-delta']);
    back.blocks.close();
    assert.throws(() => back.blocks.read(0), /read after close/);
    const { blockAt } = blocksLayout(good);
    let atOpen = 0, atRead = 0;
    for (let bit = 0; bit < good.length * 8; bit++) {
      const bad = Buffer.from(good);
      bad[bit >> 3] ^= 1 << (bit & 7);
      writeFileSync(f, bad);
      setCacheWarningSink((l) => warnings.push(l)); // its count of warnings anew (more than 10 are summed up)
      const n = warnings.length;
      const opened = open();
      const byte = bit >> 3;
      const inBlocks = byte >= blockAt[0] && byte < blockAt[blockAt.length - 1];
      if (!inBlocks) {
        assert.equal(opened, undefined, `bit ${bit} (outside the blocks) refused at open`);
        assert.equal(warnings.length, n + 1);
        atOpen++;
        continue;
      }
      assert.ok(opened, `bit ${bit} (in a block) opens`);
      const flipped = blockAt.findIndex((a, b) => byte >= a && byte < blockAt[b + 1]);
      for (let b = 0; b < opened.blocks.count; b++) {
        if (b === flipped) continue;
        assert.equal(opened.blocks.read(b).toString('latin1'), body.toString('latin1', start[b], start[b + 1]), 'another block reads as written');
      }
      assert.equal(warnings.length, n, 'no warning before the flipped block is read');
      assert.throws(() => opened.blocks.read(flipped), CorruptCacheFileError);
      assert.equal(warnings.length, n + 1, 'one warning at its read');
      assert.equal(existsSync(f), false, 'the corrupt file is removed');
      assert.throws(() => opened.blocks.read(0), CorruptCacheFileError, 'every later read throws, without another warning');
      assert.equal(warnings.length, n + 1);
      atRead++;
    }
    assert.ok(atOpen > 0 && atRead > 0);
    // cut anywhere, another tag, a file of the whole-file kind: refused at open
    for (const len of [0, 10, good.length - 1, blockAt[1]]) {
      writeFileSync(f, good.subarray(0, len));
      assert.equal(open(), undefined, `cut to ${len}`);
    }
    writeFileSync(f, good);
    assert.equal(openCheckedBlocks(f, 'test.v2', () => 1), undefined, 'another tag');
    writeCheckedJson(f, 'test.v1', { x: 1 });
    assert.equal(open(), undefined, 'a whole-file checked file');
    assert.equal(openCheckedBlocks(join(dir, 'none'), 'test.v1', () => 1), undefined);
    const before = warnings.length;
    assert.equal(openCheckedBlocks(join(dir, 'none'), 'test.v1', () => 1), undefined);
    assert.equal(warnings.length, before, 'a missing file is no warning');
    // a structure the caller refuses: corrupt, with a warning
    writeFileSync(f, good);
    assert.equal(openCheckedBlocks(f, 'test.v1', () => { throw new Error('not mine'); }), undefined);
    assert.equal(warnings.length, before + 1);
    assert.throws(() => writeCheckedBlocks(f, 'test.v1', [], body, [0, 30]), /offsets must cut the body/);
    assert.throws(() => writeCheckedBlocks(f, 'test.v1', [], body, [0, 9, 5, body.length]), /offsets must cut the body/);
  } finally {
    setCacheWarningSink(prev);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('checked blocks: a block is read as the file was opened, even when another file took its name; the corrupt one found then does not remove the new one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-blocks-'));
  const warnings: string[] = [];
  const prev = setCacheWarningSink((l) => warnings.push(l));
  try {
    const f = join(dir, 'b.bin');
    writeCheckedBlocks(f, 'test.v1', ['h'], Buffer.from('onetwo'), [0, 3, 6]);
    const first = openCheckedBlocks(f, 'test.v1', (_h, blocks) => blocks)!;
    writeCheckedBlocks(f, 'test.v1', ['h'], Buffer.from('ONETWO'), [0, 3, 6]); // renamed over it
    assert.equal(first.read(1).toString(), 'two');
    first.close();
    const second = openCheckedBlocks(f, 'test.v1', (_h, blocks) => blocks)!;
    const bytes = readFileSync(f);
    bytes[blocksLayout(bytes).blockAt[0]] ^= 1;
    writeFileSync(f, bytes); // in place: the open file is corrupt now
    const other = join(dir, 'other.bin');
    writeCheckedBlocks(other, 'test.v1', ['h'], Buffer.from('abcdef'), [0, 3, 6]);
    renameSync(other, f); // and another process replaced it since
    assert.throws(() => second.read(0), CorruptCacheFileError);
    assert.equal(warnings.length, 1);
    assert.equal(existsSync(f), true, 'the file now under the name is not removed');
    assert.equal(openCheckedBlocks(f, 'test.v1', (_h, blocks) => blocks.read(0).toString()), 'abc');
  } finally {
    setCacheWarningSink(prev);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('checked blocks: a block table that descends under a matching checksum (a writer bug) is corrupt at the block read, never a crash', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-blocks-'));
  const warnings: string[] = [];
  const prev = setCacheWarningSink((l) => warnings.push(l));
  try {
    const f = join(dir, 'b.bin');
    writeCheckedBlocks(f, 'test.v1', ['head'], Buffer.from('onetwothree'), [0, 3, 6, 11]);
    // offsets 0, 3, 6, 11 → 0, 9, 6, 11: block 1 ends before it starts
    editUnderChecksums(f, (bytes, { head }) => bytes.writeUInt32LE(9, head + 4));
    const blocks = openCheckedBlocks(f, 'test.v1', (_h, b) => b);
    assert.ok(blocks, 'opens: the offsets are checked per block');
    assert.throws(() => blocks.read(1), CorruptCacheFileError);
    assert.equal(warnings.length, 1);
  } finally {
    setCacheWarningSink(prev);
    rmSync(dir, { recursive: true, force: true });
  }
});
