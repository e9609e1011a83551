/**
 * msw for ES modules: loaded with a top-level `await import`, so that a missing msw is one clear
 * error (see message.ts) rather than the bare resolution error of a static import. The CommonJS
 * build uses load.cjs.ts instead (tsup.config.ts picks it), where `require` can be caught.
 * @module
 */
import { mswLoadError } from "./message.js";

let msw: typeof import("msw");
try {
  msw = await import("msw");
} catch (cause) {
  throw mswLoadError(cause);
}

/** msw's `http` request-handler namespace. */
export const http: typeof import("msw").http = msw.http;
/** msw's `HttpResponse`. */
export const HttpResponse: typeof import("msw").HttpResponse = msw.HttpResponse;
