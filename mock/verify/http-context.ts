/**
 * The black-box harness of the contract rules: a {@link VerifyContext} over `fetch` against a base
 * URL. It holds the request budget and the pace, sends keys only in the `x-api-key` header, and
 * takes every key out of what it keeps (an answer that carried one is kept as an echo, shown
 * redacted), so nothing a report holds can leak a key.
 * @module
 */
import { API_KEY_HEADER } from "../../src/headers.js";
import { createRedactor, type Redactor } from "../../src/redact.js";
import { jsonOrText } from "../lib/canonical-json.js";
import { createPace, type Pace } from "./pace.js";
import type { Answer, Exchange, KeyChoice, SendOptions, SentRequest, VerifyContext } from "./rule.js";

/** What the harness needs. */
export interface HttpContextOptions {
  /** The deployment's base URL (the host root, or a URL with a path; `/v0/...` goes below it). */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly otherTenantKey?: string | undefined;
  readonly page?: { readonly pageGroupId: string; readonly pageId: string } | undefined;
  readonly subscription?: string | undefined;
  /** At most this many requests in all. */
  readonly maxRequests: number;
  /** The budget a report names when it is spent (default `maxRequests`; `runVerify` names the whole run's). */
  readonly budgetShown?: number;
  /** At most this many requests in any one-second window (see {@link createPace}). */
  readonly rate: number;
  /** The pace to keep (default a new one at `rate`): `runVerify` shares one between the rules and the restore. */
  readonly pace?: Pace;
  /** Each request gives up after this many milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /** Stops before the next request (the one in flight ends first). */
  readonly signal?: AbortSignal;
  /** Sends the requests (default the global `fetch`). */
  readonly fetch?: typeof fetch;
}

/** The budget is spent: the rule that wanted more is reported as not run. */
export class BudgetSpent extends Error {
  constructor(max: number) {
    super(`the request budget (--max-requests ${max}) is spent`);
    this.name = "BudgetSpent";
  }
}

/** The deployment could not be reached (refused, timed out, not HTTP): the run cannot go on. */
export class Unreachable extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "Unreachable";
  }
}

/** The run was interrupted (Ctrl+C): the rule that wanted to send is reported as not run. */
export class Interrupted extends Error {
  constructor() {
    super("interrupted");
    this.name = "Interrupted";
  }
}

/** A harness over HTTP, and what it counted. */
export interface HttpContext extends VerifyContext {
  /** Requests sent so far. */
  readonly sent: number;
}

/** A random word of 24 hex digits. */
const randomWord = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, "0")).join("");

/** The key with the case of each letter swapped. */
const recase = (key: string) => key.replace(/[a-z]/gi, (char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()));

/** A raw body longer than this is shown in a report by its start and its size. */
const SHOWN_BODY = 300;

/** A raw body as a report shows it. */
function shownRaw(raw: string | Uint8Array): string {
  const bytes = typeof raw === "string" ? new TextEncoder().encode(raw).byteLength : raw.byteLength;
  const text = typeof raw === "string" ? raw : new TextDecoder().decode(raw.subarray(0, SHOWN_BODY + 1));
  return bytes > SHOWN_BODY ? `${text.slice(0, SHOWN_BODY)}... (${bytes} bytes)` : text;
}

/**
 * Creates the harness.
 * @param options - the deployment, the keys and inputs, the budget and pace
 */
export function createHttpContext(options: HttpContextOptions): HttpContext {
  const { apiKey, otherTenantKey, maxRequests, rate, signal, timeoutMs = 10_000 } = options;
  const send = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");
  const unknownKey = `pk_prospectkit_verify_unknown_${randomWord()}`;
  const keys: Record<KeyChoice, string | undefined> = {
    caller: apiKey,
    "other-tenant": otherTenantKey,
    none: undefined,
    empty: "",
    unknown: unknownKey,
    recased: recase(apiKey),
  };
  const redactors: Redactor[] = [...new Set([apiKey, recase(apiKey), otherTenantKey, unknownKey])]
    .filter((key) => key !== undefined)
    .map((key) => createRedactor(key));
  const redact = (text: string) => redactors.reduce((value, redactor) => redactor.text(value), text);
  const exchanges: Exchange[] = [];
  const echoes: Exchange[] = [];
  const memo = new Map<string, Promise<unknown>>();
  const pace = options.pace ?? createPace(rate);
  let sent = 0;

  async function call(method: string, path: string, sendOptions: SendOptions = {}): Promise<Exchange> {
    if (signal?.aborted) throw new Interrupted();
    if (sent >= maxRequests) throw new BudgetSpent(options.budgetShown ?? maxRequests);
    const key = sendOptions.key ?? "caller";
    const headers = new Headers({ accept: "application/json", ...sendOptions.headers });
    const value = keys[key];
    if (value !== undefined) headers.set(API_KEY_HEADER, value);
    const body = sendOptions.json !== undefined ? JSON.stringify(sendOptions.json) : sendOptions.raw;
    const contentType = sendOptions.contentType === undefined ? "application/json" : sendOptions.contentType;
    if (body !== undefined && contentType !== null) headers.set("content-type", contentType);
    let response: Response;
    let text: string;
    try {
      [response, text] = await pace.run(async () => {
        // Ctrl+C while waiting for the pace: nothing is sent.
        if (signal?.aborted) throw new Interrupted();
        sent += 1;
        const answered = await send(`${base}${path}`, {
          method,
          headers,
          ...(body !== undefined && { body: body as BodyInit }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        return [answered, await answered.text()] as const;
      });
    } catch (error) {
      if (error instanceof Interrupted) throw error;
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new Unreachable(`${method} ${base}${redact(path)} failed: ${cause}`);
    }
    const held = redactors.some((redactor) => redactor.holds(text) || [...response.headers].some(([, v]) => redactor.holds(v)));
    text = redact(text);
    const answerHeaders = new Headers();
    for (const [name, headerValue] of response.headers) answerHeaders.set(name, redact(headerValue));
    const parsed = jsonOrText(text);
    const answer: Answer = { status: response.status, headers: answerHeaders, body: parsed, text };
    const shownBody =
      sendOptions.json !== undefined
        ? redactors.reduce((value, redactor) => redactor.json(value), sendOptions.json)
        : body === undefined
          ? undefined
          : redact(shownRaw(body));
    const request: SentRequest = {
      method,
      path: redact(path),
      key,
      ...(shownBody !== undefined && { body: shownBody }),
      ...(body !== undefined && contentType !== "application/json" && { contentType }),
    };
    const exchange: Exchange = { request, answer };
    exchanges.push(exchange);
    if (held) echoes.push(exchange);
    return exchange;
  }

  return {
    send: call,
    get sent() {
      return sent;
    },
    ...(options.page !== undefined && { page: options.page }),
    ...(options.subscription !== undefined && { subscription: options.subscription }),
    otherTenant: otherTenantKey !== undefined,
    unknownKey,
    keyHasLetters: /[a-z]/i.test(apiKey),
    fresh: randomWord,
    idempotencyKey: () => `prospectkit-verify-${randomWord()}`,
    once<T>(name: string, read: () => Promise<T>): Promise<T> {
      let promise = memo.get(name) as Promise<T> | undefined;
      if (promise === undefined) {
        promise = read();
        memo.set(name, promise);
      }
      return promise;
    },
    exchanges: () => exchanges,
    keyEchoes: () => echoes,
  };
}
