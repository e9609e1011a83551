#!/usr/bin/env node
/**
 * The `prospectkit-mock` command's entry. Its first statement listens to the stop signals, before
 * the program is loaded (its modules take a few hundred milliseconds to load on a busy machine):
 * a SIGTERM at any moment from here on gives the clean stop, never Node's default exit 143. Only
 * then is the program itself (`cli/run.ts`) loaded.
 * @module
 */
import { hearStopSignals } from "./cli/stop-signals.js";

const signals = hearStopSignals();

// Once whoever read the output has gone (a killed parent closes the pipe), writing fails with
// EPIPE: nobody is left to tell, so the server still stops cleanly instead of crashing.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

void import("./cli/run.js").then(({ runCli }) => runCli(process.argv.slice(2), signals));
