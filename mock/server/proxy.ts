/**
 * The validating proxy (`prospectkit-mock --proxy-to URL`): the API's routes with a different
 * `run`, in front of the mock's own in the one route table, so the handler's `Host`/`Origin`
 * checks, CORS, the request log and the CLI lines apply as to every request. Each request is
 * forwarded to the target with the caller's `x-api-key` (never logged or stored: the log keeps
 * bodies with the key taken out), and each request and answer is checked against the API's
 * schemas by the same check `verify` uses (mock/verify/exchange.ts); what they break is logged as
 * the entry's `violations`. The entry's `requestId` is the target's `x-request-id` (what the client
 * received), the proxy's own beside it; a body longer than the log keeps is kept as a prefix with
 * its full size, so the log's memory stays bounded whatever flows through. With `fallback`, a
 * target that does not answer (refused, timed out) or has no such route (a 404 that is not a
 * problem body) is answered by the mock, marked as such.
 * @module
 */
import { API_KEY_HEADER, REQUEST_ID_HEADER } from "../../src/headers.js";
import { OPERATION_TABLE, type OperationId } from "../../src/operation-table.js";
import { createRedactor } from "../../src/redact.js";
import { PROBLEM_CONTENT_TYPE } from "../../src/schemas/index.js";
import type { MockCore } from "../create-mock-api.js";
import { operationRoute } from "../operations/index.js";
import { problem, type Reply } from "../pipeline/reply.js";
import type { MockRequest } from "../pipeline/request.js";
import { loggedBody } from "../pipeline/request-log.js";
import type { Route } from "../pipeline/route.js";
import { answerViolations, requestViolations } from "../verify/exchange.js";

/** One exchange the proxy saw, with every key taken out (what `--record` keeps). */
export interface SeenExchange {
  readonly operation: OperationId;
  readonly status: number;
  readonly requestBody: unknown;
  readonly responseBody: unknown;
}

/** How the proxy works. */
export interface ProxyOptions {
  /** The deployment to forward to (its base URL, without `/v0`). */
  readonly target: string;
  /** Answer from the mock when the target does not answer or has no such route. */
  readonly fallback?: boolean;
  /** Sees each exchange the target answered (the recording). */
  readonly onExchange?: (exchange: SeenExchange) => void;
  /** Each forwarded request gives up after this many milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Sends the forwarded requests (default the global `fetch`). */
  readonly fetch?: typeof fetch;
}

/** The request headers forwarded: what the API reads, nothing of the caller's browser (cookies, origin, referer). */
const FORWARDED = [API_KEY_HEADER, "content-type", "content-encoding", "accept", "accept-language", "user-agent"];

/** The answer headers not passed back: the connection's own, and what the proxy's rendering sets again. */
const DROPPED = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "set-cookie", "upgrade", "trailer"]);

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The body of an answer as bytes, each chunk copied into one buffer as it arrives (sized by the
 * answer's `content-length`, else grown by doubling): no network chunk is held once copied, so a
 * 50 MiB answer never has its 50 MiB of read buffers alive at once, memory a process's allocator
 * would keep afterwards (the proxy's resident memory would grow with every large answer).
 */
async function readBytes(response: Response): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array();
  const declared = Number(response.headers.get("content-length"));
  let buffer = new Uint8Array(Number.isSafeInteger(declared) && declared > 0 ? declared : 64 * 1024);
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (size + chunk.length > buffer.length) {
      const grown = new Uint8Array(Math.max(buffer.length * 2, size + chunk.length));
      grown.set(buffer.subarray(0, size));
      buffer = grown;
    }
    buffer.set(chunk, size);
    size += chunk.length;
  }
  return buffer.subarray(0, size);
}

/** A target that has no such route: a 404 that is not the API's problem body (a gateway's or a framework's "Cannot GET"). */
const isMissingRoute = (status: number, headers: Headers) =>
  status === 404 && headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() !== PROBLEM_CONTENT_TYPE;

/**
 * The proxy's routes: one per operation of the API, each forwarding to the target.
 * @param core - the mock's core (its handler answers a fallback)
 * @param options - the target, the fallback, the recording
 * @returns the routes, to put in front of the API's own
 */
export function proxyRoutes(core: MockCore, options: ProxyOptions): Route[] {
  const { target, fallback = false, onExchange, timeoutMs = 30_000 } = options;
  const send = options.fetch ?? fetch;
  const base = target.replace(/\/+$/, "");
  let mock: ReturnType<MockCore["createHandler"]> | undefined;

  /** The mock's own answer, logged by its handler (marked as the mock's), not again by the proxy's. */
  async function answerFromMock(request: MockRequest, bytes: Uint8Array | undefined): Promise<Reply | null> {
    mock ??= core.createHandler({ answeredBy: "mock" });
    const response = await mock({ ...request, body: () => Promise.resolve(bytes ?? new Uint8Array()) });
    if (response === null) return null;
    const text = typeof response.body === "string" ? response.body : "";
    return { status: response.status, text, headers: response.headers, log: { omit: true, answeredBy: "mock" } };
  }

  return OPERATION_TABLE.map(
    (row): Route => ({
      ...operationRoute(row),
      // The target checks the key: the mock's own keys have nothing to say here.
      public: true,
      body: "raw",
      async run({ request, requestId, body }) {
        const bytes = body instanceof Uint8Array ? body : undefined;
        const key = request.headers.get(API_KEY_HEADER);
        const redactor = key === null ? undefined : createRedactor(key);
        const clean = <T>(value: T): T => (redactor === undefined ? value : redactor.json(value));
        const requestText = bytes === undefined ? "" : new TextDecoder().decode(bytes);
        const requestBody = parseJson(requestText);
        const headers = new Headers();
        for (const name of FORWARDED) {
          const value = request.headers.get(name);
          if (value !== null) headers.set(name, value);
        }
        let response: Response;
        let received: Uint8Array;
        try {
          response = await send(`${base}${request.path}${request.query === "" ? "" : `?${request.query}`}`, {
            method: request.method,
            headers,
            ...(bytes !== undefined && request.method !== "GET" && request.method !== "HEAD" && { body: bytes as Uint8Array<ArrayBuffer> }),
            redirect: "manual",
            signal: AbortSignal.timeout(timeoutMs),
          });
          received = await readBytes(response);
        } catch (error) {
          if (fallback) return answerFromMock(request, bytes);
          const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
          return problem(requestId, "target_unreachable", `The proxy target ${base} did not answer (${cause}).`);
        }
        if (fallback && isMissingRoute(response.status, response.headers)) return answerFromMock(request, bytes);
        const text = new TextDecoder().decode(received);
        const responseBody = parseJson(text);
        const violations = [
          ...(row.method === "GET" ? [] : requestViolations(row.name, requestBody)),
          ...answerViolations(row.name, { status: response.status, headers: response.headers, body: responseBody }, requestBody),
          ...(redactor?.holds(text) ? ["the answer carries the API key sent"] : []),
        ];
        onExchange?.({ operation: row.name, status: response.status, requestBody: clean(requestBody), responseBody: clean(responseBody) });
        const passed: Record<string, string> = {};
        for (const [name, value] of response.headers) if (!DROPPED.has(name)) passed[name] = value;
        const sent = loggedBody(requestText, requestBody);
        const answered = loggedBody(text, responseBody);
        const seenId = response.headers.get(REQUEST_ID_HEADER);
        // The bytes as the target sent them, passed on as they are (never encoded again from the text).
        passed["content-length"] = String(received.length);
        return {
          status: response.status,
          stream: new ReadableStream<Uint8Array>({
            start(controller) {
              if (received.length > 0) controller.enqueue(received);
              controller.close();
            },
          }),
          headers: passed,
          log: {
            requestBody: clean(sent.body),
            responseBody: clean(answered.body),
            violations,
            answeredBy: "target",
            ...(seenId !== null && { requestId: seenId }),
            ...((sent.size !== undefined || answered.size !== undefined) && {
              truncated: {
                ...(sent.size !== undefined && { requestBody: sent.size }),
                ...(answered.size !== undefined && { responseBody: answered.size }),
              },
            }),
          },
        };
      },
    }),
  );
}
