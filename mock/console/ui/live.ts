/**
 * The live feed: `GET /__mock/events` read with `fetch` (so the key goes in the `x-api-key`
 * header; an EventSource could only put it in the URL), parsed as server-sent events. When the
 * connection ends it comes back after a growing pause (1 s, 2 s, 4 s … 30 s): it never spins.
 */
import { unauthorizedMessage } from "./api.js";

/** One event of the feed. */
export interface LiveEvent {
  readonly event: string;
  readonly data: any;
}

/** What the feed tells its owner. */
export interface LiveHandlers {
  onEvent(event: LiveEvent): void;
  /** `true` once the stream is open, `false` while it is down. */
  onStatus(connected: boolean): void;
  /** The server refused the key: the feed stops. */
  onUnauthorized(message: string): void;
}

/** Splits a text/event-stream into events (`event:` and `data:` lines; comments ignored). */
export function parseFrames(buffer: string): { events: LiveEvent[]; rest: string } {
  const events: LiveEvent[] = [];
  const frames = buffer.split(/\r?\n\r?\n/);
  const rest = frames.pop() ?? "";
  for (const frame of frames) {
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length === 0) continue;
    try {
      events.push({ event, data: JSON.parse(data.join("\n")) });
    } catch {
      // A frame that is not JSON is not ours: skip it.
    }
  }
  return { events, rest };
}

/**
 * Follows the feed until the returned function is called.
 * @param key - the API key, sent as `x-api-key`
 * @param handlers - where events and status go
 */
export function follow(key: string, handlers: LiveHandlers): () => void {
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
          handlers.onStatus(false);
          handlers.onUnauthorized(unauthorizedMessage(body?.code));
          return;
        }
        if (!response.ok || response.body === null) throw new Error(`status ${response.status}`);
        handlers.onStatus(true);
        pause = 1000;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const parsed = parseFrames(buffer + value);
          buffer = parsed.rest;
          for (const event of parsed.events) handlers.onEvent(event);
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      handlers.onStatus(false);
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 30_000);
    }
  };
  void run();
  return () => controller.abort();
}
