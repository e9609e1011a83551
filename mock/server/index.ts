/**
 * prospectkit/mock/server: the mock as a standalone HTTP server on `node:http` (Node only), with
 * a control API under `/__mock` and its OpenAPI documents at `/openapi.json` (the API) and `/__mock/openapi.json` (the control API).
 * @module prospectkit/mock/server
 */
export { createServerApp, OPENAPI_PATH, type ServerApp, type ServerAppOptions } from "./app.js";
export { ALLOWED_HEADERS, ALLOWED_METHODS, EXPOSED_HEADERS } from "./cors.js";
export type { AnsweredRequest } from "./node-handler.js";
export { DEFAULT_HOST, DEFAULT_PORT, KEEP_ALIVE_TIMEOUT_MS, type MockServer, type MockServerOptions, startMockServer } from "./start.js";
export { CONTROL_PATH_PREFIX } from "../control/handler.js";
export {
  CONTROL_DOCUMENT_PATH,
  createControlOpenApiDocument,
  createOpenApiDocument,
  DEFAULT_DOCUMENT_SERVER,
  TAGS as OPENAPI_TAGS,
} from "../openapi/document.js";
