import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { progressBar } from '../../src/util/progress-bar.js';

/** A stream that keeps what is written; a terminal or not. */
function stream(isTTY: boolean): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  return {
    isTTY, columns: 100, write: (s: string) => { chunks.push(String(s)); return true; },
    cursorTo: () => true, clearLine: () => true, moveCursor: () => true, on: () => undefined, removeListener: () => undefined,
    text: () => chunks.join(''),
  } as unknown as NodeJS.WriteStream & { text: () => string };
}

test('off a terminal: one line per phase when it ends, each phase finished before the next, and a line every 10 s of a long one', () => {
  mock.timers.enable({ apis: ['Date'] });
  try {
    const s = stream(false);
    const index = progressBar('indexing', true, s);
    const history = progressBar('reading git history', true, s);
    const quiet = progressBar('embedding functions', true, s);
    index.update(0, 40);
    mock.timers.tick(4_000);
    index.update(20, 40);
    assert.equal(s.text(), '', 'nothing before 10 s');
    mock.timers.tick(7_000);
    index.update(30, 40);
    assert.equal(s.text(), 'issueloc: progress: indexing 30/40 (75 %), 11.0 s\n');
    index.update(40, 40);
    history.update(1, 9); // the next phase ends this one
    index.update(40, 40); // a finished phase stays finished
    mock.timers.tick(500);
    history.update(9, 9);
    for (const bar of [index, history, quiet]) bar.stop();
    assert.deepEqual(s.text().split('\n').filter(Boolean), [
      'issueloc: progress: indexing 30/40 (75 %), 11.0 s',
      'issueloc: progress: indexing 40/40, 11.0 s',
      'issueloc: progress: reading git history 9/9, 0.5 s',
    ], 'a phase that reported nothing prints nothing');
  } finally {
    mock.timers.reset();
  }
});

test('off a terminal: a long phase that stops reporting still prints a line every 10 s (a CI log never goes quiet)', () => {
  mock.timers.enable({ apis: ['Date', 'setInterval'] });
  try {
    const s = stream(false);
    const history = progressBar('reading git history', true, s);
    history.update(0, 100);
    mock.timers.tick(9_000);
    assert.equal(s.text(), '');
    mock.timers.tick(1_000);
    assert.equal(s.text(), 'issueloc: progress: reading git history 0/100 (0 %), 10.0 s\n');
    mock.timers.tick(10_000);
    history.stop();
    mock.timers.tick(30_000);
    assert.deepEqual(s.text().split('\n').filter(Boolean), [
      'issueloc: progress: reading git history 0/100 (0 %), 10.0 s',
      'issueloc: progress: reading git history 0/100 (0 %), 20.0 s',
      'issueloc: progress: reading git history 0/100, 20.0 s',
    ], 'nothing after the phase ended');
  } finally {
    mock.timers.reset();
  }
});

test('on a terminal: one bar at a time: the next phase finishes the bar before it, which then ignores updates', () => {
  const s = stream(true);
  const index = progressBar('indexing', true, s);
  const history = progressBar('reading git history', true, s);
  index.update(0, 10);
  index.update(10, 10);
  history.update(1, 5);
  const before = s.text();
  assert.match(before, /indexing/);
  index.update(10, 10);
  assert.equal(s.text().slice(before.length).includes('indexing'), false, 'the finished bar draws nothing more');
  history.stop();
  index.stop();
});

test('--no-progress: nothing at all', () => {
  const s = stream(false);
  const bar = progressBar('indexing', false, s);
  bar.update(1, 2);
  bar.stop();
  assert.equal(s.text(), '');
});
