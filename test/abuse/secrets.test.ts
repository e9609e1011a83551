/**
 * The API key never leaks (issue 7.3): against the standalone server over real HTTP, the SDK
 * raises every one of its error classes (the server's faults and rules cause them), and the key,
 * or a wrong key, appears in no serialisation of any of them, in no SDK log line or hook event,
 * and in nothing the mock exposes: its recorded requests, its control API listings and its
 * server log lines (the CLI's per-request format), even when a client also sends the key in the
 * query string; and (issue 24) nothing `verify` reports and nothing the validating proxy logs,
 * prints or records, even from a deployment that echoes the key in every form.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { format, inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LoggedRequest } from "../../mock/index.js";
import { requestLine } from "../../mock/server/cli/output.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import type { ProxyLogFields } from "../../mock/server/proxy.js";
import { createRecording } from "../../mock/server/recording.js";
import { formatReport, reportJson, reportJunit, runVerify } from "../../mock/verify/index.js";
import * as sdk from "../../src/index.js";
import { type ClientOptions, createClient, type ErrorKind, ProspectKitError } from "../../src/index.js";
import { leakForms, ODD_KEY } from "../sdk/support/leaks.js";

const KEY = "pk_live_7f3a9c1e5b_SECRET";
const WRONG_KEY = "pk_live_0000_WRONG_SECRET";
const SECRETS = [KEY, WRONG_KEY];
const PAGE = { pageGroupId: "pagegroup_secret", pageId: "page_secret" } as const;
const SUBSCRIPTION = "whsub_secret";

let server: MockServer;
const serverLines: string[] = [];
const logLines: string[] = [];
const hookEvents: string[] = [];

/** Every way a value is commonly turned into text, deep and with hidden fields. */
function texts(value: unknown): string[] {
  const error = value as Error & { toJSON?: () => unknown };
  return [
    String(error),
    error.message,
    error.toString(),
    String(error.stack),
    JSON.stringify(error),
    JSON.stringify(error.toJSON?.()),
    inspect(error),
    inspect(error, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
    format("%s %o %O", error, error, error),
    inspect(error.cause, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
  ];
}

const deep = (value: unknown) => inspect(value, { showHidden: true, depth: Number.POSITIVE_INFINITY });

/** Every level to the captured log, and every hook event to the captured events. */
function observed(options: ClientOptions = {}): ClientOptions {
  const log = (level: string) => (message: string, data?: object) => void logLines.push(`${level} ${format("%s %O", message, data)} ${deep(data)}`);
  return {
    logLevel: "debug",
    logger: { error: log("error"), warn: log("warn"), info: log("info"), debug: log("debug") },
    onRequest: (event) => void hookEvents.push(deep(event)),
    onResponse: (event) => void hookEvents.push(deep(event)),
    onRetry: (event) => void hookEvents.push(deep(event)),
    ...options,
  };
}

function client(options: ClientOptions = {}) {
  return createClient({ apiKey: KEY, baseUrl: server.url, ...observed(options) });
}

async function control(method: string, path: string, json?: unknown): Promise<string> {
  const response = await fetch(`${server.url}/__mock${path}`, {
    method,
    headers: { "x-api-key": KEY, ...(json !== undefined && { "content-type": "application/json" }) },
    ...(json !== undefined && { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new TypeError(`${method} /__mock${path}: ${response.status} ${text}`);
  return text;
}

const fault = (json: object) => control("POST", "/faults", json);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One way to make the SDK raise each of its error classes against the real server. */
const SCENARIOS: readonly (readonly [ErrorKind, string, () => Promise<unknown>])[] = [
  ["ConfigurationError", "a base URL that is not http(s)", async () => createClient({ apiKey: KEY, baseUrl: "ftp://files.example.com" })],
  ["ConfigurationError", "a bad option", async () => createClient({ apiKey: KEY, baseUrl: server.url, maxRetries: -1 })],
  ["RequestValidationError", "the key typed into the email field", () => client().createProspectLog({ source: "", payload: {}, email: KEY })],
  [
    "BadRequestError",
    "an invalid email, sent unchecked",
    () => client({ validateRequests: false }).createProspectLog({ source: "crm", payload: {}, email: "not-an-email" }),
  ],
  ["AuthenticationError", "a wrong key", () => createClient({ apiKey: WRONG_KEY, baseUrl: server.url, ...observed() }).getPage(PAGE)],
  ["PermissionDeniedError", "a 403 fault", async () => (await fault({ kind: "status", status: 403 }), client().getPage(PAGE))],
  ["NotFoundError", "a missing page", () => client().getPage({ ...PAGE, pageId: "page_missing" })],
  [
    "ConflictError",
    "a second create while the first with the same idempotency key is in flight",
    async () => {
      // The first holds its key for 600 ms; the second arrives long before that ends.
      await fault({ kind: "latency", ms: 600, operation: "createProspectLog", times: 2 });
      const body = { source: "crm", payload: {}, idempotencyKey: "idem-conflict" };
      const first = client().createProspectLog(body);
      await sleep(50);
      const second = client().createProspectLog(body);
      await first;
      return second;
    },
  ],
  [
    "UnprocessableEntityError",
    "an idempotency key reused with another body",
    async () => {
      await client().createProspectLog({ source: "crm", payload: {}, idempotencyKey: "idem-reused" });
      return client().createProspectLog({ source: "crm", payload: { other: true }, idempotencyKey: "idem-reused" });
    },
  ],
  ["RateLimitError", "a 429 asking for 61 s", async () => (await fault({ kind: "status", status: 429, retryAfter: 61 }), client().getPage(PAGE))],
  [
    "InternalServerError",
    "500 on every attempt (retried, logged)",
    async () => (await fault({ kind: "status", status: 500, retryAfter: 0, times: 3 }), client().getPage(PAGE)),
  ],
  ["APIError", "a 418 fault", async () => (await fault({ kind: "status", status: 418 }), client().getPage(PAGE))],
  [
    "APIConnectionError",
    "dropped connections",
    async () => (await fault({ kind: "network-error", times: 2 }), client({ maxRetries: 1 }).getPage(PAGE)),
  ],
  [
    "APITimeoutError",
    "an answer later than timeoutMs",
    async () => (await fault({ kind: "latency", ms: 300 }), client({ timeoutMs: 50, maxRetries: 0 }).getPage(PAGE)),
  ],
  [
    "APIUserAbortError",
    "the caller aborts",
    async () => {
      await fault({ kind: "latency", ms: 300 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      return client().getPage(PAGE, { signal: controller.signal });
    },
  ],
  [
    "ResponseValidationError",
    "a malformed body",
    async () => (await fault({ kind: "malformed-body" }), client().updateWebhookSubscription({ subscriptionId: SUBSCRIPTION, active: false })),
  ],
  // The key delivered as if it were a signed webhook body: verification refuses it without echoing it.
  [
    "WebhookVerificationError",
    "the key as an unsigned webhook body",
    () =>
      sdk.verifyWebhook({
        secret: `whsec_${btoa("a webhook secret, 24 byte")}`,
        headers: { "webhook-id": "event_1", "webhook-timestamp": "1", "webhook-signature": "v1,AAAA" },
        body: KEY,
        now: new Date(1000),
      }),
  ],
];

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    apiKeys: [KEY],
    seed: 9,
    onRequest: (entry) => void serverLines.push(requestLine(entry), JSON.stringify(entry)),
    fixtures(state) {
      state.pageGroups.create({ id: PAGE.pageGroupId });
      state.pages.create({ id: PAGE.pageId, pageGroupId: PAGE.pageGroupId, computedName: "Secret plans" });
      state.webhookSubscriptions.create({ id: SUBSCRIPTION, url: "https://hooks.example.com/secret" });
    },
  });
});
afterAll(() => server.close());
beforeEach(() => control("DELETE", "/faults"));

describe("the API key appears in no error the SDK raises against the mock", () => {
  it("the scenarios raise every error class the SDK exports", () => {
    const classes = Object.entries(sdk)
      .filter(([name, value]) => typeof value === "function" && value.prototype instanceof ProspectKitError && name !== "ProspectKitError")
      .map(([name]) => name);
    expect(new Set(SCENARIOS.map(([kind]) => kind))).toEqual(new Set(classes));
  });

  it.each(SCENARIOS)("%s (%s): not in message, toString, toJSON, util.inspect, stack or cause", async (kind, _, scenario) => {
    const error = await scenario().then(
      () => expect.unreachable(`expected a ${kind}`),
      (caught: unknown) => caught,
    );
    expect(ProspectKitError.is(error) && error.kind).toBe(kind);
    for (const text of texts(error)) for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});

describe("the API key appears in nothing else of the run above", () => {
  it("the three operations succeed (so the logs also hold successful calls), one also with the key in the query string", async () => {
    const c = client();
    await c.createProspectLog({ source: "crm", payload: { plan: "pro" }, email: "ok@example.com" });
    await c.getPage(PAGE);
    await c.updateWebhookSubscription({ subscriptionId: SUBSCRIPTION, events: ["form.submitted"] });
    const withQuery = await fetch(`${server.url}/v0/page_groups/${PAGE.pageGroupId}/pages/${PAGE.pageId}?api_key=${KEY}&x-api-key=${KEY}`, {
      headers: { "x-api-key": KEY },
    });
    expect(withQuery.status).toBe(200);
  });

  it("no SDK log line (every level, data included) and no hook event", () => {
    expect(logLines.filter((line) => line.startsWith("warn prospectkit: retrying")).length).toBeGreaterThan(0);
    // every scenario logs its failure but the three that never reach a client call (two bad configurations, the webhook)
    expect(logLines.filter((line) => line.startsWith("error ")).length).toBeGreaterThanOrEqual(SCENARIOS.length - 3);
    expect(hookEvents.length).toBeGreaterThan(SCENARIOS.length);
    for (const text of [...logLines, ...hookEvents]) for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it("no recorded request (api.requests) and no control API listing", async () => {
    const listings = await Promise.all(["/requests", "/prospects", "/prospect_logs", "/faults"].map((path) => control("GET", path)));
    const recorded = server.api.requests.list();
    expect(recorded.length).toBeGreaterThan(SCENARIOS.length);
    expect(recorded.some((entry) => entry.status === 401)).toBe(true); // the wrong key's request is there, without its key
    for (const text of [JSON.stringify(recorded), deep(recorded), ...listings]) for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it("no server log line (the CLI's per-request format and the hook's records)", () => {
    expect(serverLines.some((line) => line.includes("/pages/page_secret 200"))).toBe(true);
    for (const text of serverLines) for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});

/**
 * Issue 17.1-17.3 over real HTTP: a server that echoes the key wherever a gateway or a buggy
 * backend might, in every form (raw, JSON-escaped, URL-encoded). Every serialisation of every
 * error, every log line at every level and every hook event is searched for every form.
 */
describe("a hostile server echoing the key in every form leaks it nowhere (issue 17)", () => {
  const HOSTILE_KEY = ODD_KEY;
  const forms = leakForms(HOSTILE_KEY);
  const escaped = `\\u0073${HOSTILE_KEY.slice(1).replaceAll("/", "\\/")}`;
  let hostile: Server;
  let hostileUrl = "";
  const lines: string[] = [];
  const events: string[] = [];

  type Reply = (res: ServerResponse) => void;
  const replies = new Map<string, Reply>([
    ["reason phrase of an empty 403", (res) => res.writeHead(403, `Forbidden for ${HOSTILE_KEY}`).end()],
    [
      "JSON-escaped problem detail",
      (res) =>
        res
          .writeHead(401, { "content-type": "application/problem+json" })
          .end(`{"type":"about:blank","title":"t","status":401,"code":"invalid_api_key","detail":"bad key ${escaped}"}`),
    ],
    [
      "URL-encoded echo of the request",
      (res) =>
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ detail: `GET /x?api_key=${encodeURIComponent(HOSTILE_KEY)}` })),
    ],
    [
      "headers and request ID",
      (res) => res.writeHead(404, { "x-request-id": `req_${escaped}`, "x-echo": encodeURIComponent(HOSTILE_KEY), "x-api-key": HOSTILE_KEY }).end(),
    ],
    ["a 503 with the key, retried", (res) => res.writeHead(503, `Down ${HOSTILE_KEY}`, { "retry-after": "0" }).end(`{"detail":"${escaped}"}`)],
    [
      "a 2xx body missing a field, the key in an extra one (strict)",
      (res) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(`{"pageId":"p","echo":"${escaped}","raw":"${HOSTILE_KEY.replaceAll("/", "\\/")}"}`),
    ],
  ]);

  beforeAll(async () => {
    hostile = createServer((req, res) => replies.get(decodeURIComponent(req.url!.split("/").pop()!))?.(res) ?? res.writeHead(500).end());
    await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
    hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => hostile.close(() => resolve())));

  const observedHostile = (options: ClientOptions = {}): ClientOptions => {
    const log = (level: string) => (message: string, data?: object) =>
      void lines.push(`${level} ${format("%s %O", message, data)} ${JSON.stringify(data)}`);
    return {
      apiKey: HOSTILE_KEY,
      baseUrl: hostileUrl,
      maxRetries: 1,
      logLevel: "debug",
      logger: { error: log("error"), warn: log("warn"), info: log("info"), debug: log("debug") },
      onRequest: (event) => void events.push(deep(event), JSON.stringify(event)),
      onResponse: (event) => void events.push(deep(event), JSON.stringify(event)),
      onRetry: (event) => void events.push(deep(event), JSON.stringify(event)),
      ...options,
    };
  };

  it.each([...replies.keys()])("%s: no serialisation of the error holds the key in any form", async (name) => {
    const error = await createClient(observedHostile())
      .getPage({ pageGroupId: "g", pageId: name })
      .then(
        () => expect.unreachable("the call should fail"),
        (caught: unknown) => caught,
      );
    expect(ProspectKitError.is(error)).toBe(true);
    for (const text of texts(error)) for (const form of forms) expect(text).not.toContain(form);
  });

  it("warn mode: the onValidationIssue event and, without a callback, the logger.warn line hold no form of the key", async () => {
    const issues: string[] = [];
    const name = "a 2xx body missing a field, the key in an extra one (strict)";
    await createClient(
      observedHostile({ validateResponses: "warn", onValidationIssue: (event) => void issues.push(deep(event), JSON.stringify(event)) }),
    ).getPage({ pageGroupId: "g", pageId: name });
    await createClient(observedHostile({ validateResponses: "warn" })).getPage({ pageGroupId: "g", pageId: name });
    expect(issues).toHaveLength(2);
    expect(lines.some((line) => line.startsWith("warn prospectkit: unexpected getPage response"))).toBe(true);
    for (const text of issues) for (const form of forms) expect(text).not.toContain(form);
  });

  it("no log line at any level and no hook event of the calls above holds any form of the key", () => {
    expect(lines.some((line) => line.startsWith("warn prospectkit: retrying"))).toBe(true);
    expect(events.length).toBeGreaterThan(replies.size * 2);
    for (const text of [...lines, ...events]) for (const form of forms) expect(text).not.toContain(form);
  });
});

describe("the contract check (issue 24): a deployment echoing the key in every form leaks it through neither verify nor the proxy", () => {
  const ECHOED = ODD_KEY;
  const forms = leakForms(ECHOED);
  const leaks = (text: string) => forms.filter((form) => text.includes(form));
  let echoing: Server;
  let echoingUrl = "";

  beforeAll(async () => {
    // Every answer carries the key it got: raw, JSON-escaped and URL-encoded, in the body and a header.
    echoing = createServer((req, res) => {
      const key = String(req.headers["x-api-key"] ?? "");
      const escaped = [...key].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
      const body = `{"pageId":"page_echo","pageGroupId":"pagegroup_echo","customName":"${escaped}","computedName":"${key.replaceAll("/", "\\/")}","url":"https://x.example/?k=${encodeURIComponent(key)}","id":"whsub_echo","prospectId":"${escaped}"}`;
      res.writeHead(req.method === "POST" ? 201 : 200, { "content-type": "application/json", "x-echo": encodeURIComponent(key) }).end(body);
    });
    await new Promise<void>((resolve) => echoing.listen(0, "127.0.0.1", resolve));
    echoingUrl = `http://127.0.0.1:${(echoing.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => echoing.close(() => resolve())));

  it("verify: the table, the JSON report and the JUnit file hold no form of the key", async () => {
    const report = await runVerify({
      baseUrl: echoingUrl,
      apiKey: ECHOED,
      otherTenantKey: `${ECHOED}_other`,
      page: PAGE,
      subscription: SUBSCRIPTION,
      rate: Number.POSITIVE_INFINITY, // no pace: the pace is proven in test/verify/safety.test.ts
    });
    expect(report.results.find((result) => result.id === "secrets.key-never-echoed")?.status).toBe("failed");
    for (const text of [formatReport(report), reportJson(report), reportJunit(report)]) expect(leaks(text)).toEqual([]);
  });

  it("the proxy: the request log, GET /__mock/requests (the console's view), the request lines and the recording hold no form of the key", async () => {
    const recording = createRecording();
    const lines: string[] = [];
    const proxy = await startMockServer({
      port: 0,
      apiKeys: [KEY],
      proxy: { target: echoingUrl, onExchange: recording.see },
      onRequest: (request) => void lines.push(requestLine(request)),
    });
    try {
      const send = (method: string, path: string, body?: unknown) =>
        fetch(`${proxy.url}${path}`, {
          method,
          headers: { "x-api-key": ECHOED, "content-type": "application/json" },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        }).then((response) => response.text());
      expect(leaks(await send("GET", "/v0/page_groups/pagegroup_echo/pages/page_echo"))).not.toEqual([]); // the caller gets what the target sent
      await send("PATCH", "/v0/webhook_subscriptions/whsub_echo", { active: true });
      await send("POST", "/v0/prospect_logs", { source: "crm", payload: { note: ECHOED }, name: ECHOED });
      const listed = await fetch(`${proxy.url}/__mock/requests`, { headers: { "x-api-key": KEY } }).then((response) => response.text());
      expect(proxy.api.requests.list()).toHaveLength(3);
      const entries = proxy.api.requests.list() as (LoggedRequest & ProxyLogFields)[];
      expect(entries.every((entry) => entry.violations?.includes("the answer carries the API key sent"))).toBe(true);
      for (const text of [JSON.stringify(proxy.api.requests.list()), listed, lines.join(""), JSON.stringify(recording.document())])
        expect(leaks(text)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
