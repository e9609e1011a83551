/**
 * The one key check (`holdsSecret`, src/redact.ts) decodes rather than lists encodings: it must
 * not call a body that holds no key one that does (the request log would hide it as `[redacted]`),
 * however many escapes, IDs and base64 runs it holds, and must find a key nested deeper than any
 * list of forms would go.
 */
import { describe, expect, it } from "vitest";
import { createRedactor, holdsSecret, REDACTED } from "../../src/redact.js";

const KEY = 'sk/live+a=b&c"d\\e%41';
const b64 = (text: string) => Buffer.from(text, "latin1").toString("base64");
const ids = Array.from({ length: 500 }, (_, i) => `prospect_01HXYZABCDEFGHJKMNPQRST${i}`);

describe("holdsSecret: bodies without the key are not taken for ones with it", () => {
  it.each<[string, string]>([
    ["a log listing 500 IDs and timestamps", JSON.stringify(ids.map((id) => ({ id, createdAt: "2026-01-01T00:00:00.000Z" })))],
    ["a 256 KiB base64 blob of varied bytes", Buffer.from(Array.from({ length: 192 * 1024 }, (_, i) => (i * 7919) % 256)).toString("base64")],
    ["a JSON string escaped five times", [1, 2, 3, 4, 5].reduce((text) => JSON.stringify(text), 'a\\b"c/d%41 '.repeat(50))],
    ["URL-encoded text with escapes", encodeURIComponent(JSON.stringify({ q: 'a "quoted" \\ value', ids: ids.slice(0, 50) }))],
    ["the key without its last character", KEY.slice(0, -1)],
  ])("%s", (_, text) => {
    expect(holdsSecret(text, [KEY])).toBe(false);
  });
});

describe("holdsSecret: the key nested deeper than a list of its forms goes", () => {
  it.each<[string, string]>([
    ["base64 of base64 of a JSON document", b64(b64(JSON.stringify({ apiKey: KEY })))],
    ["URL-encoded base64 of a JSON string escaped twice", encodeURIComponent(b64(JSON.stringify(JSON.stringify({ apiKey: KEY }))))],
    ["base64 split over MIME lines", b64(`header ${KEY} trailer`).replace(/(.{8})/g, "$1\r\n")],
    ["base64url inside a path", `/files/${Buffer.from(`x${KEY}`).toString("base64url")}/raw`],
  ])("%s", (_, text) => {
    expect(holdsSecret(text, [KEY])).toBe(true);
    const shown = createRedactor(KEY).text(text);
    expect(holdsSecret(shown, [KEY])).toBe(false);
    expect(shown).toContain(REDACTED);
  });
});
