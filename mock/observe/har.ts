/**
 * The request log as an HTTP Archive (HAR 1.2): one entry per logged request, for browsers'
 * DevTools, proxies and msw's own `@mswjs/source` (`fromTraffic`, which turns it into handlers
 * answering the recorded responses). Built from what the log hands out, so it holds no key: no
 * `x-api-key`, `authorization` or `cookie` header, and a body or value holding a key reads
 * `[redacted]`. The log keeps no response headers: an entry has the two every answer of the
 * mock carries, its media type and its `x-request-id`.
 * @module
 */
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import { VERSION } from "../../src/version.js";

/**
 * What an entry is made of: the fields of a logged request it reads (a `LoggedRequest` is one;
 * written here so that the log, which exports itself with it, and this module import one way).
 */
export interface HarSource {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly operation: string | null;
  readonly status: number;
  readonly query?: Readonly<Record<string, string>> | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly requestBody?: unknown;
  readonly responseBody?: unknown;
  readonly receivedAt: string;
  readonly durationMs: number;
  readonly nearMiss?: { readonly method: string; readonly path: string } | undefined;
}

/** A name and a value (a header, a query parameter), as HAR writes them. */
export interface HarNameValue {
  /** The name. */
  name: string;
  /** The value. */
  value: string;
}

/** One request and its answer, as HAR 1.2 writes them. */
export interface HarEntry {
  /** When the request was received (ISO 8601). */
  startedDateTime: string;
  /** How long the answer took, in milliseconds. */
  time: number;
  /** The request. */
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  /** The answer; status 0 for a dropped connection. */
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  /** Nothing is cached. */
  cache: Record<string, never>;
  /** The whole time as waiting (the mock measures no more). */
  timings: { send: number; wait: number; receive: number };
  /** The operation the request matched, or why none did. */
  comment?: string;
}

/** An HTTP Archive (HAR 1.2) of logged requests. */
export interface Har {
  /** The archive. */
  log: {
    version: "1.2";
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  0: "",
  200: "OK",
  201: "Created",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

const pairs = (values: Readonly<Record<string, string>> | undefined): HarNameValue[] =>
  Object.entries(values ?? {}).map(([name, value]) => ({ name, value }));

/** A logged body as the text sent: a string as itself (a malformed-body fault, a body cut short), else its JSON. */
const textOf = (body: unknown): string | undefined => (body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body));

const bytes = (text: string | undefined) => (text === undefined ? 0 : new TextEncoder().encode(text).length);

/**
 * One logged request as a HAR entry.
 * @param entry - the entry, as the log hands it out (keys already redacted)
 * @param origin - the origin the request was sent to (`https://api.prospectkit.test`): HAR wants absolute URLs
 */
export function harEntry(entry: HarSource, origin: string): HarEntry {
  const query = entry.query === undefined ? "" : `?${new URLSearchParams(entry.query)}`;
  const requestText = textOf(entry.requestBody);
  const responseText = entry.status === 0 ? undefined : textOf(entry.responseBody);
  const mimeType = entry.status >= 400 ? "application/problem+json" : "application/json";
  const responseType = responseText === undefined ? "" : mimeType;
  const comment = entry.operation ?? (entry.nearMiss ? `no operation; nearest: ${entry.nearMiss.method} ${entry.nearMiss.path}` : undefined);
  return {
    startedDateTime: entry.receivedAt,
    time: entry.durationMs,
    request: {
      method: entry.method,
      url: `${origin}${entry.path}${query}`,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: pairs(entry.headers),
      queryString: pairs(entry.query),
      ...(requestText !== undefined && { postData: { mimeType: entry.headers?.["content-type"] ?? "application/json", text: requestText } }),
      headersSize: -1,
      bodySize: requestText === undefined ? 0 : bytes(requestText),
    },
    response: {
      status: entry.status,
      statusText: STATUS_TEXT[entry.status] ?? "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [
        ...(responseType === "" ? [] : [{ name: "content-type", value: responseType }]),
        ...(entry.status === 0 ? [] : [{ name: REQUEST_ID_HEADER, value: entry.requestId }]),
      ],
      content: { size: bytes(responseText), mimeType: responseType, ...(responseText !== undefined && { text: responseText }) },
      redirectURL: "",
      headersSize: -1,
      bodySize: entry.status === 0 ? -1 : bytes(responseText),
    },
    cache: {},
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
    ...(comment !== undefined && { comment }),
  };
}

/**
 * Logged requests as an HTTP Archive (HAR 1.2), oldest first.
 * @param entries - the entries, as the log hands them out
 * @param origin - the origin the requests were sent to
 */
export function toHar(entries: readonly HarSource[], origin: string): Har {
  return { log: { version: "1.2", creator: { name: "prospectkit", version: VERSION }, entries: entries.map((entry) => harEntry(entry, origin)) } };
}
