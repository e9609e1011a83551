/**
 * `--record FILE.har`: the exchanges the validating proxy forwarded, written as an HTTP Archive
 * (HAR 1.2) of the requests the target answered, with the target's URLs: what a browser's DevTools
 * or msw's `@mswjs/source` reads. Built from the request log (`api.requests.toHAR()`'s entries),
 * so it holds no key; rewritten once per burst of exchanges.
 * @module
 */
import { writeFileSync } from "node:fs";
import type { MockApi } from "../mock-api.js";
import { toHar } from "../observe/har.js";
import type { ProxyLogFields } from "./proxy.js";

/** A HAR recording: `see` each exchange (the proxy's `onExchange`), once `attach`ed to the server's mock. */
export interface HarRecording {
  /** Notes that an exchange happened: the file is rewritten once the request is logged. */
  see(): void;
  /** The mock whose request log is written (the server's, once it started). */
  attach(api: MockApi): void;
  /** Writes the file now (also when nothing was seen: an empty archive). */
  write(): void;
}

/**
 * Creates a HAR recording.
 * @param file - the file to write
 * @param target - the proxy target's base URL: each entry's URL is it and the request's path
 */
export function createHarRecording(file: string, target: string): HarRecording {
  let api: MockApi | undefined;
  let scheduled = false;
  const base = target.replace(/\/+$/, "");
  const write = () => {
    scheduled = false;
    if (api === undefined) return;
    const forwarded = api.requests.list().filter((entry) => (entry as typeof entry & ProxyLogFields).answeredBy === "target");
    writeFileSync(file, `${JSON.stringify(toHar(forwarded, base), null, 2)}\n`);
  };
  return {
    see() {
      if (scheduled) return;
      scheduled = true;
      // After this turn: the log keeps the exchange once its answer is rendered.
      setTimeout(write, 0);
    },
    attach(next) {
      api = next;
    },
    write,
  };
}
