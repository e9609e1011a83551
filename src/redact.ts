import { API_KEY_HEADER } from "./headers.js";

export { API_KEY_HEADER };

/** What a secret is replaced with wherever the SDK shows headers or text. */
export const REDACTED = "[redacted]";

/**
 * Keys shorter than this are test keys, never real secrets: they are removed from headers only,
 * so that a key `k` does not turn `webhook` into `webhoo[redacted]` (BEHAVIOUR: SDK secrets).
 */
export const MIN_SCRUBBED_KEY_LENGTH = 8;

/**
 * The one place where the API key is taken out of what the SDK shows: every piece of data that
 * enters an error, a log line or a hook passes through one of these at the boundary where it
 * enters (the reason phrase, headers, the raw body, values decoded from it, messages).
 * @internal
 */
export interface Redactor {
  /**
   * `text` with the key replaced, whether it appears raw, JSON-escaped (`\u0073k_…`, `\/`) or
   * URL-encoded (`%2F`); the same string when it holds none of them.
   */
  text(text: string): string;
  /** Whether `text` holds the key in any of those forms. */
  holds(text: string): boolean;
  /**
   * A JSON value (field errors, a body parsed by the SDK) with the key replaced in every string
   * and property name; the same value, never a copy, when it holds none.
   */
  json<T>(value: T): T;
  /** A copy of `headers` as a plain record with lower-case names, `x-api-key` and the key removed. */
  headers(headers: Headers | Record<string, string>): Record<string, string>;
}

const hex = (code: number) =>
  code
    .toString(16)
    .padStart(2, "0")
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);

/**
 * A pattern that finds `secret` however a server or a URL wrote it: each character as itself,
 * as a JSON `\u00XX` escape, a URL `%XX` escape, or (for `/`, `"` and `\`) a JSON backslash escape.
 * The key is visible ASCII (checked when the client is created), so these are all the forms.
 */
function secretPattern(secret: string): RegExp {
  let source = "";
  for (const char of secret) {
    const code = char.charCodeAt(0);
    const forms = [char.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&"), `\\\\u00${hex(code)}`, `%${hex(code)}`];
    if (char === "/" || char === '"' || char === "\\") forms.push(`\\\\\\${char}`);
    source += `(?:${forms.join("|")})`;
  }
  return new RegExp(source, "g");
}

function headersOf(headers: Headers | Record<string, string>, value: (text: string) => string): Record<string, string> {
  const copy: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, text] of entries) {
    const key = name.toLowerCase();
    copy[key] = key === API_KEY_HEADER ? REDACTED : value(text);
  }
  return copy;
}

/**
 * A copy of `headers` as a plain record with lower-case names, with the `x-api-key` header
 * replaced by {@link REDACTED}; safe to log when the key itself is not known.
 * @internal
 */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  return headersOf(headers, (text) => text);
}

/**
 * The {@link Redactor} for `secret`. A key shorter than {@link MIN_SCRUBBED_KEY_LENGTH} is
 * removed from headers only (where a value equal to it is replaced whole), never from the data
 * a server sent.
 * @internal
 */
export function createRedactor(secret: string): Redactor {
  if (secret.length < MIN_SCRUBBED_KEY_LENGTH) {
    const same = <T>(value: T) => value;
    return { text: same, json: same, holds: () => false, headers: (headers) => headersOf(headers, (text) => (text === secret ? REDACTED : text)) };
  }
  const pattern = secretPattern(secret);
  const holds = (text: string) => {
    // every escaped form has a `\` or a `%`: text with neither holds the key only as itself,
    // so most text (request IDs, bodies without escapes) is answered without the pattern
    if (text.length < secret.length) return false;
    if (!text.includes("\\") && !text.includes("%")) return text.includes(secret);
    pattern.lastIndex = 0;
    return pattern.test(text);
  };
  const text = (value: string) => (holds(value) ? value.replace(pattern, REDACTED) : value);
  return {
    text,
    holds,
    json<T>(value: T): T {
      const serialised = JSON.stringify(value);
      if (serialised === undefined || !holds(serialised)) return value;
      try {
        return JSON.parse(text(serialised)) as T;
      } catch {
        return REDACTED as T; // the key sat right after a backslash: nothing of this value is safe to show
      }
    },
    headers: (headers) => headersOf(headers, text),
  };
}
