/**
 * The two OpenAPI documents as entries of the route table: `GET /openapi.json` (the API, as a
 * real deployment would publish it) and `GET /__mock/openapi.json` (the control API). No key:
 * a generator or a fuzzer reads them before it has one. Each is rendered once, on first request.
 * @module
 */
import type * as z from "zod/mini";
import type { OperationRow } from "../../src/operation-row.js";
import type { Route } from "../pipeline/route.js";
import { CONTROL_DOCUMENT_PATH, createControlOpenApiDocument, createOpenApiDocument } from "./document.js";

/** The path of the API's OpenAPI document. */
export const OPENAPI_PATH = "/openapi.json";

function documentRoute(path: string, summary: string, build: (serverUrl: string) => Record<string, unknown>, serverUrl: string): Route {
  let text: string | undefined;
  return {
    method: "GET",
    path,
    summary,
    area: "document",
    public: true,
    run: () => ({ status: 200, text: (text ??= JSON.stringify(build(serverUrl))), headers: { "content-type": "application/json" } }),
  };
}

/**
 * The document routes.
 * @param serverUrl - the server the documents name (the mock's base URL)
 * @param rows - the operations the API's document describes: the mock's
 * @param logFields - the fields adapters attach to a log entry, for the control document
 */
export function documentRoutes(serverUrl: string, rows: readonly OperationRow[], logFields?: z.ZodMiniObject): Route[] {
  return [
    documentRoute(
      OPENAPI_PATH,
      "The API's OpenAPI 3.1 document (what a real deployment publishes)",
      (url) => createOpenApiDocument(url, rows),
      serverUrl,
    ),
    documentRoute(
      CONTROL_DOCUMENT_PATH,
      "The control API's OpenAPI 3.1 document (every route under /__mock)",
      (url) => createControlOpenApiDocument(url, logFields),
      serverUrl,
    ),
  ];
}
