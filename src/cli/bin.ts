#!/usr/bin/env node
// The `issueloc` executable: runs the CLI and exits with its code.
import { main } from './main.js';

main(process.argv).then((code) => process.exit(code));
