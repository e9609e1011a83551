import { format, inspect } from "node:util";

/**
 * A key with characters that JSON and URLs write differently (`/`, `+`, `=`), so that its
 * JSON-escaped and URL-encoded forms are not the raw key.
 */
export const ODD_KEY = "sk_live/Q7+x=SECRET_9a2b";

/** `text` with every character written as a JSON `\uXXXX` escape. */
const unicodeEscaped = (text: string) => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

/**
 * Every form in which `secret` could be read out of a text: raw, JSON-escaped (as
 * `JSON.stringify` writes it, with `\/`, with `\u` escapes for all or only the first character)
 * and URL-encoded (upper and lower case hex).
 */
export function leakForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    secret.replaceAll("/", "\\/"),
    unicodeEscaped(secret),
    unicodeEscaped(secret[0]!) + secret.slice(1),
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (sequence) => sequence.toLowerCase()),
  ];
}

/** Every way an error (or an event) is commonly turned into text. */
export function serialisations(value: unknown): Record<string, string> {
  const error = value as Error & { toJSON?: () => unknown };
  return {
    message: String(error?.message),
    String: String(error),
    stack: String(error?.stack),
    "JSON.stringify": String(JSON.stringify(error)),
    toJSON: String(JSON.stringify(error?.toJSON?.())),
    "util.inspect": inspect(error),
    "util.inspect showHidden depth ∞": inspect(error, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
    "console.log format": format("%s %o %O", error, error, error),
  };
}

/** The names of the serialisations of `value` that hold `secret` in any of its forms. */
export function leaksOf(value: unknown, secret: string): string[] {
  const forms = leakForms(secret);
  return Object.entries(serialisations(value))
    .filter(([, text]) => forms.some((form) => text.includes(form)))
    .map(([how]) => how);
}
