import { afterEach, describe, expect, it, vi } from "vitest";
import { type Logger, type LogLevel, NotFoundError, type RequestEvent, type ResponseEvent } from "../../src/index.js";
import { REDACTED } from "../../src/redact.js";
import { clientFor, page } from "./support/fixtures.js";
import { problem, useServer } from "./support/http-server.js";

const server = useServer();
afterEach(() => {
  vi.restoreAllMocks();
});

const ids = { pageGroupId: "g", pageId: "p" };

function recordingLogger() {
  const lines: [string, string][] = [];
  const logger: Logger = {
    error: (message) => void lines.push(["error", message]),
    warn: (message) => void lines.push(["warn", message]),
    info: (message) => void lines.push(["info", message]),
    debug: (message) => void lines.push(["debug", message]),
  };
  return { logger, lines };
}

/** One retried 503, then a 404: every kind of line. */
function scriptRetryThenFailure() {
  server.script({ ...problem(503, "unavailable"), headers: { "retry-after-ms": "0" } }, problem(404, "not_found"));
}

describe("issue 3.8: logging is off by default", () => {
  it("writes nothing to the console, even on retries and failures", async () => {
    const spies = (["log", "error", "warn", "info", "debug"] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => {}));
    scriptRetryThenFailure();
    await expect(clientFor(server.url).getPage(ids)).rejects.toThrow(NotFoundError);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});

describe("issue 3.8: logLevel picks which lines reach the logger", () => {
  it.each<[LogLevel | undefined, string[]]>([
    ["off", []],
    ["error", ["error"]],
    ["warn", ["warn", "error"]],
    [undefined, ["warn", "error"]], // a logger without a level logs warnings and errors
    ["info", ["info", "warn", "info", "error"]],
    ["debug", ["debug", "info", "warn", "debug", "info", "error"]],
  ])("%s", async (logLevel, levels) => {
    const { logger, lines } = recordingLogger();
    scriptRetryThenFailure();
    await expect(clientFor(server.url, { logger, ...(logLevel && { logLevel }) }).getPage(ids)).rejects.toThrow(NotFoundError);
    expect(lines.map(([level]) => level)).toEqual(levels);
    for (const [, message] of lines) expect(message).toMatch(/^prospectkit: /);
  });

  it("logLevel without a logger writes to the console", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    server.script({ body: page });
    await clientFor(server.url, { logLevel: "info" }).getPage(ids);
    expect(info).toHaveBeenCalledWith(
      expect.stringMatching(/^prospectkit: 200 GET http:\/\/127\.0\.0\.1:\d+\/v0\/page_groups\/g\/pages\/p$/),
      expect.objectContaining({ status: 200 }),
    );
  });
});

describe("issue 3.8: onRequest and onResponse see every attempt; async hooks are awaited", () => {
  it("in order, with redacted request headers and the response's status and request ID", async () => {
    scriptRetryThenFailure();
    const seen: string[] = [];
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    const client = clientFor(server.url, {
      onRequest: async (event) => {
        // A hook that takes a moment is the thing tested: the client awaits it before sending.
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(`request ${event.attempt}`);
        requests.push(event);
      },
      onResponse: (event) => {
        seen.push(`response ${event.attempt} ${event.status}`);
        responses.push(event);
      },
      onRetry: (event) => void seen.push(`retry ${event.attempt}`),
    });
    await expect(client.getPage(ids)).rejects.toThrow(NotFoundError);
    expect(seen).toEqual(["request 1", "response 1 503", "retry 1", "request 2", "response 2 404"]);
    expect(requests[0]).toMatchObject({ operation: "getPage", method: "GET", url: `${server.url}/v0/page_groups/g/pages/p`, attempt: 1 });
    expect(requests[0]?.headers).toMatchObject({ "x-api-key": REDACTED, accept: "application/json" });
    expect(responses[1]).toMatchObject({ status: 404, requestId: expect.stringMatching(/^req_/) });
    expect(responses[1]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.received).toHaveLength(2);
  });

  it("a hook that throws fails the call with the hook's own error", async () => {
    server.script({ body: page });
    const boom = new RangeError("hook failed");
    await expect(
      clientFor(server.url, {
        onResponse: () => {
          throw boom;
        },
      }).getPage(ids),
    ).rejects.toBe(boom);
  });
});
