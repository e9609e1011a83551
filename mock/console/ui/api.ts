/**
 * The console's only way to the server: `fetch` with the key in the `x-api-key` header (never in
 * a URL), answers read as JSON, and a problem's field errors kept by JSON pointer so forms can
 * show each next to its field. The key lives in sessionStorage: it is gone when the tab closes.
 */

import type { Listing } from "./types.js";

const STORAGE_KEY = "prospectkit-console:api-key";
/** Set when the user asked for another key than the development key: the console then asks again on reload. */
const OTHER_KEY_WANTED = "prospectkit-console:other-key";

declare const __DEVELOPMENT_KEY__: string;

/** The development key, when the server accepts it now (the page says so; it never carries the key). */
export function offeredDevelopmentKey(): string | null {
  return document.body.dataset["developmentKey"] === "true" ? __DEVELOPMENT_KEY__ : null;
}

/** What every answer carries, whatever its status. */
interface AnswerFacts {
  readonly status: number;
  readonly requestId: string | null;
  /** The problem's field errors by pointer (`/url` → its message). */
  readonly fieldErrors: Readonly<Record<string, string>>;
  /** The problem's detail, or a sentence for a failure without a problem body. */
  readonly message: string;
  /** The problem's code (`missing_api_key`, …), or null. */
  readonly code: string | null;
}

/**
 * What a call answered: on success the body the route documents (`T`, the caller's word for the
 * server's schema, not checked here), else whatever came back (a problem, text, or null).
 */
export type Answer<T = unknown> = AnswerFacts & ({ readonly ok: true; readonly body: T } | { readonly ok: false; readonly body: unknown });

/** The key the user gave in this tab, if any. */
export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The key to open the console with, without asking: the one kept for this tab, else the
 * development key while the server accepts it (unless the user asked for another one in this tab).
 */
export function startingKey(): string | null {
  const kept = storedKey();
  if (kept !== null) return kept;
  try {
    if (sessionStorage.getItem(OTHER_KEY_WANTED) !== null) return null;
  } catch {
    // Storage refused: nothing was asked for in this tab.
  }
  return offeredDevelopmentKey();
}

/** Remembers for this tab that the user wants to give another key (the console asks on reload too). */
export function wantOtherKey(wanted: boolean): void {
  try {
    if (wanted) sessionStorage.setItem(OTHER_KEY_WANTED, "1");
    else sessionStorage.removeItem(OTHER_KEY_WANTED);
  } catch {
    // Storage refused: the choice lasts as long as the page.
  }
}

let currentKey: string | null = storedKey();
let onUnauthorized: (message: string) => void = () => {};

/** Uses `key` for every call and keeps it for this tab (null forgets it). */
export function keepKey(key: string | null): void {
  currentKey = key;
  try {
    if (key === null) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Storage refused (private mode): the key then lasts as long as the page.
  }
}

/** What happens when the server refuses the key in use. */
export function whenUnauthorized(handler: (message: string) => void): void {
  onUnauthorized = handler;
}

/** Why a 401 happened, in words a user can act on. */
export function unauthorizedMessage(code: unknown): string {
  return code === "missing_api_key"
    ? "Enter the API key the server was started with."
    : "This server does not accept that API key. Use a key from the server's banner (or its --api-key).";
}

/** The `data` list of a listing, or null when the call failed. */
export function listOf<T>(answer: Answer<Listing<T>>): readonly T[] | null {
  return answer.ok && Array.isArray(answer.body?.data) ? answer.body.data : null;
}

/** The fields of a JSON object; none for any other value. */
function fieldsOf(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * Calls the server.
 * @param method - the HTTP method
 * @param path - a path on this server (`/v0/...` or `/__mock/...`)
 * @param body - a JSON body, if any
 * @param key - the key to use instead of the current one (checking a new key)
 */
export async function call<T = unknown>(method: string, path: string, body?: unknown, key: string | null = currentKey): Promise<Answer<T>> {
  // Reads are marked as the console's own, so the server's terminal log keeps to the user's calls.
  const headers: Record<string, string> = { accept: "application/json", ...(method === "GET" && { "x-prospectkit-console": "1" }) };
  if (key !== null) headers["x-api-key"] = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }), cache: "no-store" });
  } catch {
    const message = "The server could not be reached. Is prospectkit-mock still running?";
    return { ok: false, status: 0, body: null, requestId: null, fieldErrors: {}, message, code: null };
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    // Not JSON: kept as the text.
  }
  const problem = fieldsOf(parsed);
  const fieldErrors: Record<string, string> = {};
  for (const error of Array.isArray(problem["errors"]) ? problem["errors"].map(fieldsOf) : []) {
    const pointer = error["pointer"];
    if (typeof pointer === "string") fieldErrors[pointer] ??= String(error["detail"] ?? error["code"] ?? "invalid");
  }
  const detail = problem["detail"];
  const message = response.ok ? "" : typeof detail === "string" ? detail : `The server answered ${response.status}.`;
  const code = typeof problem["code"] === "string" ? problem["code"] : null;
  if (response.status === 401 && key === currentKey) onUnauthorized(unauthorizedMessage(code));
  const facts = { status: response.status, requestId: response.headers.get("x-request-id"), fieldErrors, message, code };
  // A success carries the body the route documents (its schema in mock/control/schemas.ts), taken on trust.
  return response.ok ? { ...facts, ok: true, body: parsed as T } : { ...facts, ok: false, body: parsed };
}
