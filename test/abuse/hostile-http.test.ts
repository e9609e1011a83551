/**
 * Hostile requests over real HTTP (issue 7.3): 10,000 property-based requests (the mock's own
 * fast-check arbitraries: wrong types, huge strings, deep nesting, `__proto__` keys, invalid UTF-8,
 * wrong content types, odd paths and headers) through the standalone server, 32 at a time on
 * keep-alive `node:http` connections (fetch would refuse to send some of the hostile headers). Every one is a request the API must reject, and the server must answer
 * each with a 4xx problem (never a 5xx, never a dropped connection) and end with its state
 * byte-for-byte as it began.
 *
 * Which generated requests are rejections is decided by a twin: an in-process mock with the same
 * options and data. A request the twin accepts is not sent (accepting would change the state); the
 * server must then reject all the others, or the run fails. The generator's seed is printed, and
 * `ABUSE_SEED` replays a run.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockApi, type MockApiOptions } from "../../mock/index.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { PROBLEM_CONTENT_TYPE, ProblemDetails } from "../../src/schemas/index.js";
import { BASE_URL, KEYS, seedFixtures, T0 } from "../conformance/fixtures.js";
import { body, headers, method, path } from "../mock/properties/arbitraries.js";
import { createRawSender } from "./support/raw-http.js";

const REQUESTS = 10_000;
const CONCURRENCY = 32;
const SEED = Number(process.env["ABUSE_SEED"] ?? Date.now() % 2 ** 31);

const OPTIONS: Omit<MockApiOptions, "baseUrl"> = {
  apiKeys: { [KEYS.a]: "tenant_a", [KEYS.b]: "tenant_b" },
  seed: 1,
  now: () => T0,
  fixtures: seedFixtures,
};

type Sample = [method: string, path: string, headers: typeof headers extends fc.Arbitrary<infer H> ? H : never, body: BodyInit | undefined];

/** What an HTTP/1.1 client library sends in a header value: tab, visible ASCII, and obs-text bytes (no DEL, no controls). */
const SENDABLE_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The same request for any origin (the twin's or the server's); `undefined` when no HTTP client would send it. */
function build(origin: string, [m, p, h, b]: Sample): Request | undefined {
  const requestHeaders = new Headers();
  try {
    for (const [name, value] of h.extra) requestHeaders.append(name, value);
    if (h.key !== null) requestHeaders.set("x-api-key", h.key);
    if (h.contentType !== null) requestHeaders.set("content-type", h.contentType);
    for (const [, value] of requestHeaders) if (!SENDABLE_VALUE.test(value)) return undefined;
    return new Request(`${origin}${p}`, { method: m, headers: requestHeaders, ...(b !== undefined && m !== "GET" && m !== "HEAD" && { body: b }) });
  } catch {
    return undefined;
  }
}

/** Every request the twin rejects, generated on demand in chunks (never all in memory: some bodies are large). */
async function* rejections(twin: ReturnType<typeof createMockApi>, stats: { generated: number }): AsyncGenerator<Sample> {
  const arbitrary = fc.tuple(method, path, headers, body) as fc.Arbitrary<Sample>;
  for (let chunk = 0; ; chunk++) {
    for (const sample of fc.sample(arbitrary, { numRuns: 256, seed: SEED + chunk })) {
      stats.generated++;
      const request = build(BASE_URL, sample);
      if (request === undefined) continue;
      const response = await twin.fetch(request);
      await response.arrayBuffer();
      if (response.status < 400) {
        twin.reset(); // an accepted request changed the twin: back to the start, and not sent
        continue;
      }
      yield sample;
    }
  }
}

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, ...OPTIONS });
});
afterAll(() => server.close());

describe("hostile requests through the standalone server", () => {
  it(`${REQUESTS.toLocaleString("en")} rejections, ${CONCURRENCY} at a time: each a 4xx problem, the state byte-for-byte unchanged`, async () => {
    const twin = createMockApi({ ...OPTIONS, baseUrl: BASE_URL });
    const stats = { generated: 0 };
    const source = rejections(twin, stats);
    const sender = createRawSender(CONCURRENCY);
    const statuses = new Map<number, number>();
    const wrong: string[] = [];
    const before = server.api.state.snapshot();
    const started = performance.now();

    let sent = 0;
    const worker = async () => {
      while (sent < REQUESTS) {
        sent++;
        const sample = (await source.next()).value as Sample;
        const request = build(server.url, sample)!;
        const label = `${sample[0]} ${sample[1].slice(0, 80)}`;
        try {
          const response = await sender.send(request);
          const contentType = response.headers["content-type"];
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status < 400 || response.status >= 500) wrong.push(`${label}: status ${response.status}`);
          else if (!/^req_[0-9a-z]{26}$/.test(String(response.headers["x-request-id"]))) wrong.push(`${label}: no x-request-id`);
          else if (request.method !== "HEAD") {
            if (contentType !== PROBLEM_CONTENT_TYPE) wrong.push(`${label}: content-type ${String(contentType)}`);
            else if (!ProblemDetails.safeParse(JSON.parse(response.text)).success) wrong.push(`${label}: not a problem body`);
          }
        } catch (error) {
          wrong.push(`${label}: ${String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker)).finally(() => sender.close());
    const seconds = (performance.now() - started) / 1000;
    console.info(
      `hostile-http: ${sent} rejections over HTTP in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)}/s; ${stats.generated} generated, seed ${SEED}); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );

    expect(wrong.slice(0, 10), `seed ${SEED}`).toEqual([]);
    expect(server.api.state.snapshot(), `seed ${SEED}`).toBe(before);
    expect(server.api.requests.size).toBe(REQUESTS); // the mock itself answered every one
    // The generators reach every kind of rejection, so the property was tested where it matters.
    for (const status of [400, 401, 404, 405, 415]) expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
  }, 300_000); // 10,000 requests: CPU-bound; on a loaded 2-core machine beside the cli project's other files, over 120 s
});
