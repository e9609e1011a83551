/**
 * Request IDs for answers the mock's pipeline does not give (the control API, the OpenAPI
 * document, requests the server refuses before they reach the mock): the same `req_` + lower-case
 * ULID form as the API's, so every response's `x-request-id` looks alike.
 * @module
 */
import { ulid } from "ulid";
import { type Reply, toResponse } from "../http/reply.js";

/** A new request ID, `req_` + a lower-case ULID. */
export function newRequestId(): string {
  return `req_${ulid().toLowerCase()}`;
}

/**
 * A problem answer with a new request ID.
 * @param build - makes the reply for the ID (see `problem`)
 * @returns the response, with `x-request-id`
 */
export function problemResponse(build: (requestId: string) => Reply): Response {
  const requestId = newRequestId();
  return toResponse(build(requestId), requestId);
}
