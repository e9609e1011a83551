/**
 * Issue 40, item 2: an API key never appears in a body the mock logs or records, in any form it
 * can take there. The table: keys holding each character class the key pattern allows (visible
 * ASCII: `"`, `\`, `/`, `+`, `=`, `&`, `%`), each written into a body every way a server or a
 * client may write it (raw, URL-encoded, JSON-escaped at several depths, `\u` escapes, base64 and
 * base64url at each of the three alignments, base64 of a JSON document or a query holding it),
 * and each place a body is shown: `GET /__mock/requests` (behind the proxy, for a key the mock
 * does not know and for one it does), the console's live feed, the request lines, the recording,
 * and verify's report. Each place is then searched for every encoded form of the key (not the raw
 * one only): its base64 is searched by the characters that do not depend on what surrounds it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENTS_PATH } from "../../mock/console/handler.js";
import { parseFrames } from "../../mock/console/ui/live.js";
import { createMockApi, type LoggedRequest } from "../../mock/index.js";
import type { AnsweredRequest } from "../../mock/server/answered.js";
import type { ProxyLogFields } from "../../mock/server/proxy.js";
import { createRecording } from "../../mock/server/recording.js";
import { type MockServer, startMockServer } from "../../mock/server/start.js";
import { formatReport, reportJson, reportJunit } from "../../mock/verify/index.js";
import { runVerify } from "../../mock/verify/run.js";
import { deploymentMock, INPUTS, KEYS } from "../verify/support/deployments.js";
import { startTarget, type Target, withBody } from "./support/target.js";

/** A key per character class the key pattern allows beyond letters, digits and `_`, and one with all of them (the issue's). */
const ODD_KEYS: [string, string][] = [
  ['"', 'sk_live_quote"9f3a2b7c'],
  ["\\", "sk_live_back\\9f3a2b7c"],
  ["/", "sk/live/slash/9f3a2b7c"],
  ["+", "sk+live+plus+9f3a2b7c"],
  ["=", "sk=live=equals=9f3a2b7c"],
  ["&", "sk&live&amp&9f3a2b7c"],
  ["% (before hex digits, which a URL decoder reads)", "sk%live%2F9f3a2b7c"],
  ["all of them (the issue's key)", 'sk/live+a=b&c"d\\e%41'],
];

const base64 = (text: string) => Buffer.from(text, "latin1").toString("base64");
const base64url = (text: string) => Buffer.from(text, "latin1").toString("base64url");
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
const unicodeEscaped = (text: string) => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

/** How a key is written into a string of a body (by the target's answer or the caller's request). */
const ENCODINGS: [string, (key: string) => string][] = [
  ["raw", (key) => `key ${key} here`],
  ["URL-encoded", (key) => `/x?key=${encodeURIComponent(key)}&y=1`],
  ["URL-encoded twice", (key) => encodeURIComponent(`/x?key=${encodeURIComponent(key)}`)],
  ["JSON-escaped (a JSON document inside the string)", (key) => JSON.stringify({ apiKey: key })],
  ["JSON-escaped twice", (key) => JSON.stringify({ inner: JSON.stringify({ apiKey: key }) })],
  ["JSON-escaped three times", (key) => JSON.stringify({ a: JSON.stringify({ b: JSON.stringify({ apiKey: key }) }) })],
  ["\\u-escaped", (key) => `"${unicodeEscaped(key)}"`],
  ["base64, at alignment 0", (key) => base64(key)],
  ["base64, at alignment 1", (key) => base64(`:${key}`)],
  ["base64, at alignment 2", (key) => `Basic ${base64(`me:${key}`)}`],
  ["base64url, at alignment 0", (key) => base64url(key)],
  ["base64url, at alignment 1", (key) => base64url(`:${key}`)],
  ["base64url, at alignment 2", (key) => base64url(`me:${key}`)],
  ["base64 of a JSON document holding it", (key) => base64(JSON.stringify({ apiKey: key }))],
  ["base64url of a query holding it", (key) => base64url(`key=${encodeURIComponent(key)}`)],
  ["base64 inside a JSON document inside the string", (key) => JSON.stringify({ token: base64(key) })],
];

/** The characters of `text`'s base64 at `alignment` (0, 1, 2) that depend on nothing around it. */
function base64Core(text: string, alignment: number, url: boolean): string {
  const encoded = (url ? base64url : base64)("\0".repeat(alignment) + text).replace(/=+$/, "");
  return encoded.slice(Math.ceil((8 * alignment) / 6), Math.floor((8 * (alignment + text.length)) / 6));
}

/** Every form in which `key` can be read out of a text: each depth of escaping, each encoding, each base64 alignment. */
function encodedForms(key: string): [string, string][] {
  const forms: [string, string][] = [["raw", key]];
  let escaped = key;
  for (const depth of [1, 2, 3, 4]) forms.push([`JSON-escaped ${depth}x`, (escaped = jsonEscaped(escaped))]);
  forms.push(["\\/-escaped", jsonEscaped(key).replaceAll("/", "\\/")], ["\\u-escaped", unicodeEscaped(key)]);
  forms.push(["\\u-escaped, escaped again", jsonEscaped(unicodeEscaped(key))]);
  const url = encodeURIComponent(key);
  forms.push(["URL-encoded", url], ["URL-encoded, lower-case hex", url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())]);
  forms.push(["URL-encoded twice", encodeURIComponent(url)]);
  for (const [name, inner] of [
    ["", key],
    [" of its JSON escape", jsonEscaped(key)],
    [" of its URL encoding", url],
  ] as const) {
    for (const alignment of [0, 1, 2]) {
      forms.push([`base64${name}, alignment ${alignment}`, base64Core(inner, alignment, false)]);
      forms.push([`base64url${name}, alignment ${alignment}`, base64Core(inner, alignment, true)]);
    }
  }
  return forms.filter(([, form]) => form.length >= 8);
}

/** The names of the forms of `key` that `text` holds. */
const leaks = (text: string, key: string) => encodedForms(key).flatMap(([name, form]) => (text.includes(form) ? [name] : []));

const PAGE_PATH = `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/${INPUTS.page.pageId}`;
const CONTROL_KEY = "pk_redaction_control_key_01";

describe.each(ODD_KEYS)("a key with %s never shows, in any encoding", (_, key) => {
  let write: (key: string) => string = (text) => text;
  let target: Target;
  /** The proxy for a key the mock does not know (a production key). */
  let unknown: MockServer;
  /** The proxy started with the key itself (the --fallback set-up), so its entries are its tenant's and reach the console's feed. */
  let known: MockServer;
  const lines: AnsweredRequest[] = [];
  let dir: string;
  let recordFile: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "prospectkit-redaction-"));
    recordFile = join(dir, "recorded.json");
    // The target answers the page with the key, written as the test asks, in the fields a recording keeps.
    const deployment = deploymentMock();
    deployment.state.apiKeys.issue({ tenantId: "tenant_a", key });
    target = await startTarget(deployment, (request, response) =>
      response.status === 200 && new URL(request.url).pathname === PAGE_PATH
        ? withBody(response, (body) => ({ ...body, supplementaryContext: write(request.headers.get("x-api-key")!), echo: [write(key)] }))
        : response,
    );
    unknown = await startMockServer({
      port: 0,
      apiKeys: [CONTROL_KEY],
      proxy: { target: target.url, onExchange: createRecording(recordFile).see },
      onRequest: (line) => lines.push(line),
    });
    known = await startMockServer({ port: 0, apiKeys: [key], proxy: { target: target.url } });
  });
  afterAll(async () => {
    await unknown?.close();
    await known?.close();
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = async (server: MockServer) => {
    const headers = { "x-api-key": key, "content-type": "application/json" };
    await (await fetch(`${server.url}${PAGE_PATH}`, { headers })).arrayBuffer();
    const sent = { source: "crm", payload: { note: write(key) }, name: write(key).slice(0, 200) };
    await (await fetch(`${server.url}/v0/prospect_logs`, { method: "POST", headers, body: JSON.stringify(sent) })).arrayBuffer();
  };
  const listed = async (server: MockServer, reader: string) =>
    (await (await fetch(`${server.url}/__mock/requests`, { headers: { "x-api-key": reader } })).json()) as {
      data: (LoggedRequest & ProxyLogFields)[];
    };

  it.each(ENCODINGS)("written %s: not in GET /__mock/requests, the console's feed, the request lines or the recording", async (_, encoding) => {
    write = encoding;
    lines.length = 0;
    await send(unknown);
    const feed = await fetch(`${known.url}${EVENTS_PATH}`, { headers: { "x-api-key": key } });
    const reader = feed.body!.pipeThrough(new TextDecoderStream()).getReader();
    await send(known);
    let frames = "";
    while (parseFrames(frames).events.filter((event) => event.event === "request").length < 2) frames += (await reader.read()).value ?? "";
    await reader.cancel();

    const unknownLog = await listed(unknown, CONTROL_KEY);
    // The bodies did reach the log (so the check below is not vacuous): the page's answer and the create.
    expect(unknownLog.data.slice(-2).map((entry) => [entry.answeredBy, entry.responseBody === undefined])).toEqual([
      ["target", false],
      ["target", false],
    ]);
    const places: Record<string, string> = {
      "GET /__mock/requests, a key the mock does not know": JSON.stringify(unknownLog),
      "GET /__mock/requests, the mock's own key": JSON.stringify(await listed(known, key)),
      "the console's live feed": frames,
      "the request lines": JSON.stringify(lines),
      "the recording": readFileSync(recordFile, "utf8"),
    };
    for (const [place, text] of Object.entries(places)) expect.soft(leaks(text, key), place).toEqual([]);
  });

  it("the mock answering itself: a body holding it in every encoding is logged as [redacted]", async () => {
    const api = createMockApi({ apiKeys: [key] });
    for (const [, encoding] of ENCODINGS) {
      await api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ source: "crm", payload: { note: encoding(key) } }),
      });
    }
    const entries = api.requests.list();
    expect(entries.map((entry) => entry.status)).toEqual(ENCODINGS.map(() => 201));
    for (const [i, [how]] of ENCODINGS.entries()) expect.soft(leaks(JSON.stringify(entries[i]), key), how).toEqual([]);
  });

  it("verify's report (table, JSON, JUnit) against a deployment echoing it in every encoding, each in its own field", async () => {
    const api = deploymentMock();
    api.state.apiKeys.issue({ tenantId: "tenant_a", key });
    const echoing = async (url: string | URL | Request, init?: RequestInit) => {
      const request = new Request(url, init);
      const answer = await api.fetch(request);
      const sent = request.headers.get("x-api-key") ?? "";
      const text = await answer.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return new Response(text, answer);
      }
      if (typeof body !== "object" || body === null || Array.isArray(body)) return new Response(text, answer);
      const echoes = Object.fromEntries(ENCODINGS.map(([how, encoding], i) => [`echo${i}`, `${how}: ${encoding(sent)}`]));
      return new Response(JSON.stringify({ ...body, ...echoes }), { status: answer.status, headers: answer.headers });
    };
    const report = await runVerify({ baseUrl: api.baseUrl, apiKey: key, otherTenantKey: KEYS.b, ...INPUTS, rate: 1000, fetch: echoing });
    expect(report.results.find((result) => result.id === "secrets.key-never-echoed")?.status).toBe("failed");
    for (const [how, text] of [
      ["table", formatReport(report)],
      ["JSON", reportJson(report)],
      ["JUnit", reportJunit(report)],
    ] as const)
      expect.soft(leaks(text, key), how).toEqual([]);
  });
});
