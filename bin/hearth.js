#!/usr/bin/env node
// The `hearth` command: runs the compiled CLI (built by `npm ci` through the `prepare` script).
import { main } from '../dist/server/cli.js';

process.exitCode = await main(process.argv.slice(2));
