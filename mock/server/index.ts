/**
 * prospectkit/mock/server: the mock as a standalone HTTP server on `node:http` (Node only), with
 * a control API under `/__mock` and its OpenAPI documents at `/openapi.json` (the API) and `/__mock/openapi.json` (the control API). It exports what
 * docs/server.md describes, and nothing else (test/package/exports.test.ts pins the list).
 * @module prospectkit/mock/server
 */

export type { SourceFault } from "../testing/source.js";
export type { AnsweredRequest } from "./answered.js";
export { type MockServerClient, mockServer } from "./client.js";
export type { ServerWebhookOptions } from "./delivery.js";
export type { ProxyOptions, SeenExchange } from "./proxy.js";
export { type MockServer, type MockServerOptions, startMockServer } from "./start.js";
export { StateFileError } from "./state-file/error.js";
