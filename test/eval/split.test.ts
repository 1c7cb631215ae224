import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compareIdsNatural, pickSplit, temporalSplit, toEpochMs } from '../../src/eval/split.js';
import { IssuelocError } from '../../src/errors.js';
import { fixtureData } from '../fixtures/data.js';

interface Rec { id: string; t: string | number | Date }
const idOf = (r: Rec): string => r.id;
const tOf = (r: Rec): string | number | Date => r.t;

test('earlier half is validation (ceil(n/2)), later half is test', () => {
  const recs: Rec[] = [
    { id: 'MNG-5', t: '2020-01-05T00:00:00Z' },
    { id: 'MNG-1', t: '2020-01-01T00:00:00Z' },
    { id: 'MNG-4', t: 'Sat, 04 Jan 2020 00:00:00 +0000' },
    { id: 'MNG-2', t: 1577923200 }, // 2020-01-02 in Unix seconds
    { id: 'MNG-3', t: new Date('2020-01-03T00:00:00Z') },
  ];
  const s = temporalSplit(recs, idOf, tOf);
  assert.deepEqual(s.validation.map(idOf), ['MNG-1', 'MNG-2', 'MNG-3']);
  assert.deepEqual(s.test.map(idOf), ['MNG-4', 'MNG-5']);
  assert.equal(s.boundary.lastValidationMs, Date.parse('2020-01-03T00:00:00Z'));
  assert.equal(s.tiesAcrossBoundary, 0);
});

test('ties in time are broken by natural id order, independent of input order', () => {
  const recs: Rec[] = [
    { id: 'MNG-10', t: 100 }, { id: 'MNG-9', t: 100 }, { id: 'MNG-100', t: 100 }, { id: 'MNG-2', t: 50 },
  ];
  const a = temporalSplit(recs, idOf, tOf);
  const b = temporalSplit([...recs].reverse(), idOf, tOf);
  assert.deepEqual(a.validation.map(idOf), ['MNG-2', 'MNG-9']);
  assert.deepEqual(a.test.map(idOf), ['MNG-10', 'MNG-100']);
  assert.deepEqual(b.validation.map(idOf), a.validation.map(idOf));
  assert.equal(a.tiesAcrossBoundary, 2);
  assert.ok(compareIdsNatural('a2', 'a10') < 0 && compareIdsNatural('a10', 'a010') < 0);
});

test('empty or one-issue input, duplicate ids and bad dates throw IssuelocError with a clear message', () => {
  assert.throws(() => temporalSplit([], idOf, tOf), /at least 2 issues, got 0: the validation and test splits would be empty/);
  assert.throws(() => temporalSplit([{ id: 'a', t: 1 }], idOf, tOf), /got 1: the test split would be empty/);
  assert.throws(() => temporalSplit([{ id: 'a', t: 1 }, { id: 'a', t: 2 }], idOf, tOf), /'a' appears twice/);
  assert.throws(() => temporalSplit([{ id: 'a', t: 1 }, { id: 'b', t: 'yesterday' }], idOf, tOf), /first commit of issue b: 'yesterday'/);
  assert.throws(() => toEpochMs(Number.NaN, 'x'), IssuelocError);
  const s = temporalSplit([{ id: 'a', t: 1 }, { id: 'b', t: 2 }], idOf, tOf);
  assert.deepEqual(pickSplit(s, 'all').map(idOf), ['a', 'b']);
  assert.throws(() => pickSplit(s, 'train'), /unknown split 'train'/);
});

test('Tomcat (Ye et al. 2014) slice: halves are ordered in time', () => {
  const lines = readFileSync(fixtureData('tomcat.jsonl'), 'utf8').split('\n'); // newest first, one tie
  const recs = lines.filter((l) => l.trim()).map((l) => {
    const r = JSON.parse(l) as { bug_id: string; commit_timestamp: string };
    return { id: r.bug_id, t: r.commit_timestamp };
  });
  const s = temporalSplit(recs, idOf, tOf);
  assert.equal(s.validation.length, 6);
  assert.equal(s.test.length, 5);
  const maxVal = Math.max(...s.validation.map((r) => toEpochMs(r.t, r.id)));
  const minTest = Math.min(...s.test.map((r) => toEpochMs(r.t, r.id)));
  assert.ok(maxVal <= minTest);
  assert.deepEqual(s.test.map(idOf).sort(), ['55943', '56010', '56012', '56025', '56029']);
});
