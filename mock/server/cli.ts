#!/usr/bin/env node
/**
 * The `prospectkit-mock` command: the mock API as a local HTTP server. See `prospectkit-mock --help`.
 * @module
 */
import { runCli } from "./cli/run.js";

// Once whoever read the output has gone (a killed parent closes the pipe), writing fails with
// EPIPE: nobody is left to tell, so the server still stops cleanly instead of crashing.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

/** After a stop, how long the process may take to wind down before it exits anyway. */
const EXIT_WITHIN_MS = 500;

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // Nothing should still hold the event loop; if something does, SIGTERM still ends the process
  // within 2 s (at most CLOSE_WITHIN_MS waiting for the close, then this).
  setTimeout(() => process.exit(code), EXIT_WITHIN_MS).unref();
});
