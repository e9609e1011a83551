/** The header that carries the API key (spec 5), in the lower case `Headers` uses. */
export const API_KEY_HEADER = "x-api-key";

/** What a secret is replaced with wherever the SDK shows headers or text. */
export const REDACTED = "[redacted]";

/**
 * A copy of `headers` as a plain record with lower-case names, safe to log or hand to a hook:
 * the API key header is replaced with {@link REDACTED}, and so is the key wherever a server
 * echoed it into another header's value.
 *
 * @param headers - request headers (a record) or response headers (a `Headers`)
 * @param secret - the API key, when known
 * @returns a new record; the input is not changed
 */
export function redactHeaders(headers: Headers | Record<string, string>, secret?: string): Record<string, string> {
  const copy: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    copy[key] = key === API_KEY_HEADER ? REDACTED : secret ? scrub(value, secret) : value;
  }
  return copy;
}

/**
 * Returns `text` with every occurrence of `secret` replaced by {@link REDACTED}: for text a
 * server or a custom `fetch` sent back, which the SDK puts into errors and log lines.
 * @internal
 */
export function scrub(text: string, secret: string): string {
  return text.includes(secret) ? text.replaceAll(secret, REDACTED) : text;
}
