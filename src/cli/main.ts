#!/usr/bin/env node
// The `svc` command (package.json "bin"): runs one command line against a server.
import { runCli } from './program.js';

process.exitCode = await runCli(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr },
  process.env,
);
