/**
 * prospectkit/mock: the reference implementation of the API on in-memory state.
 * @module prospectkit/mock
 */
export { WEBHOOK_EVENT_KINDS } from "../src/schemas/index.js";
