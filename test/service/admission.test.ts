// The one admission bound of `issueloc serve` (issue 31 F2): slots held until the work ends,
// a request's calls counted each (reserve), 429 past the bound, 503 while draining.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Admission } from '../../src/service/admission.js';
import { ServiceError } from '../../src/service/errors.js';

const status = (e: unknown) => (e instanceof ServiceError ? e.status : -1);

test('work holds its slot until it ends; past the bound 429; a reservation is used by its calls, the rest given back', async () => {
  const a = new Admission(3);
  let finish!: () => void;
  const long = a.run(() => new Promise<void>((r) => { finish = r; }));
  assert.equal(a.inFlight, 1);
  assert.equal(a.refusal(3)?.status, 429, 'three more do not fit beside one');
  assert.equal(a.refusal(4)?.status, 429);
  assert.match(a.refusal(4)!.message, /4 calls in one request/);
  let inside = -1;
  await a.reserve(2, async () => {
    assert.equal(a.inFlight, 3);
    let open!: () => void;
    const gate = new Promise<void>((r) => { open = r; });
    const two = [a.run(() => gate), a.run(() => gate)];
    assert.equal(a.inFlight, 3, 'the two calls use the reserved slots');
    await assert.rejects(a.run(async () => undefined), (e) => status(e) === 429);
    open();
    await Promise.all(two);
    inside = a.inFlight;
  });
  await a.reserve(2, async () => undefined);
  assert.equal(inside, 1, 'slots given back as the calls ended, unused reserved ones when the request ended');
  assert.equal(a.inFlight, 1);
  a.drain();
  assert.equal(a.refusal(1)?.status, 503);
  const idle = a.idle(60_000);
  finish();
  await long;
  await idle;
  assert.equal(a.inFlight, 0);
});
