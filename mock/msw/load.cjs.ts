/**
 * msw for CommonJS (the build's `require` flavour of load.ts): a missing msw is one clear error.
 * @module
 */
import { mswLoadError } from "./message.js";

let msw: typeof import("msw");
try {
  msw = require("msw") as typeof import("msw");
} catch (cause) {
  throw mswLoadError(cause);
}

/** msw's `http` request-handler namespace. */
export const http: typeof import("msw").http = msw.http;
/** msw's `HttpResponse`. */
export const HttpResponse: typeof import("msw").HttpResponse = msw.HttpResponse;
