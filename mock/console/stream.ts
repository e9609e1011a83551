/**
 * The console's live feed: one tenant's changes as server-sent events, read with `fetch` so that
 * the key travels in the `x-api-key` header (an `EventSource` could only put it in the URL). A reader
 * that stalls is cut off once its backlog passes a bound, so a stalled tab cannot grow the server's memory.
 * @module
 */
import type { MockChanges } from "../observe/changes.js";
import type { Reply } from "../pipeline/reply.js";

/** How often a comment line keeps idle connections (and proxies) open, in milliseconds. */
export const KEEP_ALIVE_MS = 15_000;

/** How many events may wait for a slow reader before its stream is closed. */
export const MAX_BACKLOG = 1_000;

const encoder = new TextEncoder();

/** One event in the `text/event-stream` format (`data` is one JSON line, so never a bare newline). */
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Opens the feed of one tenant: nothing of another tenant is ever written.
 * @param changes - the mock's change feed
 * @param tenantOfCaller - the caller's tenant now (null when the key has none, which ends the stream)
 * @returns the streaming reply (first event `ready`, then `request` and `change` events)
 */
export function changeStream(changes: MockChanges, tenantOfCaller: () => string | null): Reply {
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let closed = false;
        let unsubscribe = () => {};
        const timer = setInterval(() => send(": keep-alive\n\n"), KEEP_ALIVE_MS);
        (timer as { unref?: () => void }).unref?.();
        stop = () => {
          closed = true;
          unsubscribe();
          clearInterval(timer);
        };
        const end = () => {
          if (closed) return;
          stop();
          controller.close();
        };
        const send = (text: string) => {
          if (closed) return;
          if ((controller.desiredSize ?? 0) <= -MAX_BACKLOG) return end();
          controller.enqueue(encoder.encode(text));
        };
        const listen = (tenantId: string | null) => {
          if (tenantId === null) return end();
          unsubscribe = changes.subscribe(tenantId, (change) => {
            if (change.kind === "request") return send(frame("request", change.request));
            send(frame("change", change.kind === "state-file" ? change : { kind: change.kind }));
            if (change.kind !== "reset") return;
            // A reset may renew the tenant's ID: follow the key to its tenant now, or end.
            unsubscribe();
            listen(tenantOfCaller());
          });
        };
        send("retry: 2000\n\n");
        send(frame("ready", {}));
        listen(tenantOfCaller());
      },
      cancel: () => stop(),
    },
    { highWaterMark: 1 },
  );
  return {
    status: 200,
    stream: body,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  };
}
