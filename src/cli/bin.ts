#!/usr/bin/env node
// The `issueloc` executable: runs the CLI and sets its exit code. No process.exit(): Node ends once
// stdout has drained (every stage closes what it opened).
import { main } from './main.js';

process.exitCode = await main(process.argv);
