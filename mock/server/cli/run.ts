/**
 * `prospectkit-mock`: reads the command line, starts the server, prints the banner and a line
 * per request, and stops cleanly on SIGINT, SIGTERM or SIGHUP, or when the process that started
 * it exits (so that terminating `npx` never leaves the server running as an orphan). Every expected failure (a bad flag, an
 * unreadable or invalid `--data` file, a port in use) is one line on stderr and exit code 2;
 * nothing ever prints a stack trace or the API key.
 * @module
 */
import { VERSION } from "../../../src/version.js";
import { loadFixtures } from "../../control/fixtures.js";
import { INBOX_PATH } from "../../control/inbox.js";
import { type MockState, MockStateError } from "../../core.js";
import { demoFixtures } from "../demo.js";
import { type MockServer, startMockServer } from "../start.js";
import { type CliOptions, helpText, parseCli, UsageError } from "./args.js";
import { describeFieldErrors, readDataFile } from "./data-file.js";
import { banner, deliveryLine, requestLine } from "./output.js";
import { watchParent } from "./parent.js";

/** Where the CLI writes, and how it learns of a stop request (replaceable in tests). */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /**
   * Registers the stop handler (default: SIGINT, SIGTERM and SIGHUP, and the parent process
   * exiting, which `stop` learns as its `reason`).
   */
  onStop(stop: (reason?: string) => void): void;
}

/** The exit code of a usage error (bad flag, bad file, port in use). */
export const USAGE_EXIT_CODE = 2;

/**
 * How long a stop waits for the server to close (it aborts every webhook attempt and closes every
 * connection at once, so this is only ever a bound) before it reports the stop anyway.
 */
export const CLOSE_WITHIN_MS = 1_000;

/** Closes the server, or gives up waiting after `ms`: a stop is never held up by what hangs. */
async function closeWithin(server: MockServer, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([server.close(), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  onStop(stop) {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => stop());
    watchParent(() => stop("the process that started it exited"));
  },
};

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

/** Turns a listen error into one line. */
function listenError(error: NodeJS.ErrnoException, options: CliOptions): UsageError | null {
  const where = `${options.host}:${options.port}`;
  switch (error.code) {
    case "EADDRINUSE":
      return new UsageError(`port ${options.port} is already in use on ${options.host} (choose another with --port, or --port 0 for a free one)`);
    case "EACCES":
      return new UsageError(`not allowed to listen on ${where} (ports below 1024 need privileges; try --port 4010)`);
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new UsageError(`cannot listen on ${where}: no such local address (try --host 127.0.0.1)`);
    default:
      return null;
  }
}

async function start(options: CliOptions, io: CliIo): Promise<MockServer> {
  try {
    return await startMockServer({
      port: options.port,
      host: options.host,
      apiKeys: [...options.apiKeys],
      ...(options.seed !== undefined && { seed: options.seed }),
      latencyMs: options.latencyMs,
      allowedHosts: options.allowedHosts,
      corsOrigins: options.corsOrigins,
      fixtures: fixturesOf(options),
      // The console's own refreshes would drown the user's calls: only what the user did is printed.
      ...(!options.quiet && { onRequest: (request) => request.console || io.stdout.write(requestLine(request)) }),
      webhooks: {
        deliver: options.webhooks,
        timeScale: options.webhookTimeScale,
        timeoutMs: options.webhookTimeoutMs,
        ...(!options.quiet && { onAttempt: (attempt, delivery) => io.stdout.write(deliveryLine(attempt, delivery)) }),
      },
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const known = listenError(error as NodeJS.ErrnoException, options);
    if (known) throw known;
    // A key the mock refuses (not visible ASCII): the message names the field, never the key.
    if (error instanceof MockStateError) throw new UsageError(`--api-key: ${describeFieldErrors(error.errors)}`);
    throw error;
  }
}

/**
 * Runs the CLI until it is stopped.
 * @param argv - the arguments after the program name
 * @param io - where to write and how to learn of a stop (default: the process's)
 * @returns the exit code: 0 after a clean stop (or `--help`, `--version`), 2 for a usage error, 1 for anything unexpected
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  try {
    const options = parseCli(argv);
    if (options.help) return io.stdout.write(`${helpText()}\n`), 0;
    if (options.version) return io.stdout.write(`${VERSION}\n`), 0;
    const server = await start(options, io);
    const state = server.api.state;
    const [page] = state.pages.list();
    const [subscription] = state.webhookSubscriptions.list();
    io.stdout.write(
      banner({
        version: VERSION,
        url: server.url,
        apiKey: options.apiKeys[0]!,
        otherKeys: options.apiKeys.length - 1,
        developmentKey: options.developmentKey,
        page: page && { pageGroupId: page.pageGroupId, pageId: page.id },
        subscriptionId: subscription?.id,
        quiet: options.quiet,
        allowedHosts: options.allowedHosts,
        corsOrigins: options.corsOrigins,
        webhooks: {
          deliver: options.webhooks,
          timeScale: options.webhookTimeScale,
          inboxUrl: subscription?.url.startsWith(`${server.url}${INBOX_PATH}/`) ? subscription.url : undefined,
        },
      }),
    );
    const reason = await new Promise<string | undefined>((resolve) => io.onStop(resolve));
    await closeWithin(server, CLOSE_WITHIN_MS);
    io.stdout.write(reason === undefined ? "prospectkit-mock stopped\n" : `prospectkit-mock stopped: ${reason}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`prospectkit-mock: ${error.message}\n`);
      return USAGE_EXIT_CODE;
    }
    io.stderr.write(`prospectkit-mock: unexpected error: ${error instanceof Error ? error.message.split("\n", 1)[0] : String(error)}\n`);
    return 1;
  }
}
