import { describe, expect, expectTypeOf, it } from "vitest";
import {
  ConfigurationError,
  ProspectKitError,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventKind,
  WebhookVerificationError,
} from "../../src/index.js";
import { EVENT, NOW, NOW_SECONDS, referenceSignature, SECRET, signedHeaders } from "./support/reference-signature.js";

const BODY = JSON.stringify(EVENT);
const OTHER_SECRET = `whsec_${Buffer.from("another key of twenty-four").toString("base64")}`;

/** Runs verifyWebhook on a valid delivery changed by `change`, at the receiver time NOW. */
function verify(change: Partial<VerifyWebhookOptions> = {}) {
  return verifyWebhook({ secret: SECRET, headers: signedHeaders(BODY), body: BODY, now: NOW, ...change });
}

function without(name: string): Record<string, string> {
  const headers = signedHeaders(BODY);
  delete headers[name];
  return headers;
}

describe("verifyWebhook accepts a correctly signed delivery", () => {
  const signature = signedHeaders(BODY)["webhook-signature"]!;
  it.each<[string, Partial<VerifyWebhookOptions>]>([
    ["a plain header record", {}],
    ["a Fetch API Headers object", { headers: new Headers(signedHeaders(BODY)) }],
    ["header names in any case", { headers: Object.fromEntries(Object.entries(signedHeaders(BODY)).map(([k, v]) => [k.toUpperCase(), v])) }],
    ["the body as bytes (a Node Buffer)", { body: Buffer.from(BODY) }],
    ["several signatures, the first one matching", { headers: { ...signedHeaders(BODY), "webhook-signature": `${signature} v1,bm90IGl0` } }],
    ["several signatures, the last one matching", { headers: { ...signedHeaders(BODY), "webhook-signature": `v1,bm90IGl0 v1a,xyz ${signature}` } }],
    ["signatures in repeated header lines", { headers: { ...signedHeaders(BODY), "webhook-signature": ["v1,bm90IGl0", signature] } }],
    [
      "a signature signed with the previous secret during rotation",
      { headers: { ...signedHeaders(BODY), "webhook-signature": `${referenceSignature(OTHER_SECRET, EVENT.id, NOW_SECONDS, BODY)} ${signature}` } },
    ],
    ["a timestamp exactly 300 s old (the tolerance is inclusive)", { headers: signedHeaders(BODY, NOW_SECONDS - 300) }],
    ["a timestamp exactly 300 s ahead", { headers: signedHeaders(BODY, NOW_SECONDS + 300) }],
    ["an hour-old timestamp within a custom tolerance", { headers: signedHeaders(BODY, NOW_SECONDS - 3600), toleranceSeconds: 3600 }],
  ])("with %s", async (_rule, change) => {
    await expect(verify(change)).resolves.toEqual(EVENT);
  });

  it("uses the system clock when now is omitted", async () => {
    const seconds = Math.floor(Date.now() / 1000);
    const headers = signedHeaders(BODY, seconds);
    await expect(verifyWebhook({ secret: SECRET, headers, body: BODY })).resolves.toEqual(EVENT);
  });

  it("keeps an event kind and fields added after this SDK (forward compatibility)", async () => {
    const body = JSON.stringify({ ...EVENT, type: "page.deleted", attempt: 2 });
    const event = await verify({ headers: signedHeaders(body), body });
    expect(event).toMatchObject({ type: "page.deleted", attempt: 2 });
  });
});

describe("verifyWebhook rejects what must not be trusted, with a typed error naming the rule", () => {
  const tampered = BODY.replace('"versionNumber":3', '"versionNumber":4');
  it.each<[string, Partial<VerifyWebhookOptions>, string]>([
    ["a wrong secret", { secret: OTHER_SECRET }, "invalid_signature"],
    ["a tampered body", { body: tampered }, "invalid_signature"],
    ["a body re-serialized with other whitespace", { body: JSON.stringify(EVENT, null, 2) }, "invalid_signature"],
    ["a tampered id", { headers: { ...signedHeaders(BODY), "webhook-id": "event_other" } }, "invalid_signature"],
    [
      "a tampered timestamp inside the tolerance",
      { headers: { ...signedHeaders(BODY), "webhook-timestamp": String(NOW_SECONDS - 1) } },
      "invalid_signature",
    ],
    [
      "a signature of another version only",
      { headers: { ...signedHeaders(BODY), "webhook-signature": signedHeaders(BODY)["webhook-signature"]!.replace("v1,", "v2,") } },
      "invalid_signature",
    ],
    [
      "a signature without its version",
      { headers: { ...signedHeaders(BODY), "webhook-signature": signedHeaders(BODY)["webhook-signature"]!.slice(3) } },
      "invalid_signature",
    ],
    [
      "a truncated signature",
      { headers: { ...signedHeaders(BODY), "webhook-signature": signedHeaders(BODY)["webhook-signature"]!.slice(0, -2) } },
      "invalid_signature",
    ],
    ["a timestamp 301 s old (a replay)", { headers: signedHeaders(BODY, NOW_SECONDS - 301) }, "timestamp_too_old"],
    ["a timestamp 301 s ahead", { headers: signedHeaders(BODY, NOW_SECONDS + 301) }, "timestamp_too_new"],
    ["a timestamp in milliseconds", { headers: signedHeaders(BODY, NOW.getTime()) }, "timestamp_too_new"],
    ["a timestamp that is not a number", { headers: { ...signedHeaders(BODY), "webhook-timestamp": "2024-02-29T12:00:00Z" } }, "invalid_timestamp"],
    ["a fractional timestamp", { headers: signedHeaders(BODY, NOW_SECONDS + 0.5) }, "invalid_timestamp"],
    ["a missing webhook-id", { headers: without("webhook-id") }, "missing_header"],
    ["a missing webhook-timestamp", { headers: without("webhook-timestamp") }, "missing_header"],
    ["a missing webhook-signature", { headers: without("webhook-signature") }, "missing_header"],
    ["a blank webhook-signature", { headers: { ...signedHeaders(BODY), "webhook-signature": "  " } }, "missing_header"],
    ["no headers at all", { headers: new Headers() }, "missing_header"],
    ["a secret without the whsec_ prefix", { secret: SECRET.slice(6) }, "invalid_secret"],
    ["a secret that is not base64", { secret: "whsec_not base64!" }, "invalid_secret"],
    ["an empty secret", { secret: "" }, "invalid_secret"],
    ["a signed body that is not JSON", { headers: signedHeaders("not json"), body: "not json" }, "invalid_payload"],
    [
      "a signed body that is not UTF-8",
      {
        headers: { ...signedHeaders(BODY), "webhook-signature": referenceSignature(SECRET, EVENT.id, NOW_SECONDS, new Uint8Array([0xff])) },
        body: new Uint8Array([0xff]),
      },
      "invalid_payload",
    ],
    [
      "bytes that differ from the signed text though they decode alike",
      { headers: signedHeaders("\ufffd"), body: new Uint8Array([0xff]) },
      "invalid_signature",
    ],
    ["a signed JSON body that is not an event", { headers: signedHeaders('{"id":"e"}'), body: '{"id":"e"}' }, "invalid_payload"],
    [
      "a signed event whose data is an array",
      { headers: signedHeaders(JSON.stringify({ ...EVENT, data: [] })), body: JSON.stringify({ ...EVENT, data: [] }) },
      "invalid_payload",
    ],
  ])("%s", async (_rule, change, code) => {
    const error = await verify(change).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ code, name: "WebhookVerificationError" });
    const text = `${(error as Error).message} ${JSON.stringify(error)} ${(error as Error).stack}`;
    for (const secret of [SECRET, OTHER_SECRET]) expect(text).not.toContain(secret.slice(6));
  });

  it("names the failing fields of a signed body that is not an event", async () => {
    const body = JSON.stringify({ ...EVENT, createdAt: "yesterday", data: undefined });
    await expect(verify({ headers: signedHeaders(body), body })).rejects.toThrow(/createdAt.*data/);
  });

  it("checks the secret before anything else, so a misconfiguration is never mistaken for an attack", async () => {
    await expect(verify({ secret: "whsec_", headers: {} })).rejects.toMatchObject({ code: "invalid_secret" });
  });

  it("checks the timestamp before the signature (a stale replay is reported as such)", async () => {
    const headers = { ...signedHeaders(BODY, NOW_SECONDS - 301), "webhook-signature": "v1,bm90IGl0" };
    await expect(verify({ headers })).rejects.toMatchObject({ code: "timestamp_too_old" });
  });

  it.each<[string, Partial<VerifyWebhookOptions>]>([
    ["a negative tolerance", { toleranceSeconds: -1 }],
    ["a NaN tolerance (which would otherwise accept any timestamp)", { toleranceSeconds: Number.NaN }],
    ["an invalid date as now", { now: new Date(Number.NaN) }],
  ])("fails closed on %s with a ConfigurationError", async (_rule, change) => {
    await expect(verify(change)).rejects.toBeInstanceOf(ConfigurationError);
  });
});

describe("types", () => {
  it("resolves to a WebhookEvent whose type keeps autocompletion of the known kinds", () => {
    expectTypeOf(verifyWebhook).returns.resolves.toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookEvent["type"]>().toEqualTypeOf<WebhookEventKind | (string & {})>();
    expectTypeOf<WebhookEvent["data"]>().toEqualTypeOf<{ [key: string]: unknown }>();
    expectTypeOf<WebhookVerificationError["code"]>().toExtend<string>();
  });
});

describe("WebhookVerificationError is one of the SDK's errors", () => {
  it("is a ProspectKitError with kind and name WebhookVerificationError, recognised by is()", async () => {
    const error = await verify({ secret: `whsec_${btoa("another key of 24 bytes!")}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(ProspectKitError.is(error)).toBe(true);
    expect(WebhookVerificationError.is(error)).toBe(true);
    expect(error).toMatchObject({ kind: "WebhookVerificationError", name: "WebhookVerificationError", code: "invalid_signature" });
  });
});

describe('issue 17.8: signature lines joined by a runtime with ", " are each a candidate', () => {
  const signature = signedHeaders(BODY)["webhook-signature"]!;
  const joined = (first: string, second: string) => {
    const headers = new Headers(signedHeaders(BODY));
    headers.delete("webhook-signature");
    headers.append("webhook-signature", first);
    headers.append("webhook-signature", second);
    return headers;
  };

  it.each<[string, () => Partial<VerifyWebhookOptions>]>([
    ["Headers with the valid line first", () => ({ headers: joined(signature, "v1,bm90IGl0") })],
    ["Headers with the valid line last", () => ({ headers: joined("v1,bm90IGl0", signature) })],
    [
      'a Node req.headers record (lines joined with ", "), valid first',
      () => ({ headers: { ...signedHeaders(BODY), "webhook-signature": `${signature}, v1,bm90IGl0` } }),
    ],
    ["a Node req.headers record, valid last", () => ({ headers: { ...signedHeaders(BODY), "webhook-signature": `v1,bm90IGl0, ${signature}` } })],
  ])("%s", async (_rule, change) => {
    expect(joined("a", "b").get("webhook-signature")).toBe("a, b"); // what the runtime does to repeated lines
    await expect(verify(change())).resolves.toEqual(EVENT);
  });

  it("a joined list without any valid signature is still refused", async () => {
    await expect(verify({ headers: joined("v1,bm90IGl0", "v1,YWxzbyBub3Q=") })).rejects.toMatchObject({ code: "invalid_signature" });
  });
});
