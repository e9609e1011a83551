/**
 * `mockServer(url, apiKey)`: the standalone server seen through one key, for the request matchers
 * of `prospectkit/mock/vitest` in Node tests: its requests (`GET /__mock/requests`) and faults
 * (`GET /__mock/faults`) are those of that key's tenant only. The key stays in a closure: never a
 * property, so never in `util.inspect`, `JSON.stringify` or a failure message.
 * @module
 */
import { API_KEY_HEADER, createRedactor } from "../../src/redact.js";
import type { LoggedRequest } from "../observe/request-log.js";
import { REQUEST_SOURCE, type RequestSource, type SourceFault, type SourceReader } from "../testing/source.js";

/** A standalone server seen through one key: pass it to `expect(...)` with the request matchers (and await them). */
export interface MockServerClient extends RequestSource {
  /** The server's base URL (no trailing slash). */
  readonly url: string;
  /**
   * The requests of the key's tenant, oldest first, as `GET /__mock/requests` lists them.
   * @throws {TypeError} when the server cannot be reached or refuses the key (the message never holds the key)
   */
  requests(): Promise<LoggedRequest[]>;
  /**
   * The faults armed for the key's tenant, as `GET /__mock/faults` lists them (an unlimited one with `remaining: Infinity`).
   * @throws {TypeError} when the server cannot be reached or refuses the key
   */
  faults(): Promise<SourceFault[]>;
}

/**
 * A client of the standalone server for the request matchers: `await expect(mockServer(url, key)).toHaveReceived("getPage")`.
 * @param url - the server's base URL (`http://127.0.0.1:4010`)
 * @param apiKey - the key whose tenant's requests and faults are read (never shown)
 * @returns the client; it makes no request until a matcher reads it
 * @throws {TypeError} for a URL that does not parse or an empty key (no message holds the key)
 * @example
 * ```ts no-run: needs a running server
 * import { mockServer } from "prospectkit/mock/server";
 * const server = mockServer("http://127.0.0.1:4010", process.env.PROSPECTKIT_API_KEY!);
 * await expect(server).toHaveReceived("createProspectLog", { status: 201 });
 * ```
 */
export function mockServer(url: string, apiKey: string): MockServerClient {
  if (typeof apiKey !== "string" || apiKey === "") throw new TypeError("mockServer: apiKey must be a non-empty string");
  if (!URL.canParse(url)) throw new TypeError("mockServer: url must be an absolute URL, such as http://127.0.0.1:4010");
  const base = url.replace(/\/+$/, "");
  const redact = createRedactor(apiKey).text;
  const read = async <T>(path: string): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { headers: { [API_KEY_HEADER]: apiKey, accept: "application/json" } });
    } catch (error) {
      throw new TypeError(redact(`mockServer: GET ${base}${path} failed: ${(error as Error).message}`));
    }
    const text = await response.text();
    if (!response.ok) throw new TypeError(redact(`mockServer: GET ${base}${path} answered ${response.status}: ${text.slice(0, 500)}`));
    return (JSON.parse(text) as { data: T }).data;
  };
  const requests = () => read<LoggedRequest[]>("/__mock/requests");
  const faults = async () =>
    (await read<(Omit<SourceFault, "remaining"> & { remaining: number | null })[]>("/__mock/faults")).map((fault) => ({
      ...fault,
      remaining: fault.remaining ?? Number.POSITIVE_INFINITY,
    }));
  return {
    url: base,
    requests,
    faults,
    [REQUEST_SOURCE as never]: { name: "server", requests, faults, redact } satisfies SourceReader,
  };
}
