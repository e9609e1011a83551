/**
 * What the standalone server serves, as one web-standard handler (no `node:` import, so it runs
 * wherever a `Request` does): `GET /openapi.json` and `GET /__mock/openapi.json`, the console at `/__mock/console` (a browser's
 * `GET /` is sent there), the control API under `/__mock` (with the built-in webhook inbox), and
 * the API itself from the mock's `api.handle`.
 * @module
 */

import { API_PREFIX } from "../../src/operations.js";
import { type Clock, readClock } from "../clock.js";
import { createConsole, isConsoleRequest } from "../console/handler.js";
import { CONTROL_PATH_PREFIX, createMockControl } from "../control/handler.js";
import { createInbox } from "../control/inbox.js";
import type { MockApi, MockOutcome } from "../core.js";
import { coreOf } from "../create-mock-api.js";
import type { LightOutcome, LightRequest } from "../http/light.js";
import type { MaybePromise } from "../http/maybe-async.js";
import { forMethod, methodOf } from "../http/method.js";
import { problem, toResponse } from "../http/reply.js";
import { CONTROL_DOCUMENT_PATH, createControlOpenApiDocument, createOpenApiDocument } from "../openapi/document.js";

/** The path of the OpenAPI document. */
export const OPENAPI_PATH = "/openapi.json";

/** The server's handler and the mock behind it. */
export interface ServerApp {
  /** Answers one request (never rejects). */
  handle(request: Request): Promise<MockOutcome>;
  /**
   * The lean path of an API request (a path under `/v0`): straight to the mock's pipeline, on a
   * light request, with no fetch `Request` or `Response` built. `null` for every other path (the
   * document, the control API, anything else), which the caller sends through {@link ServerApp.handle}.
   */
  answer(request: LightRequest): MaybePromise<LightOutcome> | null;
  /** The mock behind it. */
  readonly api: MockApi;
}

/** How the handler is built. */
export interface ServerAppOptions {
  /** Every API request is answered this many milliseconds late (0: none). */
  readonly latencyMs?: number;
  /** The server URL the OpenAPI document names (default: the origin of the request for it). */
  readonly serverUrl?: string;
  /** How many answered requests `api.requests` and `/__mock/requests` keep (default: the mock's `retainedRequests`). */
  readonly retainedRequests?: number;
  /** The mock's clock (the inbox stamps what it receives with it; default: the system clock). */
  readonly now?: Clock;
}

/** The path of a request URL (without decoding), read without building a `URL`. */
function urlPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const end = url.indexOf("?", start);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}

async function document(text: string, method: string, requestId: string): Promise<MockOutcome> {
  const headers = { "content-type": "application/json", "x-request-id": requestId };
  return { kind: "response", response: await forMethod(method, new Response(text, { headers })) };
}

/** The 405 of a method other than GET or HEAD on the document. */
function documentMethodNotAllowed(requestId: string): MockOutcome {
  const reply = problem(requestId, "method_not_allowed", "The OpenAPI document is read with GET.", { headers: { allow: "GET, HEAD" } });
  return { kind: "response", response: toResponse(reply, requestId) };
}

/** Whether a path is the API's (what the mock's pipeline answers on the server: its base path is the host root). */
function isApiPath(path: string): boolean {
  return path.startsWith(API_PREFIX) && (path.length === API_PREFIX.length || path[API_PREFIX.length] === "/");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds the server's handler around a mock.
 * @param core - the mock (created by the caller with the same `apiKeys`)
 * @param options - the key list and a base latency
 * @returns the handler, and the mock with a reset that also clears the control API's records
 * @throws Nothing when building; errors while answering become problem+json responses.
 * @example
 * ```ts
 * import { createServerApp } from "prospectkit/mock/server";
 * import { createMockApi } from "prospectkit/mock/core";
 *
 * const app = createServerApp(createMockApi({ apiKeys: ["mock_api_key"] }));
 * const outcome = await app.handle(new Request("http://127.0.0.1:4010/openapi.json"));
 * // startMockServer puts this behind node:http, with CORS, body limits and a request log
 * ```
 */
export function createServerApp(core: MockApi, options: ServerAppOptions = {}): ServerApp {
  const { latencyMs = 0 } = options;
  const internals = coreOf(core);
  if (options.retainedRequests !== undefined) internals.retainRequests(options.retainedRequests);
  const clock = options.now;
  const inbox = createInbox(core, () => new Date(clock === undefined ? Date.now() : readClock(clock)));
  // A reset, from the control API or from Node (`server.api.reset()`), also empties the inbox.
  const resetCore = core.reset;
  core.reset = () => {
    resetCore();
    inbox.clear();
  };
  const control = createMockControl({ api: core, inbox });
  const consoleHandler = createConsole({ api: core });
  const { serverUrl } = options;
  const documents = new Map<string, string>();
  const documentText = (path: string, origin: string) => {
    let text = documents.get(path);
    if (text === undefined) {
      const build = path === OPENAPI_PATH ? createOpenApiDocument : createControlOpenApiDocument;
      text = JSON.stringify(build(serverUrl ?? origin));
      documents.set(path, text);
    }
    return text;
  };

  // The hot path: straight to the mock unless there is a latency to add.
  const late = <I, R>(run: (input: I) => R): ((input: I) => R | Promise<Awaited<R>>) =>
    latencyMs === 0
      ? run
      : async (input): Promise<Awaited<R>> => {
          await sleep(latencyMs);
          return await run(input);
        };
  const handleApi = late(core.handle);
  const answerApi = late(internals.answer);

  return {
    api: core,
    answer: (request) => (isApiPath(request.path) ? answerApi(request) : null),
    handle(request) {
      const path = urlPath(request.url);
      if (path === OPENAPI_PATH || path === CONTROL_DOCUMENT_PATH) {
        const method = methodOf(request);
        if (method !== "GET" && method !== "HEAD") return Promise.resolve(documentMethodNotAllowed(internals.newRequestId()));
        return document(documentText(path, new URL(request.url).origin), method, internals.newRequestId());
      }
      if (isConsoleRequest(path, request)) return Promise.resolve({ kind: "response", response: consoleHandler(request, path) });
      if (path === CONTROL_PATH_PREFIX || path.startsWith(`${CONTROL_PATH_PREFIX}/`)) {
        return control(request).then((response): MockOutcome => ({ kind: "response", response }));
      }
      return handleApi(request);
    },
  };
}
