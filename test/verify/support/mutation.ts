/**
 * The parts single-rule mutants are made of: each mutant is a small handler between the network
 * and the real mock (deployment-server.ts) that breaks one rule of the spec or of
 * docs/behaviour.md, by changing a request on its way in (a validation, a PATCH semantic) or an
 * answer on its way out (a status, a field, a header).
 */
import { PROBLEM_STATUSES } from "../../../src/schemas/problem.js";
import type { Handle, Next } from "./deployment-server.js";
import { INPUTS, KEYS } from "./deployments.js";

/** One mutant: what it breaks, the rule that must catch it, and its handler (made fresh for each run, so its memory is its own). */
export interface Mutant {
  /** What the deployment does wrong, in words. */
  readonly name: string;
  /** The rule that must fail on it (`verify --strict` then exits 1) ... */
  readonly rule?: string;
  /** ... or, for a mutant no request can tell from a legitimate deployment, what `verify` must refuse instead. */
  readonly refuses?: "restored";
  readonly make: () => Handle;
}

/** The API's paths, as the mutants tell operations apart. */
export const PATHS = {
  create: "/v0/prospect_logs",
  page: /^\/v0\/page_groups\/([^/]+)\/pages\/([^/]+)$/,
  subscription: /^\/v0\/webhook_subscriptions\/([^/]+)$/,
} as const;

/** The path of a request. */
export const pathOf = (request: Request): string => new URL(request.url).pathname;

/** Which operation a request is for, by method and path (`undefined`: none). */
export function operationOf(request: Request): "create" | "page" | "update" | undefined {
  const path = pathOf(request);
  if (request.method === "POST" && path === PATHS.create) return "create";
  if (request.method === "GET" && PATHS.page.test(path)) return "page";
  if (request.method === "PATCH" && PATHS.subscription.test(path)) return "update";
  return undefined;
}

/** The JSON body of a request (`undefined`: none, or not JSON). */
export async function bodyOf(request: Request): Promise<any> {
  try {
    return JSON.parse(await request.clone().text());
  } catch {
    return undefined;
  }
}

/** The request with another JSON body. */
export const withJson = (request: Request, body: unknown): Request => new Request(request, { body: JSON.stringify(body) });

/** The request with other headers (a `null` value removes one). */
export function withHeaders(request: Request, changes: Readonly<Record<string, string | null>>): Request {
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(changes))
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  return new Request(request, { headers });
}

/** The request with the caller's valid key. */
export const asCaller = (request: Request): Request => withHeaders(request, { "x-api-key": KEYS.a });

/** Whether a request carries one of the deployment's valid keys. */
export const hasValidKey = (request: Request): boolean => Object.values(KEYS).includes(request.headers.get("x-api-key") as never);

/** A copy of a JSON answer changed: its body, status and headers. */
export async function changed(
  response: Response,
  change: { body?: (body: any) => unknown; status?: number; headers?: Readonly<Record<string, string | null>> },
): Promise<Response> {
  const text = await response.text();
  const body = change.body === undefined || text === "" ? text : JSON.stringify(change.body(JSON.parse(text)));
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(change.headers ?? {}))
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  return new Response(body, { status: change.status ?? response.status, headers });
}

/** A request ID of the mock's form, for answers a mutant makes up. */
const requestId = () =>
  `req_${Array.from(crypto.getRandomValues(new Uint8Array(26)), (byte) => "0123456789abcdefghjkmnpqrstvwxyz"[byte % 32]).join("")}`;

/** A problem answer as the mock renders one, for a code of the API (or a made-up one, with a status). */
export function problem(code: string, detail: string, status = PROBLEM_STATUSES[code as keyof typeof PROBLEM_STATUSES]?.status ?? 400): Response {
  const id = requestId();
  const title = PROBLEM_STATUSES[code as keyof typeof PROBLEM_STATUSES]?.title ?? "Error";
  const body = { type: `urn:prospectkit:problem:${code}`, title, status, detail, code, requestId: id };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/problem+json", "x-request-id": id } });
}

/** A handler that changes the requests `when` picks, then hands them on. */
export const onRequest =
  (when: (request: Request) => boolean | Promise<boolean>, change: (request: Request) => Request | Promise<Request>) =>
  (): Handle =>
  async (request, next) =>
    next((await when(request)) ? await change(request) : request);

/** A handler that changes the answers `when` picks. */
export const onAnswer =
  (when: (request: Request, response: Response) => boolean, change: (response: Response, request: Request) => Promise<Response>) =>
  (): Handle =>
  async (request, next) => {
    const response = await next(request.clone());
    return when(request, response) ? change(response, request) : response;
  };

/** A handler for create requests: changes the JSON body when `change` returns one (`undefined`: unchanged). */
export const onCreateBody = (change: (body: any, request: Request) => unknown) => onBody("create", change);

/** A handler for update requests: changes the JSON body when `change` returns one. */
export const onUpdateBody = (change: (body: any, request: Request) => unknown) => onBody("update", change);

function onBody(operation: "create" | "update", change: (body: any, request: Request) => unknown) {
  return (): Handle => async (request, next) => {
    if (operationOf(request) !== operation) return next(request);
    const body = await bodyOf(request);
    const object = typeof body === "object" && body !== null && !Array.isArray(body);
    const replaced = object ? change(body, request) : undefined;
    return next(replaced === undefined ? request : withJson(request, replaced));
  };
}

/** The given page and subscription of the deployment. */
export { INPUTS, KEYS, type Next };
