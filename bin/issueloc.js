#!/usr/bin/env node
// The `issueloc` executable (kept in git with its executable bit, so `npx issueloc` runs in a fresh
// clone): the compiled CLI, built by `npm ci` (the prepare script). It runs the bundle of
// dist/bundle/ (build/cli-bundle.mjs: a few files to parse instead of ~140 modules) when that is
// at least as new as tsc's output, else dist/src (after `tsc` alone the bundle is older: stale).
import { statSync } from 'node:fs';

const mtime = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
const bundled = mtime('../dist/bundle/issueloc.mjs');
if (bundled !== undefined && bundled >= (mtime('../dist/src/cli/main.js') ?? Infinity)) await import('../dist/bundle/issueloc.mjs');
else await import('../dist/src/cli/bin.js');
