#!/usr/bin/env node
/**
 * The `prospectkit-mock` command: the mock API as a local HTTP server. See `prospectkit-mock --help`.
 * @module
 */
import { runCli } from "./cli/run.js";

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
