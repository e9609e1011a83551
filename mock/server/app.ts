/**
 * What the standalone server serves, as one web-standard handler (no `node:` import, so it runs
 * wherever a `Request` does): `GET /openapi.json`, the control API under `/__mock`, and the API
 * itself from the mock's `api.handle`.
 * @module
 */
import type { MockApi, MockApiOptions, MockOutcome } from "../core.js";
import { CONTROL_PATH_PREFIX, createMockControl } from "../control/handler.js";
import { createKeyDirectory } from "../control/keys.js";
import { problemResponse } from "../control/request-id.js";
import { forMethod, methodOf } from "../http/method.js";
import { problem } from "../http/reply.js";
import { createRequestOwners } from "../control/request-owners.js";
import { CONTROL_DOCUMENT_PATH, createControlOpenApiDocument, createOpenApiDocument } from "../openapi/document.js";
import { newRequestId } from "../control/request-id.js";
import { createRetainedLog, DEFAULT_RETAINED_REQUESTS } from "./retained-log.js";

/** The path of the OpenAPI document. */
export const OPENAPI_PATH = "/openapi.json";

/** The server's handler and the mock behind it. */
export interface ServerApp {
  /** Answers one request (never rejects). */
  handle(request: Request): Promise<MockOutcome>;
  /** The mock; its `reset()` also forgets what the control API keeps about past requests. */
  readonly api: MockApi;
}

/** How the handler is built. */
export interface ServerAppOptions {
  /** The `apiKeys` the mock was created with (the control API's key directory). */
  readonly apiKeys?: MockApiOptions["apiKeys"];
  /** Every API request is answered this many milliseconds late (0: none). */
  readonly latencyMs?: number;
  /** The server URL the OpenAPI document names (default: the origin of the request for it). */
  readonly serverUrl?: string;
  /** How many answered requests `api.requests` and `/__mock/requests` keep (default 10,000). */
  readonly retainedRequests?: number;
}

/** The path of a request URL (without decoding), read without building a `URL`. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const end = url.indexOf("?", start);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}

async function document(text: string, method: string): Promise<MockOutcome> {
  const headers = { "content-type": "application/json", "x-request-id": newRequestId() };
  return { kind: "response", response: await forMethod(method, new Response(text, { headers })) };
}

/** The 405 of a method other than GET or HEAD on the document. */
function documentMethodNotAllowed(): MockOutcome {
  const response = problemResponse((id) =>
    problem(id, "method_not_allowed", "The OpenAPI document is read with GET.", { headers: { allow: "GET, HEAD" } }),
  );
  return { kind: "response", response };
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
  const tenantOf = createKeyDirectory(core, options.apiKeys);
  const retained = createRetainedLog(core.requests, options.retainedRequests ?? DEFAULT_RETAINED_REQUESTS, (dropped) => owners.forget(dropped));
  const api: MockApi = {
    ...core,
    requests: retained.log,
    reset() {
      core.reset();
      retained.log.clear();
      owners.clear();
    },
  };
  const owners = createRequestOwners(api, tenantOf);
  const control = createMockControl({ api, tenantOf, owners, reset: api.reset });
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

  // The hot path: straight to the mock unless there is a latency to add or an owner to note.
  const handleApi =
    latencyMs === 0 && !tenantOf.multiTenant
      ? (request: Request) => (retained.rotate(), core.handle(request))
      : async (request: Request): Promise<MockOutcome> => {
          if (latencyMs > 0) await sleep(latencyMs);
          retained.rotate();
          const outcome = await core.handle(request);
          owners.track(request, outcome);
          return outcome;
        };

  return {
    api,
    handle(request) {
      const path = pathOf(request.url);
      if (path === OPENAPI_PATH || path === CONTROL_DOCUMENT_PATH) {
        const method = methodOf(request);
        if (method !== "GET" && method !== "HEAD") return Promise.resolve(documentMethodNotAllowed());
        return document(documentText(path, new URL(request.url).origin), method);
      }
      if (path === CONTROL_PATH_PREFIX || path.startsWith(`${CONTROL_PATH_PREFIX}/`)) {
        return control(request).then((response): MockOutcome => ({ kind: "response", response }));
      }
      return handleApi(request);
    },
  };
}
