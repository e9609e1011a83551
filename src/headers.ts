/**
 * The API's header names, each written once, in the lower case `Headers` uses. The SDK and the
 * mock both read them from here.
 * @module
 */

/** The request header that carries the API key (spec 5). */
export const API_KEY_HEADER = "x-api-key";

/** The response header that carries the request ID (BEHAVIOUR: on every response). */
export const REQUEST_ID_HEADER = "x-request-id";

/** The response header set on an answer replayed for a repeated idempotency key. */
export const REPLAYED_HEADER = "idempotent-replayed";

/**
 * The characters of an API key, for the SDK and the mock alike: visible ASCII characters only, since an
 * HTTP header cannot carry anything else unchanged (surrounding spaces are trimmed by every client).
 */
export const API_KEY_CHARACTERS = "[\\x21-\\x7e]";

/** An API key as the SDK accepts it: one or more {@link API_KEY_CHARACTERS}. */
export const API_KEY_PATTERN = /* @__PURE__ */ new RegExp(`^${API_KEY_CHARACTERS}+$`);
