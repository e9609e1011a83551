/**
 * Request methods, as the mock routes them. Every method token gets an answer (401 first, then
 * 405 with `Allow` on a known path), `HEAD` is served wherever `GET` is and answers like it without
 * a body (RFC 9110, 9.3.2), and the methods fetch's `Request` refuses to carry (`CONNECT`,
 * `TRACE`, `TRACK`) can still reach the pipeline: an adapter that received one builds a stand-in
 * `Request` and names the real method with {@link withMethod}.
 * @module
 */

/** Where {@link withMethod} keeps the real method (a registered symbol: every bundle copy of this module agrees). */
const METHOD = Symbol.for("prospectkit.mock.request-method");

/**
 * Marks a stand-in request with the method it really had: for a method fetch's `Request` cannot
 * carry (`CONNECT`, `TRACE`, `TRACK`), the adapter builds a body-less `GET` and names the method here.
 * @param request - the stand-in request
 * @param method - the method received, as sent
 * @returns the same request
 */
export function withMethod(request: Request, method: string): Request {
  Object.defineProperty(request, METHOD, { value: method });
  return request;
}

/** The method a request really had: the one named by {@link withMethod}, else `request.method`. */
export function methodOf(request: Request): string {
  const named = (request as unknown as Record<symbol, unknown>)[METHOD];
  return typeof named === "string" ? named : request.method;
}

/** The method a route table is searched with: `HEAD` is served by the `GET` route. */
export function routingMethod(method: string): string {
  return method === "HEAD" ? "GET" : method;
}

/** The `Allow` list of a path whose routes serve `methods`: `HEAD` joins wherever `GET` is. */
export function allowList(methods: readonly string[]): string[] {
  return methods.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
}

/**
 * The response as the method gets it: a `HEAD` answer keeps the status and every header of the
 * `GET` answer, states the `content-length` the body would have had, and drops the body.
 * @param method - the request's method
 * @param response - the answer a `GET` would get
 */
export async function forMethod(method: string, response: Response): Promise<Response> {
  if (method !== "HEAD" || response.body === null) return response;
  const length = (await response.arrayBuffer()).byteLength;
  const headers = new Headers(response.headers);
  headers.set("content-length", String(length));
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}
