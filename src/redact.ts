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
 * The one place where the API key is taken out of what the SDK and the mock show: every piece of
 * data that enters an error, a log line, a hook, the mock's request log, the proxy's recording or
 * verify's report passes through one of these at the boundary where it enters (the reason phrase,
 * headers, the raw body, values decoded from it, messages).
 * @internal
 */
export interface Redactor {
  /**
   * `text` with the key taken out, in whatever form it holds it (see {@link holdsSecret}): raw,
   * JSON-escaped once (`\u0073k_…`, `\/`) or URL-encoded (`%2F`) is replaced where it stands;
   * a deeper form (escaped twice, base64) replaces each whitespace-separated word holding it, and
   * the whole text when no word alone holds it. The same string when it holds none.
   */
  text(text: string): string;
  /** Whether `text` holds the key in any form ({@link holdsSecret}). */
  holds(text: string): boolean;
  /**
   * A JSON value (field errors, a body parsed by the SDK, a logged body) with the key taken out of
   * every string and property name as {@link Redactor.text} does; the same value, never a copy,
   * when it holds none; {@link REDACTED} when no cleaned copy can be made.
   */
  json<T>(value: T): T;
  /** A copy of `headers` as a plain record with lower-case names, `x-api-key` and the key removed. */
  headers(headers: Headers | Record<string, string>): Record<string, string>;
}

/** Characters of base64 and base64url, and the line breaks MIME puts between them. */
const BASE64_RUN = /[A-Za-z0-9+/_-]+(?:\r?\n[A-Za-z0-9+/_-]+)*/g;

/** `text` with its JSON backslash escapes decoded once (anything else left as it is). */
const jsonUnescaped = (text: string) =>
  text.replace(/\\(?:u([0-9a-fA-F]{4})|(.))/g, (sequence, code: string | undefined, char: string) => {
    if (code !== undefined) return String.fromCharCode(Number.parseInt(code, 16));
    const named: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\", "/": "/" };
    return named[char] ?? sequence;
  });

/** `text` with its `%XX` escapes decoded once, each to the byte it names (a key is ASCII). */
const urlDecoded = (text: string) => text.replace(/%([0-9a-fA-F]{2})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)));

/**
 * The bytes a run of base64 or base64url characters encodes, read from each of its first four
 * characters (a run may start before the encoded text does), through the platform's `atob`: each
 * stretch of at least `shortest` printable ASCII bytes is handed to `found` (a key and every
 * encoding of it are printable ASCII; the rest of the bytes can hold none of them).
 */
function base64Stretches(run: string, shortest: number, found: (text: string) => void): void {
  const standard = run.replace(/\s/g, "").replace(/-/g, "+").replace(/_/g, "/");
  const printable = new RegExp(`[\\t\\n\\r -~]{${shortest},}`, "g");
  for (let offset = 0; offset < 4; offset++) {
    const quads = standard.slice(offset);
    // atob reads a last group of two or three characters; a lone one is no byte.
    const bytes = atob(quads.length % 4 === 1 ? quads.slice(0, -1) : quads);
    for (const [stretch] of bytes.matchAll(printable)) found(stretch);
  }
}

/**
 * How many characters of decoded text one check may look through, beyond the text itself (as a
 * multiple of its length): a body nested as deep as a real one ever is (base64 of JSON of base64…)
 * stays far below; only a body built to exhaust the check reaches it, and is then held to carry a key.
 */
const DECODED_BUDGET = 32;

/**
 * Whether `text` holds one of `secrets` in any form it can take in a body, a header or a line:
 * as itself; URL-encoded (at any depth: `%2F`, `%252F`); JSON-escaped at any depth (a JSON string
 * inside a JSON string: `\"`, `\\\"`, `\u0022`, `\/`); base64 or base64url; and any of these inside
 * another (base64 of a JSON document holding the key escaped, a URL-encoded base64 string…).
 *
 * It decodes and checks rather than encodes the key: each text is decoded every way it can be
 * (JSON escapes once, URL escapes once, each run of base64 characters from each of its first four
 * characters, since a run may start before the encoded text does), and each decoding is checked
 * and decoded again, until nothing new appears. The key's own base64 depends on where it sits in
 * the encoded bytes (three alignments), and the key inside an encoded JSON document is escaped
 * first: a list of encoded forms of the key misses such nestings; decoding finds them all.
 * @param text - what would be shown
 * @param secrets - the keys (empty strings are ignored)
 * @returns true when one of them is there in some form (or when the text is built to make the check too costly)
 * @internal
 */
export function holdsSecret(text: string, secrets: readonly string[]): boolean {
  const wanted = secrets.filter((secret) => secret.length > 0);
  if (wanted.length === 0) return false;
  // The fewest base64 characters that can carry the shortest key's bytes whole.
  const shortest = Math.min(...wanted.map((secret) => secret.length));
  const shortestRun = Math.floor((shortest * 4) / 3);
  const seen = new Set([text]);
  const runs = new Set<string>();
  const queue = [text];
  let budget = DECODED_BUDGET * text.length + 65_536;
  const add = (decoded: string) => {
    if (decoded.length === 0 || seen.has(decoded)) return;
    seen.add(decoded);
    queue.push(decoded);
    budget -= decoded.length;
  };
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i]!;
    if (current.length < shortest) continue;
    if (wanted.some((secret) => current.includes(secret))) return true;
    if (current.includes("\\")) add(jsonUnescaped(current));
    if (current.includes("%")) add(urlDecoded(current));
    for (const [run] of current.matchAll(BASE64_RUN)) {
      if (run.length < shortestRun || runs.has(run)) continue;
      runs.add(run);
      base64Stretches(run, shortest, add);
    }
    if (budget < 0) return true;
  }
  return false;
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
  const holds = (text: string) => holdsSecret(text, [secret]);
  const text = (value: string) => {
    if (!holds(value)) return value;
    // Where the key stands raw, escaped once or URL-encoded, it is replaced and the rest stays readable.
    const placed = value.replace(pattern, REDACTED);
    if (!holds(placed)) return placed;
    // A deeper form (escaped twice, base64) cannot be cut out: its word goes, else the whole text.
    const words = placed
      .split(/(\s+)/)
      .map((word) => (holds(word) ? REDACTED : word))
      .join("");
    return holds(words) ? REDACTED : words;
  };
  /** A string (or a property name) of a JSON value, cleaned; an object whose names hold the key, copied with them cleaned. */
  const cleanItem = (_: string, item: unknown): unknown => {
    if (typeof item === "string") return text(item);
    if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
    const entries = Object.entries(item);
    return entries.some(([name]) => holds(name)) ? Object.fromEntries(entries.map(([name, inner]) => [text(name), inner])) : item;
  };
  return {
    text,
    holds,
    json<T>(value: T): T {
      const serialised = JSON.stringify(value);
      if (serialised === undefined || !holds(serialised)) return value;
      try {
        const cleaned = JSON.parse(serialised, cleanItem) as T;
        if (!holds(JSON.stringify(cleaned))) return cleaned;
      } catch {}
      return REDACTED as T; // the key spread over several strings, or a value too deep to walk: nothing of it is safe to show
    },
    headers: (headers) => headersOf(headers, text),
  };
}
