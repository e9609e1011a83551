/** What the CLI prints: shell quoting of the banner's curls, the request line, field errors in one line. */
import { describe, expect, it } from "vitest";
import { describeFieldErrors } from "../../mock/lib/field-errors.js";
import { banner, deliveryLine, requestLine, shellQuote } from "../../mock/server/cli/output.js";
import type { DeliveryAttempt } from "../../mock/webhooks/index.js";
import { fillPath } from "../../src/operation-row.js";
import { OPERATION_TABLE } from "../../src/operation-table.js";

/** An ID for every path parameter of the table (the page's and the subscription's come from their own fields). */
const IDS = Object.fromEntries(OPERATION_TABLE.flatMap((row) => row.params.map((param) => [param.key, `id_${param.key}`])));

describe("shellQuote", () => {
  it.each([
    ["http://127.0.0.1:4010/v0/prospect_logs", "http://127.0.0.1:4010/v0/prospect_logs"],
    ["x-api-key: k", "'x-api-key: k'"],
    ['{"a":1}', `'{"a":1}'`],
    ["it's", `'it'\\''s'`],
    ["$HOME", "'$HOME'"],
    ["", "''"],
  ])("%s → %s", (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
  });
});

describe("requestLine", () => {
  const at = new Date(2024, 1, 29, 9, 5, 7, 42);
  it.each([
    [{ method: "GET", path: "/v0/x", status: 200, durationMs: 1.26 }, "09:05:07.042 GET /v0/x 200 1.3 ms\n"],
    [{ method: "POST", path: "/v0/prospect_logs", status: 0, durationMs: 0 }, "09:05:07.042 POST /v0/prospect_logs dropped 0.0 ms\n"],
    // The validating proxy: what the exchange broke, and a fallback to the mock.
    [
      {
        method: "GET",
        path: "/v0/x",
        status: 200,
        durationMs: 2,
        answeredBy: "target" as const,
        violations: ["body /customName invalid_type", "no x-request-id header"],
      },
      "09:05:07.042 GET /v0/x 200 2.0 ms VIOLATES: body /customName invalid_type; no x-request-id header\n",
    ],
    [
      { method: "GET", path: "/v0/x", status: 200, durationMs: 2, answeredBy: "target" as const, violations: [] },
      "09:05:07.042 GET /v0/x 200 2.0 ms\n",
    ],
    [
      { method: "POST", path: "/v0/prospect_logs", status: 201, durationMs: 1, answeredBy: "mock" as const },
      "09:05:07.042 POST /v0/prospect_logs 201 1.0 ms (answered by the mock: --fallback)\n",
    ],
  ])("%j", (request, line) => {
    expect(requestLine(request, at)).toBe(line);
  });
});

describe("describeFieldErrors", () => {
  it.each([
    [
      [{ pointer: "/pages/0/customName", code: "invalid_type", detail: "pages/0/customName must be a string" }],
      "/pages/0/customName: must be a string",
    ],
    [
      [
        { pointer: "/a", code: "x", detail: "a is bad" },
        { pointer: "/b", code: "x", detail: "b is bad" },
      ],
      "/a: is bad (and 1 more problem)",
    ],
    [
      [
        { pointer: "/a", code: "x", detail: "a is bad" },
        { pointer: "/b", code: "x", detail: "" },
        { pointer: "/c", code: "x", detail: "" },
      ],
      "/a: is bad (and 2 more problems)",
    ],
    [[{ pointer: "", code: "invalid_type", detail: "the body must be an object" }], "the document: the body must be an object"],
  ])("%j → %s", (errors, line) => {
    expect(describeFieldErrors(errors)).toBe(line);
  });
});

describe("banner", () => {
  it("URL-encodes IDs in paths and quotes them for the shell", () => {
    const text = banner({
      version: "1.0.0",
      url: "http://127.0.0.1:1",
      apiKey: "k'ey",
      otherKeys: 0,
      developmentKey: false,
      page: { pageGroupId: "group ü", pageId: "page/1" },
      subscriptionId: "sub 1",
      quiet: true,
    });
    expect(text).toContain("curl -sS http://127.0.0.1:1/v0/page_groups/group%20%C3%BC/pages/page%2F1 -H 'x-api-key: k'\\''ey'");
    expect(text).toContain("-X PATCH http://127.0.0.1:1/v0/webhook_subscriptions/sub%201");
    expect(text).toContain("Quiet: requests and webhook attempts are not printed.");
  });
});

describe("banner: steps that work in the order printed (issue 34.3)", () => {
  const input = (publishedVersionId: string | null, deliver: boolean) =>
    banner({
      version: "1.0.0",
      url: "http://127.0.0.1:1",
      apiKey: "k",
      otherKeys: 0,
      developmentKey: false,
      page: { pageGroupId: "g", pageId: "p", publishedVersionId },
      subscriptionId: "s",
      ids: IDS,
      quiet: false,
      webhooks: { deliver, timeScale: 1, inboxUrl: "http://127.0.0.1:1/__mock/inbox/demo" },
    });
  /** Each operation's step: its row's method and path, with the IDs the banner was given. */
  const operations = OPERATION_TABLE.map(
    (row) => `${row.method} ${fillPath(row, (param) => ({ ...IDS, pageGroupId: "g", pageId: "p", subscriptionId: "s" })[param.key]!)}`,
  );
  /** Each step: its description and the method and path of its curl. */
  const steps = (text: string) =>
    text
      .split("\n")
      .filter((line) => line.startsWith("  curl "))
      .map((line) => `${/ -X (\w+) /.exec(line)?.[1] ?? "GET"} ${new URL(/ (http\S+) /.exec(line)![1]!).pathname}`);
  it.each([
    [
      "delivering to the inbox, with a published version: the update keeps the subscription active, a publish then the inbox",
      input("pv 1", true),
      [...operations, "POST /__mock/page_versions/pv%201/publish", "GET /__mock/prospect_logs", "GET /__mock/inbox/demo"],
      /verified \(the publish above added one\):/,
    ],
    [
      "no published version: the inbox line says how to add one",
      input(null, true),
      [...operations, "GET /__mock/prospect_logs", "GET /__mock/inbox/demo"],
      /verified \(publish a page version to add one\):/,
    ],
    [
      "--no-webhooks: no publish step, the inbox line says none is sent",
      input("pv", false),
      [...operations, "GET /__mock/prospect_logs", "GET /__mock/inbox/demo"],
      /verified \(none: --no-webhooks sends none\):/,
    ],
  ])("%s", (_, text, expected, inboxLine) => {
    expect(steps(text)).toEqual(expected);
    expect(text).toMatch(inboxLine);
    expect(text).toContain(`-d '{"events":["page.version.published","page.version.processed"]}'`);
    expect(text).not.toContain('"active":false}\'');
  });
});

describe("banner: a key read from the environment", () => {
  it("is named, never printed: the commands send the variable", () => {
    const text = banner({
      version: "1.0.0",
      url: "http://127.0.0.1:1",
      apiKey: "pk_secret_from_env",
      keyVariable: "PROSPECTKIT_API_KEY",
      otherKeys: 0,
      developmentKey: false,
      page: { pageGroupId: "g", pageId: "p" },
      subscriptionId: "s",
      quiet: false,
    });
    expect(text).not.toContain("pk_secret_from_env");
    expect(text).toContain("API key       from $PROSPECTKIT_API_KEY (not printed)");
    const curls = text.split("\n").filter((line) => line.startsWith("  curl "));
    // One per operation, then the stored entries.
    expect(curls).toHaveLength(OPERATION_TABLE.length + 1);
    for (const line of curls) expect(line).toContain(`-H "x-api-key: $PROSPECTKIT_API_KEY"`);
  });
});

describe("deliveryLine: one line per webhook attempt", () => {
  const at = new Date(2024, 1, 29, 12, 0, 1, 240);
  const attempt = {
    eventId: "e",
    subscriptionId: "s",
    attempt: 1,
    at: "",
    ok: true,
    status: 200,
    reason: null,
    error: null,
    response: "",
    durationMs: 3.14,
    redelivery: false,
  } as const;
  const delivery = { type: "page.version.published", url: "http://127.0.0.1:4010/__mock/inbox/demo" } as const;
  it.each<[string, Partial<DeliveryAttempt>, string]>([
    ["a success: the status", {}, "12:00:01.240 webhook page.version.published http://127.0.0.1:4010/__mock/inbox/demo 200 3.1 ms\n"],
    [
      "a failing status, on a retry: the status and the attempt number",
      { ok: false, status: 500, reason: "status", attempt: 3 },
      "… 500 3.1 ms (attempt 3)\n",
    ],
    ["a redirect: the word and the status", { ok: false, status: 302, reason: "redirect" }, "… redirect 302 3.1 ms\n"],
    ["no answer: the reason", { ok: false, status: null, reason: "refused" }, "… refused 3.1 ms\n"],
    ["a timeout", { ok: false, status: null, reason: "timeout", durationMs: 15000.04 }, "… timeout 15000.0 ms\n"],
    ["a redelivery", { redelivery: true, attempt: 2 }, "… 200 3.1 ms (redelivery)\n"],
  ])("%s", (_rule, change, expected) => {
    const line = deliveryLine({ ...attempt, ...change }, delivery, at);
    expect(line).toBe(
      expected.startsWith("…") ? `12:00:01.240 webhook page.version.published http://127.0.0.1:4010/__mock/inbox/demo${expected.slice(1)}` : expected,
    );
  });
});
