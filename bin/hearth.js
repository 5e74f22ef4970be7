#!/usr/bin/env node
// The `hearth` command: runs the bundled CLI (built by `npm ci` through the `prepare` script).
import { main } from '../dist/cli/cli.js';

process.exitCode = await main(process.argv.slice(2));
