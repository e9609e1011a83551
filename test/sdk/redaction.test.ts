import { format, inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { type AuthenticationError, createClient, type Logger, ProspectKitError, REDACTED } from "../../src/index.js";
import { fakeFetch, json } from "./support/fetch.js";
import { API_KEY, clientFor, createBody, page } from "./support/fixtures.js";
import { type Scripted, startServer, useServer } from "./support/http-server.js";

const server = useServer();

/** Every way an error is commonly turned into text. */
function serialisations(error: unknown): Record<string, string> {
  const value = error as Error;
  return {
    message: value.message,
    String: String(value),
    toString: value.toString(),
    stack: String(value.stack),
    "JSON.stringify": JSON.stringify(value),
    toJSON: JSON.stringify((value as ProspectKitError).toJSON()),
    "util.inspect": inspect(value),
    "util.inspect showHidden depth ∞": inspect(value, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
    "console.log format": format("%s %o %O", value, value, value),
    "template literal": `${value}`,
  };
}

/** A server that echoes the API key back everywhere it can: body, headers, request ID. */
const echo = (status: number): Scripted => ({
  status,
  headers: { "content-type": "application/problem+json", "x-request-id": `req_${API_KEY}`, "x-echo": `key=${API_KEY}`, "x-api-key": API_KEY },
  body: { type: "about:blank", title: "t", status, detail: `bad key ${API_KEY}`, code: "invalid_api_key", requestId: `req_${API_KEY}`, key: API_KEY },
});

const scenarios: [string, () => Promise<unknown>][] = [
  ["ConfigurationError", async () => createClient({ apiKey: API_KEY, baseUrl: "ftp://x" })],
  ["RequestValidationError", () => clientFor(server.url).createProspectLog({ source: "", payload: [] as never })],
  ["AuthenticationError echoing the key", () => (server.script(echo(401)), clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }))],
  ["RateLimitError echoing the key", () => (server.script({ ...echo(429), headers: { ...echo(429).headers, "retry-after": "600" } }), clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }))],
  ["InternalServerError echoing the key as text", () => (server.script({ status: 500, headers: { "content-type": "text/plain" }, body: `crash ${API_KEY}` }), clientFor(server.url, { maxRetries: 0 }).getPage({ pageGroupId: "g", pageId: "p" }))],
  ["ResponseValidationError echoing the key", () => (server.script({ body: { ...page, pageId: 1, echo: API_KEY } }), clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }))],
  ["APITimeoutError", () => (server.script({ delayMs: 300, body: page }), clientFor(server.url, { timeoutMs: 20, maxRetries: 0 }).getPage({ pageGroupId: "g", pageId: "p" }))],
  ["APIUserAbortError", () => clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }, { signal: AbortSignal.abort() })],
  [
    "APIConnectionError from a fetch whose error repeats the headers",
    () => {
      const { fetch } = fakeFetch(new TypeError(`fetch failed with x-api-key: ${API_KEY}`, { cause: new Error(`socket for ${API_KEY}`) }));
      return createClient({ apiKey: API_KEY, baseUrl: server.url, fetch, maxRetries: 0 }).getPage({ pageGroupId: "g", pageId: "p" });
    },
  ],
];

describe("issue 3.7: the API key never appears in any serialisation of any error", () => {
  it.each(scenarios)("%s", async (kind, run) => {
    const error = await run().then(
      () => expect.unreachable("the call should fail"),
      (caught: unknown) => caught,
    );
    expect(ProspectKitError.is(error)).toBe(true);
    expect((error as ProspectKitError).kind).toBe(kind.split(" ")[0]);
    for (const [how, text] of Object.entries(serialisations(error))) {
      expect.soft(text, how).not.toContain(API_KEY);
    }
  });

  it("the echoed key is replaced, so the rest of what the server said stays readable", async () => {
    server.script(echo(401));
    const error = (await clientFor(server.url)
      .getPage({ pageGroupId: "g", pageId: "p" })
      .catch((caught: unknown) => caught)) as AuthenticationError;
    expect(error.detail).toBe(`bad key ${REDACTED}`);
    expect(error.headers.get("x-echo")).toBe(`key=${REDACTED}`);
    expect(error.headers.get("x-api-key")).toBe(REDACTED);
  });
});

describe("issue 3.7: the key is never handed to another host", () => {
  it.each([301, 302, 307, 308])("a %i redirect is not followed: it fails as an APIError and the target sees nothing", async (status) => {
    const elsewhere = await startServer();
    try {
      server.script({ status, headers: { location: `${elsewhere.url}/steal` } });
      const error = await clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ kind: "APIError", status, attempts: 1 });
      expect(server.received).toHaveLength(1);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });
});

describe("issue 3.7 and 3.8: log lines and hook arguments never carry the key", () => {
  it("at logLevel debug, through every hook, on success, retry and failure", async () => {
    server.script({ ...echo(503), headers: { ...echo(503).headers, "retry-after-ms": "0" } }, echo(401));
    const lines: string[] = [];
    const record = (level: string) => (message: string, data?: object) => void lines.push(`${level} ${message} ${inspect(data, { depth: 10 })} ${JSON.stringify(data)}`);
    const logger: Logger = { error: record("error"), warn: record("warn"), info: record("info"), debug: record("debug") };
    const events: unknown[] = [];
    const client = clientFor(server.url, {
      logLevel: "debug",
      logger,
      onRequest: (event) => void events.push(event),
      onResponse: (event) => void events.push(event),
      onRetry: (event) => void events.push(event),
    });
    await client.getPage({ pageGroupId: "g", pageId: "p" }).catch(() => {});
    expect(lines.length).toBeGreaterThanOrEqual(5); // 2 requests, 2 responses, 1 retry, 1 failure
    for (const line of lines) expect(line).not.toContain(API_KEY);
    expect(events).toHaveLength(5);
    for (const event of events) {
      expect(inspect(event, { depth: 10 })).not.toContain(API_KEY);
      expect(JSON.stringify(event)).not.toContain(API_KEY);
    }
    expect(events[0]).toMatchObject({ headers: { "x-api-key": REDACTED } });
  });

  it("the client object itself holds the key out of sight", () => {
    const { fetch } = fakeFetch(json(page));
    const client = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch });
    expect(inspect(client, { showHidden: true, depth: Number.POSITIVE_INFINITY })).not.toContain(API_KEY);
    expect(JSON.stringify(client)).not.toContain(API_KEY);
    expect(createBody).not.toHaveProperty("apiKey");
  });
});
