import { format, inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  type APIError,
  type AuthenticationError,
  createClient,
  type Logger,
  ProspectKitError,
  type RequestEvent,
  type ValidationIssueEvent,
} from "../../src/index.js";
import { REDACTED } from "../../src/redact.js";
import { fakeFetch, json } from "./support/fetch.js";
import { API_KEY, caught, clientFor, createBody, page } from "./support/fixtures.js";
import { type Scripted, startServer, useServer } from "./support/http-server.js";
import { leakForms, leaksOf, ODD_KEY } from "./support/leaks.js";

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
  [
    "RateLimitError echoing the key",
    () => (
      server.script({ ...echo(429), headers: { ...echo(429).headers, "retry-after": "600" } }),
      clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" })
    ),
  ],
  [
    "InternalServerError echoing the key as text",
    () => (
      server.script({ status: 500, headers: { "content-type": "text/plain" }, body: `crash ${API_KEY}` }),
      clientFor(server.url, { maxRetries: 0 }).getPage({ pageGroupId: "g", pageId: "p" })
    ),
  ],
  [
    "ResponseValidationError echoing the key",
    () => (server.script({ body: { ...page, pageId: 1, echo: API_KEY } }), clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" })),
  ],
  [
    "APITimeoutError",
    () => (
      server.script({ delayMs: 300, body: page }), clientFor(server.url, { timeoutMs: 20, maxRetries: 0 }).getPage({ pageGroupId: "g", pageId: "p" })
    ),
  ],
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
      const error = await clientFor(server.url)
        .getPage({ pageGroupId: "g", pageId: "p" })
        .catch((caught: unknown) => caught);
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
    const record = (level: string) => (message: string, data?: object) =>
      void lines.push(`${level} ${message} ${inspect(data, { depth: 10 })} ${JSON.stringify(data)}`);
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

describe("issue 17.1-17.3: the key is redacted at every boundary where server data enters an error, a log line or a hook", () => {
  const withOddKey = (options: Parameters<typeof clientFor>[1] = {}) =>
    createClient({ apiKey: ODD_KEY, baseUrl: server.url, maxRetries: 0, ...options });
  const escaped = `\\u0073${ODD_KEY.slice(1).replaceAll("/", "\\/")}`; // how a JSON encoder may write it

  it.each<[string, Scripted]>([
    ["the reason phrase of an empty 403 (17.1)", { status: 403, statusText: `Forbidden for ${ODD_KEY}` }],
    [
      "a problem detail holding the key JSON-escaped (17.2)",
      {
        status: 401,
        headers: { "content-type": "application/problem+json" },
        body: `{"type":"about:blank","title":"t","status":401,"code":"invalid_api_key","detail":"bad key ${escaped}"}`,
      },
    ],
    [
      "a problem detail holding the key URL-encoded",
      { status: 400, body: { type: "about:blank", title: "t", status: 400, detail: `GET /x?key=${encodeURIComponent(ODD_KEY)}` } },
    ],
    ["a text body holding the key JSON-escaped", { status: 500, headers: { "content-type": "text/plain" }, body: `crash "${escaped}"` }],
    [
      "a request ID and a header echoing the key",
      { status: 404, headers: { "x-request-id": `req_${ODD_KEY}`, "x-echo": encodeURIComponent(ODD_KEY) } },
    ],
  ])("%s: in no serialisation, in no form", async (_, answer) => {
    server.script(answer);
    const error = await caught(withOddKey().getPage({ pageGroupId: "g", pageId: "p" }));
    expect(ProspectKitError.is(error)).toBe(true);
    expect(leaksOf(error, ODD_KEY)).toEqual([]);
    expect(JSON.stringify(error)).toContain(REDACTED);
  });

  it("17.1: the rest of the reason phrase stays in the message", async () => {
    server.script({ status: 403, statusText: `Forbidden for ${ODD_KEY}` });
    const error = (await caught(withOddKey().getPage({ pageGroupId: "g", pageId: "p" }))) as APIError;
    expect(error.message).toMatch(/^403 Forbidden for \[redacted\] \(request req_\d+\)$/);
  });

  it("17.2: a JSON-escaped key is redacted in the parsed fields too, the rest of the detail kept", async () => {
    server.script({
      status: 401,
      headers: { "content-type": "application/problem+json" },
      body: `{"type":"about:blank","title":"t","status":401,"code":"invalid_api_key","requestId":"req_1","detail":"bad key ${escaped}"}`,
    });
    const error = (await caught(withOddKey().getPage({ pageGroupId: "g", pageId: "p" }))) as AuthenticationError;
    expect(error.detail).toBe(`bad key ${REDACTED}`);
    expect(error.problem?.detail).toBe(`bad key ${REDACTED}`);
    expect(error.message).toContain(`bad key ${REDACTED}`);
  });

  const invalidEchoingPage = () => {
    const { publishedVersion: _, ...rest } = page;
    return `${JSON.stringify({ ...rest, echo: "x" }).slice(0, -1)},"echo2":"${escaped}"}`;
  };

  it("17.3: warn mode hands onValidationIssue the body without the key (raw or escaped); the data returned is the server's", async () => {
    const events: ValidationIssueEvent[] = [];
    server.script({ body: invalidEchoingPage() });
    const data = await withOddKey({ validateResponses: "warn", onValidationIssue: (event) => void events.push(event) }).getPage({
      pageGroupId: "g",
      pageId: "p",
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.body).toMatchObject({ echo2: REDACTED, pageId: page.pageId });
    expect(leaksOf(events[0], ODD_KEY)).toEqual([]);
    expect((data as unknown as { echo2: string }).echo2).toBe(ODD_KEY); // the caller's own data is not an error or a log line
  });

  it("17.3: warn mode without a callback writes a logger.warn line without the key", async () => {
    const lines: string[] = [];
    const record = (message: string, data?: object) => void lines.push(format("%s %O", message, data), JSON.stringify(data));
    server.script({ body: invalidEchoingPage() });
    await withOddKey({ validateResponses: "warn", logger: { error: record, warn: record, info: record, debug: record } }).getPage({
      pageGroupId: "g",
      pageId: "p",
    });
    expect(lines.length).toBe(2);
    for (const line of lines) for (const form of leakForms(ODD_KEY)) expect(line).not.toContain(form);
  });

  it("17.3: strict mode: the ResponseValidationError's body and issues carry no key", async () => {
    server.script({ body: invalidEchoingPage() });
    const error = await caught(withOddKey().getPage({ pageGroupId: "g", pageId: "p" }));
    expect(error).toMatchObject({ kind: "ResponseValidationError" });
    expect(leaksOf(error, ODD_KEY)).toEqual([]);
  });

  it("a key in the caller's own input (an unknown field named after it, a path ID) stays out of errors, log lines and hooks", async () => {
    const lines: string[] = [];
    const record = (message: string, data?: object) => void lines.push(format("%s %O", message, data));
    const events: unknown[] = [];
    const client = withOddKey({
      logLevel: "debug",
      logger: { error: record, warn: record, info: record, debug: record },
      onRequest: (event) => void events.push(event),
    });
    const unknown = await caught(client.createProspectLog({ source: "crm", payload: {}, [ODD_KEY]: 1 } as never));
    expect(leaksOf(unknown, ODD_KEY)).toEqual([]);
    server.script({ status: 404 });
    const inPath = await caught(client.getPage({ pageGroupId: ODD_KEY, pageId: "p" }));
    expect(leaksOf(inPath, ODD_KEY)).toEqual([]);
    expect(events).toHaveLength(1);
    for (const text of [...lines, inspect(events, { depth: 10 })]) for (const form of leakForms(ODD_KEY)) expect(text).not.toContain(form);
  });
});

describe("issue 11.10: redaction never rewrites what the server sent unless it holds the key; a short key only leaves headers", () => {
  const notFound: Scripted = {
    status: 404,
    headers: { "content-type": "application/problem+json", "x-request-id": "req_01hzykq2wb" },
    body: {
      type: "about:blank",
      title: "Not Found",
      status: 404,
      code: "not_found",
      detail: "No webhook subscription with this ID",
      requestId: "req_01hzykq2wb",
    },
  };

  it.each([
    ["a short test key k", "k"],
    ["a 7-character key", "webhook"],
    ["a long key the data does not hold", API_KEY],
  ])("%s: message, requestId, detail and problem are exactly the server's", async (_, apiKey) => {
    server.script(notFound);
    const events: RequestEvent[] = [];
    const client = createClient({ apiKey, baseUrl: server.url, onRequest: (event) => void events.push(event) });
    const error = (await caught(client.updateWebhookSubscription({ subscriptionId: "webhooksubscription_1", active: false }))) as APIError;
    expect(error.message).toBe("404 not_found: No webhook subscription with this ID (request req_01hzykq2wb)");
    expect(error.requestId).toBe("req_01hzykq2wb");
    expect(error.problem).toEqual(notFound.body);
    expect(events[0]!.headers["x-api-key"]).toBe(REDACTED); // the header that carries it is still redacted
    expect(JSON.stringify(error)).not.toContain(REDACTED);
  });

  it("a short key is removed from a header whose value is exactly the key", async () => {
    server.script({ ...notFound, headers: { ...notFound.headers, "x-echo-key": "k" } });
    const error = (await caught(createClient({ apiKey: "k", baseUrl: server.url }).getPage({ pageGroupId: "g", pageId: "p" }))) as APIError;
    expect(error.headers.get("x-echo-key")).toBe(REDACTED);
    expect(error.headers.get("x-request-id")).toBe("req_01hzykq2wb");
  });
});
