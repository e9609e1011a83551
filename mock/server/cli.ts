#!/usr/bin/env node
/**
 * The `prospectkit-mock` command: the mock API as a local HTTP server. See `prospectkit-mock --help`.
 * @module
 */
import { runCli } from "./cli/run.js";

// Once whoever read the output has gone (a killed parent closes the pipe), writing fails with
// EPIPE: nobody is left to tell, so the server still stops cleanly instead of crashing.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
