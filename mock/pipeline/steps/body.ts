/**
 * The body step: what a route reads of a request, checked before it runs. Its query (400 listing
 * every failing field); then, but for a `GET`, its body: the bytes for a route that takes them
 * raw (413 over the cap), else JSON (415, 413, 400: `../body.ts`) validated by the route's schema
 * (400 listing every failing field), once: an API operation's row's request schema, a control
 * route's own. A route without a body takes none, an empty one, or `{}`. The body as sent is kept
 * beside the validated one: the request log shows it, and a fault's match compares it.
 * @module
 */
import { NO_BODY, parseJsonBody } from "../body.js";
import type { Step } from "../exchange.js";
import { fieldErrorsOf, invalidFields, problem, tooLarge } from "../reply.js";

export const body: Step = async (x, next) => {
  const route = x.route!;
  if (route.query !== undefined) {
    const raw = Object.fromEntries(new URLSearchParams(x.request.query));
    const parsed = route.query.safeParse(raw);
    if (!parsed.success) return void (x.reply = invalidFields(x.requestId, fieldErrorsOf(parsed.error, raw), "query"));
    x.query = parsed.data;
  }
  if (route.method === "GET") return next(x);
  const bytes = await x.bytes();
  if (bytes === undefined) return;
  if (route.body === "raw") {
    if (bytes === null) return void (x.reply = tooLarge(x.requestId));
    x.body = x.sent = bytes;
    return next(x);
  }
  if (route.body === undefined && bytes?.length === 0) return next(x);
  const read = parseJsonBody(x.request.headers, bytes);
  if (!read.ok) return void (x.reply = problem(x.requestId, read.code, read.detail, read.errors ? { errors: read.errors } : {}));
  x.sent = read.value;
  const parsed = (route.body ?? NO_BODY).safeParse(read.value);
  if (!parsed.success) return void (x.reply = invalidFields(x.requestId, fieldErrorsOf(parsed.error, read.value)));
  x.body = parsed.data;
  return next(x);
};
