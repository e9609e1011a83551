/**
 * What `prospectkit/mock` says when msw is not installed: one error naming both ways out, instead
 * of the module system's bare "cannot find package 'msw'".
 * @module
 */

/** The message of the error thrown when `prospectkit/mock` is loaded without msw. */
export const MSW_MISSING_MESSAGE =
  "prospectkit/mock needs msw, an optional peer dependency that is not installed: run `npm install --save-dev msw`, " +
  "or import prospectkit/mock/core (the same mock as api.fetch, without MSW handlers).";

/**
 * The error to throw for a failed load of msw: the clear one when msw itself could not be found,
 * else the original (msw failed while loading).
 * @param cause - what loading msw threw
 */
export function mswLoadError(cause: unknown): unknown {
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  const missing = (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && typeof message === "string" && /['"]msw['"/]/.test(message);
  return missing ? Object.assign(new Error(MSW_MISSING_MESSAGE, { cause }), { code: "ERR_MODULE_NOT_FOUND" }) : cause;
}
