/**
 * The console's only way to the server: `fetch` with the key in the `x-api-key` header (never in
 * a URL), answers read as JSON, and a problem's field errors kept by JSON pointer so forms can
 * show each next to its field. The key lives in sessionStorage: it is gone when the tab closes.
 */

const STORAGE_KEY = "prospectkit-console:api-key";

/** A field error of a problem (RFC 9457 `errors` as the API sends them). */
export interface FieldError {
  readonly pointer: string;
  readonly detail: string;
  readonly code: string;
}

/** What a call answered. */
export interface Answer<T = any> {
  readonly ok: boolean;
  readonly status: number;
  readonly body: T;
  readonly requestId: string | null;
  /** The problem's field errors by pointer (`/url` → its message). */
  readonly fieldErrors: Readonly<Record<string, string>>;
  /** The problem's detail, or a sentence for a failure without a problem body. */
  readonly message: string;
}

/** The key the user gave in this tab, if any. */
export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Keeps (or, with null, forgets) the key for this tab. */
export function storeKey(key: string | null): void {
  try {
    if (key === null) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Storage refused (private mode): the key then lasts as long as the page.
  }
}

let currentKey: string | null = storedKey();
let onUnauthorized: (message: string) => void = () => {};

/** Sets the key used by every call, and what happens when the server refuses it. */
export function useKey(key: string | null, unauthorized?: (message: string) => void): void {
  currentKey = key;
  if (unauthorized) onUnauthorized = unauthorized;
}

/** The key in use (for the event stream's header). */
export function activeKey(): string | null {
  return currentKey;
}

/** Why a 401 happened, in words a user can act on. */
export function unauthorizedMessage(code: unknown): string {
  return code === "missing_api_key"
    ? "Enter the API key the server was started with."
    : "This server does not accept that API key. Use a key from the server's banner (or its --api-key).";
}

function errorsOf(body: any): Record<string, string> {
  const out: Record<string, string> = {};
  if (body && Array.isArray(body.errors)) {
    for (const error of body.errors) {
      if (error && typeof error.pointer === "string" && !(error.pointer in out)) out[error.pointer] = String(error.detail ?? error.code ?? "invalid");
    }
  }
  return out;
}

/**
 * Calls the server.
 * @param method - the HTTP method
 * @param path - a path on this server (`/v0/...` or `/__mock/...`)
 * @param body - a JSON body, if any
 * @param key - the key to use instead of the current one (checking a new key)
 */
export async function call<T = any>(method: string, path: string, body?: unknown, key: string | null = currentKey): Promise<Answer<T>> {
  // Reads are marked as the console's own, so the server's terminal log keeps to the user's calls.
  const headers: Record<string, string> = { accept: "application/json", ...(method === "GET" && { "x-prospectkit-console": "1" }) };
  if (key !== null) headers["x-api-key"] = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }), cache: "no-store" });
  } catch {
    return {
      ok: false,
      status: 0,
      body: null as T,
      requestId: null,
      fieldErrors: {},
      message: "The server could not be reached. Is prospectkit-mock still running?",
    };
  }
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    parsed = text;
  }
  const requestId = response.headers.get("x-request-id");
  const message = response.ok ? "" : typeof parsed?.detail === "string" ? parsed.detail : `The server answered ${response.status}.`;
  if (response.status === 401 && key === currentKey) onUnauthorized(unauthorizedMessage(parsed?.code));
  return { ok: response.ok, status: response.status, body: parsed as T, requestId, fieldErrors: errorsOf(parsed), message };
}
