/**
 * Early answers reach the client: the `prospectkit-mock` binary answers some requests before it
 * has read their body (no key, a media type it refuses, a body over 1 MiB, a route that takes no
 * body), and a client still sending that body reads the answer instead of failing with `EPIPE`
 * (RFC 9112, section 9.6: the server closes in stages, reading and discarding the rest of the body
 * up to 16 MiB or 5 s). A client that sends far more is cut off, and the server's memory stays flat.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_API_KEY } from "../../mock/index.js";
import { LINGER_MAX_BYTES } from "../../mock/server/linger.js";
import { APIError, AuthenticationError, createClient, type ProspectKitError } from "../../src/index.js";
import { type CliProcess, startCli } from "./support/cli-process.js";
import { bodyOf, statusOf, upload } from "./support/raw-upload.js";

const MiB = 1024 * 1024;
/** How many times each client sends each request. */
const TIMES = 100;
/** How many of those are under way at once (an application under load; a lone call hides the race less often). */
const AT_ONCE = 4;

/** Runs `call` `times` times, `width` at a time. */
async function repeat(times: number, width: number, call: () => Promise<void>): Promise<void> {
  let started = 0;
  const lane = async () => {
    while (started < times) {
      started++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
}

let cli: CliProcess;
beforeAll(async () => {
  cli = await startCli(["--port", "0", "--quiet"]);
});
afterAll(() => cli.stop("SIGKILL"));

/** A 2 MiB `createProspectLog` body: twice the cap. */
const TWO_MIB_LOG = { source: "crm", payload: { blob: "x".repeat(2 * MiB) } };

/** The three refusals the issue measured, each decided before the body is read. */
const REFUSALS = [
  { name: "no key", key: null, contentType: "application/json", status: 401, code: "missing_api_key", raises: AuthenticationError },
  { name: "text/plain", key: DEFAULT_API_KEY, contentType: "text/plain", status: 415, code: "unsupported_media_type", raises: APIError },
  { name: "JSON over 1 MiB", key: DEFAULT_API_KEY, contentType: "application/json", status: 413, code: "payload_too_large", raises: APIError },
] as const;

/** What a run of calls came to: each status or error code, and how many times. */
type Tally = Record<string, number>;

function count(tally: Tally, outcome: string | number): void {
  tally[outcome] = (tally[outcome] ?? 0) + 1;
}

/** The code of a failed fetch (undici puts the socket's error in `cause`). */
function failureCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; cause?: { code?: string } } }).cause;
  return cause?.code ?? cause?.cause?.code ?? String(error);
}

describe("2 MiB refused before it is read: every call reads its problem", () => {
  it.each(REFUSALS)(`Node's fetch, ${TIMES} times (${AT_ONCE} at once): $name gets $status $code`, async ({ key, contentType, status, code }) => {
    const body = JSON.stringify(TWO_MIB_LOG);
    const tally: Tally = {};
    const codes = new Set<unknown>();
    await repeat(TIMES, AT_ONCE, async () => {
      try {
        const response = await fetch(`${cli.url}/v0/prospect_logs`, {
          method: "POST",
          headers: { "content-type": contentType, ...(key !== null && { "x-api-key": key }) },
          body,
        });
        count(tally, response.status);
        codes.add(((await response.json()) as { code?: unknown }).code);
      } catch (error) {
        count(tally, failureCode(error));
      }
    });
    expect(tally).toEqual({ [status]: TIMES });
    expect([...codes]).toEqual([code]);
  });

  it.each(REFUSALS)(
    `the SDK, ${TIMES} times (${AT_ONCE} at once): $name raises $raises.name on the first attempt`,
    async ({ key, contentType, status, code, raises }) => {
      let attempts = 0;
      const client = createClient({
        baseUrl: cli.url,
        // The SDK always sends its key and JSON: the refusal is made by a fetch that changes the request.
        apiKey: key ?? "unused_key",
        fetch: (input, init) => {
          const headers = new Headers(init?.headers);
          if (key === null) headers.delete("x-api-key");
          headers.set("content-type", contentType);
          return fetch(input, { ...init, headers });
        },
        onRequest: () => void attempts++,
      });
      const tally: Tally = {};
      await repeat(TIMES, AT_ONCE, async () => {
        const error = (await client.createProspectLog(TWO_MIB_LOG).catch((failure: unknown) => failure)) as ProspectKitError;
        // Its exact class (an AuthenticationError is an APIError too), status, code, and how many attempts it took.
        const raised = error.constructor.name;
        count(tally, APIError.is(error) ? `${raised} ${error.status} ${error.code}, attempts: ${error.attempts}` : `${raised}: ${error.message}`);
      });
      expect(tally).toEqual({ [`${raises.name} ${status} ${code}, attempts: 1`]: TIMES });
      expect(attempts).toBe(TIMES);
    },
  );
});

describe("a client that writes its whole body before it reads gets the early answer, then the close", () => {
  // 2 MiB in 64 KiB writes, 2 ms apart: the client is still writing well after the answer left.
  const slowly = { size: 2 * MiB, chunk: 64 * 1024, pauseMs: 2 };

  const json = "content-type: application/json";
  const key = `x-api-key: ${DEFAULT_API_KEY}`;
  it.each<readonly [label: string, requestLine: string, status: number, headers: readonly string[]]>([
    ...REFUSALS.map(
      (refusal) =>
        [
          `the API, ${refusal.name}`,
          "POST /v0/prospect_logs",
          refusal.status,
          [`content-type: ${refusal.contentType}`, ...(refusal.key === null ? [] : [`x-api-key: ${refusal.key}`])],
        ] as const,
    ),
    ["the API, an unknown path", "POST /v0/nothing", 404, [json, key]],
    ["the control API", "POST /__mock/page_groups", 413, [json, key]],
    ["the inbox (413, like every route with a body over 1 MiB)", "POST /__mock/inbox/slow", 413, [json]],
    ["the console", "POST /__mock/console", 405, [json]],
    ["the OpenAPI document", "POST /openapi.json", 405, [json]],
    ["a Host the server does not answer", "POST /v0/prospect_logs", 403, [json, key, "host: rebound.example"]],
    ["a control route called from a foreign page", "POST /__mock/reset", 403, [json, key, "origin: https://evil.example"]],
    // Answered by hand on the socket: node:http's parser refuses these, or hands the socket over.
    ["a method node:http does not know", "FOO /v0/prospect_logs", 401, [json]],
    ["CONNECT", "CONNECT /v0/prospect_logs", 401, [json]],
    ["a header value node:http refuses", "POST /v0/prospect_logs", 400, [json, key, "x-note: a\u0001b"]],
  ])("%s: %s answers %i", async (_, line, status, headers) => {
    const result = await upload(cli.url, { head: [`${line} HTTP/1.1`, ...headers], ...slowly });
    expect(result).toMatchObject({ error: undefined, written: 2 * MiB, closed: true });
    expect(statusOf(result.received)).toBe(status);
    expect(result.received.toLowerCase()).toContain("\r\nconnection: close\r\n");
    expect(bodyOf(result.received)).toMatchObject({ status });
  });

  it("a CORS preflight that carries a body: 204", async () => {
    const head = ["OPTIONS /v0/prospect_logs HTTP/1.1", "origin: http://localhost:5173", "access-control-request-method: POST"];
    const result = await upload(cli.url, { head, ...slowly });
    expect(result).toMatchObject({ error: undefined, written: 2 * MiB, closed: true });
    expect(statusOf(result.received)).toBe(204);
    expect(result.received.toLowerCase()).toContain("\r\nconnection: close\r\n");
  });
});

/** The server's resident memory, in bytes (Linux: /proc; elsewhere the test cannot measure it and fails). */
function rssOf(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kib) * 1024;
}

describe("bounds: the rest of a body is discarded up to 16 MiB, never kept", () => {
  const head = ["POST /v0/prospect_logs HTTP/1.1", "content-type: application/json", `x-api-key: ${DEFAULT_API_KEY}`];
  /** Four clients at once, each sending 64 MiB. */
  const fourAtOnce = () => Promise.all(Array.from({ length: 4 }, () => upload(cli.url, { head, size: 64 * MiB, chunk: MiB })));

  it("clients sending 64 MiB read their 413 and are cut off past the bound, and the server's memory does not grow with what they sent", async () => {
    // A first round warms the server up (its buffers, the JIT, the heap it settles on): what is
    // measured is what the next rounds add.
    await fourAtOnce();
    const before = rssOf(cli.child.pid!);
    const rounds = [await fourAtOnce(), await fourAtOnce(), await fourAtOnce()];
    const after = rssOf(cli.child.pid!);
    for (const result of rounds.flat()) {
      expect(statusOf(result.received)).toBe(413);
      expect(result.closed).toBe(true);
      expect(result.error).toMatch(/^(EPIPE|ECONNRESET)$/);
      // Cut off: at least the bound the server read (`written` counts the 1 MiB writes the socket
      // confirmed), at most that plus what the two kernels' socket buffers took meanwhile.
      expect(result.written).toBeGreaterThanOrEqual(LINGER_MAX_BYTES);
      expect(result.written).toBeLessThan(64 * MiB);
    }
    // 768 MiB offered, about 192 MiB of it read and discarded: kept, it would show as far more.
    expect(after - before).toBeLessThan(64 * MiB);
    // Four rounds, each held open 2 s past the bound (LINGER_CUTOFF_MS) so the clients read their answers.
  }, 60_000);

  it.each([
    ["a method node:http does not know", ["FOO /v0/prospect_logs HTTP/1.1"], 401],
    ["CONNECT", ["CONNECT /v0/prospect_logs HTTP/1.1"], 401],
    ["a header value node:http refuses", ["POST /v0/prospect_logs HTTP/1.1", "x-note: a\u0001b"], 400],
  ])("answered by hand on the socket, %s: 64 MiB is cut off past the bound too", async (_, lines, status) => {
    const result = await upload(cli.url, { head: lines, size: 64 * MiB, chunk: MiB });
    expect(statusOf(result.received)).toBe(status);
    expect(result.error).toMatch(/^(EPIPE|ECONNRESET)$/);
    expect(result.written).toBeGreaterThanOrEqual(LINGER_MAX_BYTES);
    expect(result.written).toBeLessThan(64 * MiB);
  });
});
