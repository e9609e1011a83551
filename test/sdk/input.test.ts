/**
 * Issue 17.5 and 11.11: the SDK's input conversion can throw nothing but a ProspectKitError.
 * A request JSON cannot carry (NaN, ±Infinity, a BigInt, a cycle, a lone surrogate in a string,
 * a name or an ID) is a RequestValidationError naming the field, with nothing sent, whether or not
 * request validation is on; and every issue in a message names its field.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ClientOptions, createClient, ProspectKitError, RequestValidationError } from "../../src/index.js";
import { fakeFetch, json } from "./support/fetch.js";
import { API_KEY, caught, page, prospectLog, subscription } from "./support/fixtures.js";

function clientWith(options: ClientOptions = {}) {
  const answer = (request: Request) => json(request.method === "POST" ? prospectLog : request.method === "PATCH" ? subscription : page);
  const { fetch, calls } = fakeFetch(answer);
  return { client: createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch, maxRetries: 0, ...options }), calls };
}

const cycle = () => {
  const node: Record<string, unknown> = { name: "loop" };
  node.self = node;
  return node;
};

type Row = [
  rule: string,
  operation: "createProspectLog" | "getPage" | "updateWebhookSubscription",
  input: () => unknown,
  pointer: string,
  field: string,
];

const ROWS: Row[] = [
  [
    "a lone surrogate in a path ID (encodeURIComponent would throw URIError)",
    "getPage",
    () => ({ pageGroupId: "g\uD800", pageId: "p" }),
    "/pageGroupId",
    "pageGroupId",
  ],
  [
    "a lone low surrogate in the subscription ID",
    "updateWebhookSubscription",
    () => ({ subscriptionId: "\uDC00s", active: true }),
    "/subscriptionId",
    "subscriptionId",
  ],
  [
    "a BigInt in the payload (JSON.stringify would throw TypeError)",
    "createProspectLog",
    () => ({ source: "crm", payload: { n: 10n } }),
    "/payload/n",
    "payload/n",
  ],
  [
    "a cycle in the payload (JSON.stringify would throw TypeError)",
    "createProspectLog",
    () => ({ source: "crm", payload: { tree: cycle() } }),
    "/payload/tree/self",
    "payload/tree/self",
  ],
  [
    "NaN in the payload (JSON.stringify would send null)",
    "createProspectLog",
    () => ({ source: "crm", payload: { score: Number.NaN } }),
    "/payload/score",
    "payload/score",
  ],
  [
    "Infinity in the payload",
    "createProspectLog",
    () => ({ source: "crm", payload: { list: [1, Number.POSITIVE_INFINITY] } }),
    "/payload/list/1",
    "payload/list/1",
  ],
  [
    "-Infinity in the payload",
    "createProspectLog",
    () => ({ source: "crm", payload: { low: Number.NEGATIVE_INFINITY } }),
    "/payload/low",
    "payload/low",
  ],
  [
    "a lone surrogate in a payload string",
    "createProspectLog",
    () => ({ source: "crm", payload: { note: "a\uD83Db" } }),
    "/payload/note",
    "payload/note",
  ],
  [
    "a lone surrogate in a payload field name",
    "createProspectLog",
    () => ({ source: "crm", payload: { ["k\uDFFF"]: 1 } }),
    "/payload/k\uDFFF",
    "payload/k\uDFFF",
  ],
  ["a function in the payload", "createProspectLog", () => ({ source: "crm", payload: { run: () => 1 } }), "/payload/run", "payload/run"],
];

function invoke(client: ReturnType<typeof clientWith>["client"], operation: Row[1], input: unknown) {
  return (client[operation] as (input: unknown) => Promise<unknown>)(input);
}

describe("issue 17.5: what JSON cannot carry is a RequestValidationError naming the field; nothing is sent", () => {
  for (const validateRequests of [true, false]) {
    it.each(ROWS)(`%s (validateRequests: ${validateRequests})`, async (_, operation, input, pointer, field) => {
      const { client, calls } = clientWith({ validateRequests });
      const error = (await caught(invoke(client, operation, input()))) as RequestValidationError;
      expect(RequestValidationError.is(error)).toBe(true);
      expect(error.errors.map((e) => e.pointer)).toContain(pointer);
      expect(error.message).toContain(`${field} must`);
      expect(calls).toHaveLength(0);
    });
  }

  it("a Date in the payload is sent as its ISO string, as JSON.stringify would (toJSON is honoured)", async () => {
    const { client, calls } = clientWith();
    await client.createProspectLog({ source: "crm", payload: { at: new Date(Date.UTC(2024, 1, 29)), skipped: undefined } });
    expect(await calls[0]!.clone().json()).toMatchObject({ payload: { at: "2024-02-29T00:00:00.000Z" } });
    expect(await calls[0]!.clone().json()).not.toHaveProperty("payload.skipped");
  });

  it("an input whose getter throws is a RequestValidationError too, not the getter's error", async () => {
    const { client, calls } = clientWith({ validateRequests: false });
    const input = {
      source: "crm",
      get payload(): never {
        throw new RangeError("boom");
      },
    };
    const error = await caught(client.createProspectLog(input as never));
    expect(error).toMatchObject({ kind: "RequestValidationError", errors: [{ pointer: "", code: "unreadable" }] });
    expect(calls).toHaveLength(0);
  });
});

describe("issue 11.11: every issue in a message names its field", () => {
  it("an unknown field: emial is not a known field", async () => {
    const { client } = clientWith();
    const error = (await caught(client.createProspectLog({ source: "crm", payload: {}, emial: "x" } as never))) as RequestValidationError;
    expect(error.message).toBe("Invalid createProspectLog input: emial is not a known field");
    expect(error.errors).toEqual([{ pointer: "/emial", code: "unknown_field", detail: "emial is not a known field" }]);
  });

  it("several issues at once, each with its field", async () => {
    const { client } = clientWith();
    const error = (await caught(
      client.updateWebhookSubscription({ subscriptionId: "", secret: "x", events: [] } as never),
    )) as RequestValidationError;
    for (const { pointer, detail } of error.errors) expect(detail.startsWith(`${pointer.slice(1)} `)).toBe(true);
    expect(
      error.message
        .split(": ")[1]!
        .split("; ")
        .map((part) => part.split(" ")[0]),
    ).toEqual(error.errors.map((e) => e.pointer.slice(1)));
  });
});

/** Any JS value: BigInts, boxed values, Maps, Sets, null prototypes, typed and sparse arrays, lone surrogates. */
const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withTypedArray: true,
  withSparseArray: true,
  stringUnit: "binary",
  maxDepth: 4,
});

/** A valid input of each operation with any of its fields (or the whole input) replaced by anything. */
const inputs = {
  createProspectLog: fc.oneof(
    anything,
    fc.record(
      { source: fc.oneof(fc.constant("crm"), anything), payload: anything, email: anything, idempotencyKey: anything },
      { requiredKeys: ["source", "payload"] },
    ),
  ),
  getPage: fc.oneof(anything, fc.record({ pageGroupId: fc.oneof(fc.string({ unit: "binary", minLength: 1 }), anything), pageId: anything })),
  updateWebhookSubscription: fc.oneof(
    anything,
    fc.record(
      { subscriptionId: fc.oneof(fc.string({ unit: "binary", minLength: 1 }), anything), url: anything, events: anything, active: anything },
      { requiredKeys: ["subscriptionId"] },
    ),
  ),
} as const;

describe("issue 17.5: the input conversion of every operation throws nothing but a ProspectKitError (property)", () => {
  for (const operation of Object.keys(inputs) as (keyof typeof inputs)[]) {
    for (const validateRequests of [true, false]) {
      it(`${operation}, validateRequests: ${validateRequests}: any JS value resolves, or rejects with a ProspectKitError; a RequestValidationError sends nothing`, async () => {
        await fc.assert(
          fc.asyncProperty(inputs[operation], async (input) => {
            const { client, calls } = clientWith({ validateRequests, validateResponses: "off" });
            const outcome = await invoke(client, operation, input).then(
              () => undefined,
              (error: unknown) => error,
            );
            if (outcome === undefined) {
              expect(calls).toHaveLength(1);
              const body = await calls[0]!.clone().text();
              if (body) expect(() => JSON.parse(body)).not.toThrow();
              return;
            }
            expect(ProspectKitError.is(outcome), String(outcome)).toBe(true);
            if (RequestValidationError.is(outcome)) expect(calls).toHaveLength(0);
          }),
          { numRuns: 300 },
        );
      });
    }
  }
});
