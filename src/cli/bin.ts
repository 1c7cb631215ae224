#!/usr/bin/env node
// The `issueloc` executable of dist/src (bin/issueloc.js runs it when the CLI bundle is not built):
// runs the CLI and leaves with its code (src/cli/run.ts).
import { runCli } from './run.js';

await runCli(process.argv);
