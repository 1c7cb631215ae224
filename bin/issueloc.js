#!/usr/bin/env node
// The `issueloc` executable (kept in git with its executable bit, so `npx issueloc` runs in a fresh
// clone): the compiled CLI, built by `npm ci` (the prepare script). It runs the bundle of
// dist/bundle/ (build/cli-bundle.mjs: a few files to parse instead of ~140 modules) when that was
// made from tsc's output as it is now, else dist/src: in a checkout, `tsc` alone after the bundle
// rewrites dist/src/cli/main.js, whose time the bundle's built-from.json no longer names; an
// installed package (under node_modules, whose files get the time of their unpacking) runs the
// bundle it was packed with.
import { readFileSync, statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// Most calls are short (a warm localize: well under a second of CPU). V8 optimizes a function
// after 16 times its usual budget of interpreted work: code run briefly is not compiled by
// TurboFan (CPU on another thread, wasted when the process ends), hot loops still are. On sympy
// ≈ 15–25 % less CPU per warm localize, and an index build no slower (bench/cli-startup).
setFlagsFromString('--interrupt-budget=1081344');

// A warm `localize` (one call per issue) allocates some 40 MB in half a second. V8 grows the young
// generation as it goes (semi-spaces ×2 per step, up to 16 MB), each step on pages never touched
// before; kept at its first size (1 MB) the call touches ≈ 3 000 fewer pages: ≈ 10 % less CPU and
// 15-20 % less wall time (bench/cli-startup). Longer work gets V8's growth back (factor 2, its
// default): a call that builds an index or reads the history on its first progress report
// (src/cli/heap-growth.ts), any call after 1 s of CPU (with the growth held, a sympy index build
// took ≈ 10 % more CPU).
//
// A warm `localize` runs its hot loops (the query's scoring) for some tens of milliseconds: with 4
// times that budget again, TurboFan compiles less of it in vain (≈ 6 % less CPU per call on sympy,
// both pipelines, bench/cli-startup), while a loop that runs long is still optimized, only later.
// The longer work above gets the budget of every other command back, with the growth.
if (process.argv[2] === 'localize') {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--interrupt-budget=4325376');
  const check = setInterval(() => {
    const { user, system } = process.cpuUsage();
    if (user + system < 1e6) return;
    setFlagsFromString('--semi-space-growth-factor=2');
    setFlagsFromString('--interrupt-budget=1081344');
    clearInterval(check);
  }, 100);
  check.unref();
}

/** True when dist/bundle was made from dist/src as it is (see the file comment). */
function bundleFresh() {
  try {
    const stamp = JSON.parse(readFileSync(new URL('../dist/bundle/built-from.json', import.meta.url), 'utf8'));
    if (/[\\/]node_modules[\\/]/.test(decodeURIComponent(new URL('.', import.meta.url).pathname))) return true;
    return statSync(new URL('../dist/src/cli/main.js', import.meta.url)).mtimeMs === stamp.mainMtimeMs;
  } catch {
    return false;
  }
}

// `localize` runs as one script with a V8 code cache (dist/bundle/localize.mjs, src/cli/code-cache.ts),
// every other command as the ES modules of the bundle
if (bundleFresh()) await import(process.argv[2] === 'localize' ? '../dist/bundle/localize.mjs' : '../dist/bundle/issueloc.mjs');
else await import('../dist/src/cli/bin.js');
