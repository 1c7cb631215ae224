#!/usr/bin/env node
// The `issueloc` executable (kept in git with its executable bit, so `npx issueloc` runs in a fresh
// clone): the compiled CLI, built by `npm ci` (the prepare script). It runs the bundle of
// dist/bundle/ (build/cli-bundle.mjs: a few files to parse instead of ~140 modules) when that is
// at least as new as tsc's output, else dist/src (after `tsc` alone the bundle is older: stale).
import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// Most calls are short (a warm localize: well under a second of CPU). V8 optimizes a function
// after 16 times its usual budget of interpreted work: code run briefly is not compiled by
// TurboFan (CPU on another thread, wasted when the process ends), hot loops still are. On sympy
// ≈ 15–25 % less CPU per warm localize, and an index build no slower (bench/cli-startup).
setFlagsFromString('--interrupt-budget=1081344');

const mtime = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
const bundled = mtime('../dist/bundle/issueloc.mjs');
if (bundled !== undefined && bundled >= (mtime('../dist/src/cli/main.js') ?? Infinity)) await import('../dist/bundle/issueloc.mjs');
else await import('../dist/src/cli/bin.js');
