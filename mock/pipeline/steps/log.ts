/**
 * The log step: once a request is answered, the request log keeps it (an API request, or one the
 * server's checks refused), as the client saw it: never the API key (nor a credential header). What
 * adapters attached (`Exchange.set`, each under its namespace: the proxy's fields) is kept with
 * it, unread.
 * @module
 */
import { formatTimestamp } from "../../lib/clock.js";
import { EXTENSIONS, type LoggedRequest, loggedQueryAndHeaders } from "../../observe/request-log.js";
import type { Step } from "../exchange.js";

/**
 * @param record - keeps an entry (and tells the live feed; `wrote`: the request changed its caller's data)
 */
export const log =
  (record: (entry: LoggedRequest, wrote: boolean) => void): Step =>
  async (x, next) => {
    await next(x);
    if (!x.logged) return;
    const { reply, request } = x;
    const tenant = x.area === null ? null : x.tenant;
    const entry: LoggedRequest = {
      requestId: x.requestId,
      method: request.method,
      path: request.path,
      operation: x.route?.operation ?? null,
      status: reply?.status ?? 0,
      ...loggedQueryAndHeaders(request.query, request.headers, tenant !== null),
      requestBody: x.sent,
      responseBody: reply == null ? undefined : (reply.text ?? reply.body),
      receivedAt: formatTimestamp(x.receivedAtMs),
      durationMs: Math.round((performance.now() - x.startedAt) * 100) / 100,
      tenantId: tenant?.record.id ?? null,
      ...(x.nearMiss !== undefined && { nearMiss: x.nearMiss }),
      ...(x.extensions !== undefined && { [EXTENSIONS]: x.extensions }),
    };
    record(entry, x.wrote);
  };
