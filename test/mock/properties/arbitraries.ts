/**
 * Random and hostile HTTP requests for the property tests: wrong types, huge strings, deep
 * nesting, `__proto__` keys, invalid UTF-8, wrong content types, odd paths and headers.
 */
import fc from "fast-check";
import { MAX_BODY_BYTES } from "../../../mock/index.js";
import { A, B, KEYS, KNOWN, SUBSCRIPTIONS } from "../../conformance/fixtures.js";

const VALID_LOG = { source: "crm", payload: { plan: "pro" }, email: "p@example.com", idempotencyKey: "idem" };
const LOG_FIELDS = [
  "source",
  "type",
  "payload",
  "prospectId",
  "email",
  "phoneNumber",
  "linkedinProfileUrl",
  "idempotencyKey",
  "name",
  "__proto__",
  "emial",
  "",
];
const SUB_FIELDS = ["url", "events", "active", "__proto__", "secret"];

/** Any JSON value, including strings with every code point (lone surrogates too). */
const jsonValue = fc.jsonValue({ maxDepth: 4 });
const wildString = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.constantFrom("", " ", "\u0000", "\ud800", "null"));

/** A value a field might wrongly hold. */
const fieldValue = fc.oneof(jsonValue, wildString, fc.constantFrom(KNOWN.id, KNOWN.email, "+14155550100", "form.submitted", "https://x.test"));

/** A valid body with some fields replaced by random values or removed. */
function mutated(base: Record<string, unknown>, fields: readonly string[]): fc.Arbitrary<string> {
  return fc.array(fc.tuple(fc.constantFrom(...fields), fc.option(fieldValue, { nil: undefined })), { maxLength: 4 }).map((changes) => {
    let text = JSON.stringify(base).slice(0, -1);
    for (const [field, value] of changes) {
      text += `,${JSON.stringify(field)}:${value === undefined ? "null" : JSON.stringify(value)}`;
    }
    return `${text}}`;
  });
}

/** Deeply nested JSON, inside the payload or as the whole body. */
const deep = fc.tuple(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom("[", '{"a":'), fc.boolean()).map(([depth, open, inPayload]) => {
  const close = open === "[" ? "]" : "}";
  const nested = open.repeat(depth) + (open === "[" ? "" : "1") + close.repeat(depth);
  return inPayload ? `{"source":"crm","payload":{"n":${nested}}}` : nested;
});

/** A body larger than, or right at, the limit. */
const huge = fc
  .constantFrom(MAX_BODY_BYTES - 40, MAX_BODY_BYTES, MAX_BODY_BYTES + 1, MAX_BODY_BYTES * 2)
  .map((size) => `{"source":"crm","payload":{"s":"${"x".repeat(Math.max(0, size - 32))}"}}`);

/** What a body can be. */
export const body: fc.Arbitrary<BodyInit | undefined> = fc.oneof(
  { weight: 4, arbitrary: mutated(VALID_LOG, LOG_FIELDS) },
  { weight: 3, arbitrary: mutated({ url: "https://h.example.com/x", events: ["form.submitted"], active: true }, SUB_FIELDS) },
  { weight: 3, arbitrary: jsonValue.map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: wildString },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  { weight: 1, arbitrary: deep },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"__proto__":{"source":"x"},"source":"crm","payload":{}}',
      '{"source":"crm","payload":{"__proto__":null,"constructor":{"prototype":{}}}}',
      '{"source":"crm","payload":{},"source":"dup"}',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Rarely, a body over the limit (kept rare: each one costs a megabyte). */
export const rareHugeBody = fc.oneof({ weight: 30, arbitrary: body }, { weight: 1, arbitrary: huge });

const segment = fc.oneof(
  fc.constantFrom(A.group, A.custom, A.nullName, B.group, B.page, SUBSCRIPTIONS.all, B.subscription, "..", ".", "%", "%zz", "%E0%A4%A", "", "pages"),
  fc.string({ unit: "binary", maxLength: 20 }).map(encodeURIComponent),
  fc.string({ unit: "grapheme-ascii", maxLength: 20 }),
);

/** Paths: the API's routes with random IDs, near misses, and noise. */
export const path = fc.oneof(
  { weight: 4, arbitrary: fc.constant("/v0/prospect_logs") },
  { weight: 1, arbitrary: fc.constant(`/v0/page_groups/${A.group}/pages/${A.custom}`) },
  { weight: 2, arbitrary: fc.tuple(segment, segment).map(([g, p]) => `/v0/page_groups/${g}/pages/${p}`) },
  { weight: 3, arbitrary: segment.map((id) => `/v0/webhook_subscriptions/${id}`) },
  { weight: 1, arbitrary: fc.array(segment, { maxLength: 6 }).map((parts) => `/v0/${parts.join("/")}`) },
  { weight: 1, arbitrary: fc.array(segment, { maxLength: 4 }).map((parts) => `/${parts.join("/")}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("/v0/prospect_logs", `/v0/page_groups/${A.group}/pages/${A.custom}`),
        fc.string({ unit: "grapheme-ascii", maxLength: 30 }),
      )
      .map(([p, q]) => `${p}?${encodeURIComponent(q)}`),
  },
);

/** Methods: mostly the API's, sometimes others. */
export const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("GET", "POST", "PATCH") },
  { weight: 1, arbitrary: fc.constantFrom("PUT", "DELETE", "HEAD", "OPTIONS", "QUERY") },
);

const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 40 }).map((v) => v.trim());

/** Header sets: the API key (valid, wrong, empty, absent), content types, and noise. */
export const headers = fc.record({
  key: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(KEYS.a, KEYS.b, ` ${KEYS.a} `) },
    { weight: 1, arbitrary: fc.constantFrom("", "pk_wrong") },
    { weight: 1, arbitrary: headerValue },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  contentType: fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom(
        "application/json",
        "application/json; charset=utf-8",
        "application/problem+json",
        "application/json; charset=latin1",
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "") },
    { weight: 1, arbitrary: headerValue },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  extra: fc.array(fc.tuple(fc.constantFrom("x-request-id", "idempotency-key", "content-length-x", "accept", "x-api-key-2", "origin"), headerValue), {
    maxLength: 3,
  }),
});
