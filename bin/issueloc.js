#!/usr/bin/env node
// The `issueloc` executable (kept in git with its executable bit, so `npx issueloc` runs in a fresh
// clone): the compiled CLI in dist/, built by `npm ci` (the prepare script).
import "../dist/src/cli/bin.js";
