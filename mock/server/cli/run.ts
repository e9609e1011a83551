/**
 * The `prospectkit-mock` command (see `prospectkit-mock --help`), loaded by its entry (`../cli.ts`)
 * once that listens to the stop signals: reads the command line, starts the server, prints the
 * banner and a line per request, and stops cleanly on SIGINT, SIGTERM or SIGHUP (received at any
 * moment since the entry's first statement), or when the process that started it exits
 * (terminating `npx` never leaves an orphan server). Every expected failure (a bad flag, a bad
 * `--data` file, a port in use) is one line on stderr and exit code 2; nothing ever prints a stack
 * trace or the API key.
 * @module
 */
import { setTimeout as sleep } from "node:timers/promises";
import { VERSION } from "../../../src/version.js";
import { loadFixtures } from "../../control/fixtures.js";
import { INBOX_PATH } from "../../control/inbox.js";
import { type MockState, MockStateError } from "../../core.js";
import { describeFieldErrors } from "../../lib/field-errors.js";
import { demoFixtures } from "../demo.js";
import { createHarRecording, type HarRecording } from "../har-recording.js";
import { createRecording } from "../recording.js";
import { type MockServer, startMockServer } from "../start.js";
import { StateFileError } from "../state-file/error.js";
import { type CliOptions, helpText, parseCli, UsageError } from "./args.js";
import { readDataFile } from "./data-file.js";
import { banner, deliveryLine, requestLine } from "./output.js";
import { watchParent } from "./parent.js";
import type { StopSignals } from "./stop-signals.js";
import { runVerifyCli } from "./verify.js";

/** The exit code of a usage error (bad flag, bad file, port in use). */
const USAGE_EXIT_CODE = 2;

/** How long a stop waits for the server to close (it aborts and closes everything at once: only a bound) before it reports the stop anyway. */
const CLOSE_WITHIN_MS = 1_000;

/** After a stop, how long the process may take to wind down before it exits anyway. */
const EXIT_WITHIN_MS = 500;

const write = (text: string) => process.stdout.write(text);

function fixturesOf(options: CliOptions): (state: MockState, server: { readonly url: string }) => void {
  const data = options.dataFile === undefined ? undefined : readDataFile(options.dataFile);
  return (state, { url }) => {
    if (options.demo) loadFixtures(state, demoFixtures(url));
    if (data === undefined) return;
    try {
      loadFixtures(state, data);
    } catch (error) {
      if (!(error instanceof MockStateError)) throw error;
      const hint =
        options.demo && error.errors.some((field) => field.code === "duplicate") ? " (the demo data is loaded first; --no-demo leaves it out)" : "";
      throw new UsageError(`--data ${options.dataFile}: ${describeFieldErrors(error.errors)}${hint}`);
    }
  };
}

/** A listen error as one line, by its code (`undefined`: not one of the expected ones). */
function listenError({ code }: NodeJS.ErrnoException, { host, port }: CliOptions): string | undefined {
  const noSuchAddress = `cannot listen on ${host}:${port}: no such local address (try --host 127.0.0.1)`;
  const messages: Readonly<Record<string, string>> = {
    EADDRINUSE: `port ${port} is already in use on ${host} (choose another with --port, or --port 0 for a free one)`,
    EACCES: `not allowed to listen on ${host}:${port} (ports below 1024 need privileges; try --port 4010)`,
    EADDRNOTAVAIL: noSuchAddress,
    ENOTFOUND: noSuchAddress,
    EAI_AGAIN: noSuchAddress,
  };
  return code === undefined ? undefined : messages[code];
}

async function start(options: CliOptions, har: HarRecording | undefined): Promise<MockServer> {
  try {
    return await startMockServer({
      port: options.port,
      host: options.host,
      apiKeys: [...options.apiKeys],
      ...(options.seed !== undefined && { seed: options.seed }),
      latencyMs: options.latencyMs,
      allowedHosts: options.allowedHosts,
      corsOrigins: options.corsOrigins,
      maxTenants: options.maxTenants,
      fixtures: fixturesOf(options),
      ...(options.stateFile !== undefined && { stateFile: options.stateFile }),
      ...(options.proxyTo !== undefined && {
        proxy: {
          target: options.proxyTo,
          fallback: options.fallback,
          // The recording's report: each value left out of the file and each exchange skipped, one line each.
          // `FILE.har`: the exchanges as an HTTP Archive instead.
          ...(options.recordFile !== undefined && {
            onExchange: har?.see ?? createRecording(options.recordFile, undefined, (line) => write(`Recording ${options.recordFile}: ${line}\n`)).see,
          }),
        },
      }),
      // The console's own refreshes would drown the user's calls: only what the user did is printed.
      ...(!options.quiet && { onRequest: (request) => request.console || write(requestLine(request)) }),
      webhooks: {
        deliver: options.webhooks,
        timeScale: options.webhookTimeScale,
        timeoutMs: options.webhookTimeoutMs,
        ...(!options.quiet && { onAttempt: (attempt, delivery) => write(deliveryLine(attempt, delivery)) }),
      },
    });
  } catch (error) {
    const known = listenError(error as NodeJS.ErrnoException, options);
    if (known !== undefined) throw new UsageError(known);
    if (error instanceof StateFileError) throw new UsageError(error.message);
    // A key the mock refuses (not visible ASCII): the message names the field, never the key.
    if (error instanceof MockStateError) throw new UsageError(`${options.keyVariable ?? "--api-key"}: ${describeFieldErrors(error.errors)}`);
    throw error;
  }
}

/**
 * Runs the command until SIGINT, SIGTERM, SIGHUP or the exit of the process that started it.
 * @param argv - the arguments after the program name
 * @param signals - the stop signals, heard since the entry's first statement
 * @returns the exit code: 0 after a clean stop (or `--help`, `--version`), 2 for a usage error, 1 for anything unexpected
 */
async function run(argv: readonly string[], signals: StopSignals): Promise<number> {
  try {
    if (argv[0] === "verify") return signals.release(), await runVerifyCli(argv.slice(1));
    const options = parseCli(argv);
    if (options.help) return signals.release(), write(`${helpText()}\n`), 0;
    if (options.version) return signals.release(), write(`${VERSION}\n`), 0;
    // A signal at any moment since the entry's first statement (while this program loaded, while
    // the server starts, the instant the banner appears) gives the clean stop, once the start has finished.
    const stopped = new Promise<string | undefined>((stop) => {
      void signals.received.then(() => stop(undefined));
      watchParent(() => stop("the process that started it exited"));
    });
    // `--record FILE.har`: the exchanges as an HTTP Archive; any other name: a fixture document for `--data`.
    const har =
      options.recordFile?.endsWith(".har") && options.proxyTo !== undefined ? createHarRecording(options.recordFile, options.proxyTo) : undefined;
    const server = await start(options, har);
    har?.attach(server.api);
    const [page] = server.api.state.pages.list();
    const [subscription] = server.api.state.webhookSubscriptions.list();
    const [prospect] = server.api.state.prospects.list();
    write(
      banner({
        ...options,
        version: VERSION,
        url: server.url,
        apiKey: options.apiKeys[0]!,
        otherKeys: options.apiKeys.length - 1,
        ...(options.proxyTo !== undefined && { proxy: { target: options.proxyTo, recordFile: options.recordFile, fallback: options.fallback } }),
        page: page && { pageGroupId: page.pageGroupId, pageId: page.id, publishedVersionId: page.publishedVersionId },
        subscriptionId: subscription?.id,
        ids: { prospectId: prospect?.id },
        webhooks: {
          deliver: options.webhooks,
          timeScale: options.webhookTimeScale,
          inboxUrl: subscription?.url.startsWith(`${server.url}${INBOX_PATH}/`) ? subscription.url : undefined,
        },
      }),
    );
    const reason = await stopped;
    // Never held up by what hangs; the unref'd timer keeps nothing alive.
    await Promise.race([server.close(), sleep(CLOSE_WITHIN_MS, undefined, { ref: false })]);
    write(reason === undefined ? "prospectkit-mock stopped\n" : `prospectkit-mock stopped: ${reason}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`prospectkit-mock: ${error.message}\n`);
      return USAGE_EXIT_CODE;
    }
    process.stderr.write(`prospectkit-mock: unexpected error: ${error instanceof Error ? error.message.split("\n", 1)[0] : String(error)}\n`);
    return 1;
  }
}

/**
 * Runs the command, then exits with its code.
 * @param argv - the arguments after the program name
 * @param signals - the stop signals, heard since the entry's first statement
 */
export function runCli(argv: readonly string[], signals: StopSignals): void {
  void run(argv, signals).then((code) => {
    process.exitCode = code;
    // Nothing should still hold the event loop; if something does, SIGTERM still ends the process
    // within 2 s (at most CLOSE_WITHIN_MS waiting for the close, then this).
    setTimeout(() => process.exit(code), EXIT_WITHIN_MS).unref();
  });
}
