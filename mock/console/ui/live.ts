/**
 * The live feed: `GET /__mock/events` read with `fetch` (so the key goes in the `x-api-key`
 * header; an EventSource could only put it in the URL), parsed as server-sent events. When the
 * connection ends it comes back after a growing pause (1 s, 2 s, 4 s … 30 s): it never spins.
 */
import { unauthorizedMessage } from "./api.js";

/** One event of the feed: its name and its JSON data (`request`: a logged request; `change`: `{ kind }`). */
export type LiveEvent = { readonly event: string; readonly data: unknown };

/** Splits a text/event-stream into events (`event:` and `data:` lines; comments ignored). */
export function parseFrames(buffer: string): { events: LiveEvent[]; rest: string } {
  const frames = buffer.split(/\r?\n\r?\n/);
  const rest = frames.pop() ?? "";
  const events: LiveEvent[] = [];
  for (const frame of frames) {
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    try {
      if (data.length > 0) events.push({ event, data: JSON.parse(data.join("\n")) });
    } catch {
      // A frame that is not JSON is not ours: skip it.
    }
  }
  return { events, rest };
}

/**
 * Follows the feed until the returned function is called.
 * @param key - the API key, sent as `x-api-key`
 * @param onEvent - called with each event
 * @param onStatus - `true` once the stream is open, `false` while it is down
 * @param onUnauthorized - the server refused the key: the feed stops
 */
export function follow(
  key: string,
  onEvent: (event: LiveEvent) => void,
  onStatus: (connected: boolean) => void,
  onUnauthorized: (message: string) => void,
) {
  const controller = new AbortController();
  let pause = 1000;
  const run = async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch("/__mock/events", {
          headers: { "x-api-key": key, accept: "text/event-stream" },
          signal: controller.signal,
          cache: "no-store",
        });
        if (response.status === 401) {
          const body = await response.json().catch(() => null);
          onStatus(false);
          return onUnauthorized(unauthorizedMessage(body?.code));
        }
        if (!response.ok || response.body === null) throw new Error(`status ${response.status}`);
        onStatus(true);
        pause = 1000;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          const parsed = parseFrames(buffer + read.value);
          buffer = parsed.rest;
          for (const event of parsed.events) onEvent(event);
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      onStatus(false);
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 30_000);
    }
  };
  void run();
  return () => controller.abort();
}
