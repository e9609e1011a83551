import { describe, expect, expectTypeOf, it } from "vitest";
import { signWebhook, WebhookVerificationError } from "../../src/index.js";
import { referenceSignature, SECRET } from "./support/reference-signature.js";

describe("signWebhook: v1, + base64 HMAC-SHA256 of id.timestamp.body with the whsec_ key bytes", () => {
  it("reproduces the published Standard Webhooks / Svix example vector", async () => {
    const vector = { secret: SECRET, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1614265330, body: '{"test": 2432232314}' };
    const expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    expect(referenceSignature(vector.secret, vector.id, vector.timestamp, vector.body)).toBe(expected);
    await expect(signWebhook(vector)).resolves.toBe(expected);
  });

  const key64 = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256)).toString("base64");
  it.each([
    ["a 24-byte key", SECRET, "event_1", 0, "{}"],
    ["a 64-byte key", `whsec_${key64}`, "event_2", 1709208000, '{"a":1}'],
    ["an unpadded base64 key", "whsec_AQID", "event_3", 1709208000, '{"a":1}'],
    ["a body with non-ASCII text (signed as UTF-8)", SECRET, "event_4", 1709208000, '{"name":"Zoë 🚀"}'],
    ["an empty body", SECRET, "event_5", 1709208000, ""],
  ])("matches node:crypto for %s", async (_rule, secret, id, timestamp, body) => {
    await expect(signWebhook({ secret, id, timestamp, body })).resolves.toBe(referenceSignature(secret, id, timestamp, body));
  });

  it("signs a byte body exactly like the same text", async () => {
    const body = '{"name":"Zoë"}';
    const fromBytes = await signWebhook({ secret: SECRET, id: "e", timestamp: 1, body: new TextEncoder().encode(body) });
    expect(fromBytes).toBe(await signWebhook({ secret: SECRET, id: "e", timestamp: 1, body }));
  });

  it.each([
    ["no whsec_ prefix", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
    ["a prefix in the wrong case", "WHSEC_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
    ["the prefix alone (no key bytes)", "whsec_"],
    ["characters outside base64", "whsec_MfKQ9r8G!YqrTwjUPD8ILPZIo2LaLaSw"],
    ["URL-safe base64 characters", "whsec_MfKQ9r8G-YqrTwjUPD8ILPZIo2LaLa_w"],
    ["an impossible base64 length", "whsec_MfKQ9"],
    ["inner whitespace", "whsec_MfKQ9r8GKYqr TwjUPD8ILPZIo2LaLaSw"],
    ["the empty string", ""],
  ])("rejects a malformed secret (%s) with invalid_secret, never echoing it", async (_rule, secret) => {
    const error = await signWebhook({ secret, id: "e", timestamp: 1, body: "{}" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ code: "invalid_secret", name: "WebhookVerificationError" });
    if (secret.length > 6) expect((error as Error).message).not.toContain(secret.slice(6));
  });

  it.each([
    ["an empty id", { id: "", timestamp: 1 }, "missing_header"],
    ["a fractional timestamp", { id: "e", timestamp: 1.5 }, "invalid_timestamp"],
    ["a negative timestamp", { id: "e", timestamp: -1 }, "invalid_timestamp"],
    ["a NaN timestamp", { id: "e", timestamp: Number.NaN }, "invalid_timestamp"],
  ])("refuses to sign %s (verification would reject it)", async (_rule, fields, code) => {
    await expect(signWebhook({ secret: SECRET, body: "{}", ...fields })).rejects.toMatchObject({ code });
  });

  it("types: resolves to the header value as a string", () => {
    expectTypeOf(signWebhook).returns.resolves.toEqualTypeOf<string>();
  });
});
