/**
 * The server's request hook (`startMockServer`'s `onRequest`, the CLI's request lines): a step at
 * the edge of its handler that, once a request is answered, tells the hook what was answered and
 * how long it took: never a header (so never the API key). It marks the console's own traffic,
 * which the CLI leaves out, and what the validating proxy logged of the exchange.
 * @module
 */
import type { Step } from "../pipeline/exchange.js";
import { PROXY, type ProxyLogFields } from "./proxy.js";

/** One answered request, as the CLI prints it. Never carries a header (so never the API key). */
export interface AnsweredRequest {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  /** The status sent; 0 when the connection was dropped (a fault). */
  readonly status: number;
  /** How long the answer took, in milliseconds. */
  readonly durationMs: number;
  /**
   * True for the web console's own traffic: its page, files and event stream, and the reads it
   * makes to refresh its views (marked with the `x-prospectkit-console` header). The CLI leaves
   * these out of its request lines, which stay about the user's own calls.
   */
  readonly console?: boolean;
  /** The validating proxy only: what the exchange broke of the API's contract. */
  readonly violations?: readonly string[];
  /** The validating proxy only: who answered. */
  readonly answeredBy?: "target" | "mock";
}

/** The header the console sets on the reads that refresh its views. */
export const CONSOLE_READ_HEADER = "x-prospectkit-console";

/**
 * @param onAnswered - told of each request once it is answered
 */
export const answered =
  (onAnswered: (request: AnsweredRequest) => void): Step =>
  async (x, next) => {
    await next(x);
    const { method, path, headers } = x.request;
    const read = method === "GET" || method === "HEAD";
    const consoleTraffic = x.route?.area === "console" || (read && headers.has(CONSOLE_READ_HEADER));
    const { violations, answeredBy } = x.get<ProxyLogFields>(PROXY) ?? {};
    onAnswered({
      method,
      path,
      status: x.reply?.status ?? 0,
      durationMs: performance.now() - x.startedAt,
      ...(consoleTraffic && { console: true }),
      ...(violations !== undefined && { violations: [...violations] }),
      ...(answeredBy !== undefined && { answeredBy }),
    });
  };
