/** Mutants of the rules about the API as a whole: authentication, routes and methods, bodies, and every answer. */
import { PROBLEM_STATUSES } from "../../../../src/schemas/problem.js";
import {
  asCaller,
  bodyOf,
  changed,
  hasValidKey,
  KEYS,
  type Mutant,
  onAnswer,
  onRequest,
  operationOf,
  PATHS,
  pathOf,
  problem,
  withHeaders,
  withJson,
} from "../mutation.js";

const isProblem = (response: Response) => response.headers.get("content-type") === "application/problem+json";
const isApiPath = (request: Request) => pathOf(request).startsWith("/v0/");
const isOperationPath = (path: string) => path === PATHS.create || PATHS.page.test(path) || PATHS.subscription.test(path);

/** A problem body with another code (its type and title follow). */
const recoded = (code: string, status?: number) => (body: any) => ({
  ...body,
  code,
  type: `urn:prospectkit:problem:${code}`,
  title: PROBLEM_STATUSES[code as keyof typeof PROBLEM_STATUSES]?.title ?? "Forbidden",
  ...(status !== undefined && { status }),
});

export const API_MUTANTS: readonly Mutant[] = [
  {
    name: "a page is read without a key (served as the caller's)",
    rule: "auth.required",
    make: onRequest((request) => operationOf(request) === "page" && !request.headers.has("x-api-key"), asCaller),
  },
  {
    name: "a missing key is answered invalid_api_key",
    rule: "auth.missing-key",
    make: onAnswer(
      (_, response) => response.status === 401,
      async (response) => changed(response, { body: (body) => (body.code === "missing_api_key" ? recoded("invalid_api_key")(body) : body) }),
    ),
  },
  {
    name: "an empty x-api-key header is taken for an unknown key",
    rule: "auth.missing-key",
    make: onRequest(
      (request) => request.headers.get("x-api-key") === "",
      (request) => withHeaders(request, { "x-api-key": "pk_not_a_key_at_all" }),
    ),
  },
  {
    name: "an unknown key is 403 forbidden",
    rule: "auth.unknown-key",
    make: onAnswer(
      (request, response) => response.status === 401 && request.headers.has("x-api-key"),
      async (response) => changed(response, { status: 403, body: recoded("forbidden", 403) }),
    ),
  },
  {
    name: "keys are compared without regard to case",
    rule: "auth.key-case",
    make: onRequest((request) => request.headers.get("x-api-key")?.toLowerCase() === KEYS.a.toLowerCase(), asCaller),
  },
  {
    name: "a key in the query string is read",
    rule: "auth.header-only",
    make: onRequest(
      (request) => !request.headers.has("x-api-key") && new URL(request.url).searchParams.has("api_key"),
      (request) => withHeaders(request, { "x-api-key": new URL(request.url).searchParams.get("api_key") }),
    ),
  },
  {
    name: "the body is validated before the key",
    rule: "auth.before-validation",
    make: () => async (request, next) => {
      if (hasValidKey(request) || request.method !== "POST" || !request.headers.has("x-api-key")) return next(request);
      const probe = await next(asCaller(request.clone()));
      return probe.status === 400 ? probe : next(request);
    },
  },
  {
    name: "an unknown /v0 path is 404 before the key check",
    rule: "auth.before-route",
    make: onRequest((request) => isApiPath(request) && !isOperationPath(pathOf(request)) && !hasValidKey(request), asCaller),
  },
  {
    name: "the media type is checked before the key",
    rule: "auth.before-body",
    make: onRequest((request) => !hasValidKey(request) && request.headers.get("content-type") === "text/plain", asCaller),
  },
  {
    name: "an unknown /v0 path gets a framework's HTML 404",
    rule: "errors.unknown-route",
    make: () => async (request, next) =>
      isApiPath(request) && !isOperationPath(pathOf(request)) && hasValidKey(request)
        ? new Response("<h1>Cannot GET</h1>", {
            status: 404,
            headers: { "content-type": "text/html", "x-request-id": "req_01hzzzzzzzzzzzzzzzzzzzzzzz" },
          })
        : next(request),
  },
  {
    name: "a path outside /v0 asks for a key",
    rule: "errors.outside-v0",
    make: () => async (request, next) =>
      isApiPath(request) || request.headers.has("x-api-key") ? next(request) : problem("missing_api_key", "Send your key in x-api-key."),
  },
  {
    name: "a 405 has no Allow header",
    rule: "errors.wrong-method",
    make: onAnswer(
      (_, response) => response.status === 405,
      (response) => changed(response, { headers: { allow: null } }),
    ),
  },
  {
    name: "HEAD is not served where GET is",
    rule: "errors.head",
    make: onRequest(
      (request) => request.method === "HEAD",
      (request) => new Request(request.url, { method: "OPTIONS", headers: request.headers }),
    ),
  },
  {
    name: "a page is answered without its published version",
    rule: "operations.success",
    make: onAnswer(
      (request, response) => operationOf(request) === "page" && response.status === 200,
      async (response) => changed(response, { body: ({ publishedVersion: _dropped, ...rest }: any) => rest }),
    ),
  },
  {
    name: "another tenant's key reads the caller's page",
    rule: "operations.other-tenant",
    make: onRequest((request) => operationOf(request) === "page" && request.headers.get("x-api-key") === KEYS.b, asCaller),
  },
  {
    name: "a text/plain body is read as JSON",
    rule: "body.media-type",
    make: onRequest(
      (request) => request.headers.get("content-type") === "text/plain",
      (request) => withHeaders(request, { "content-type": "application/json" }),
    ),
  },
  {
    name: "a Content-Type with a parameter is refused",
    rule: "body.json-media-types",
    make: () => async (request, next) =>
      request.headers.get("content-type")?.includes(";") ? problem("unsupported_media_type", "Send application/json.") : next(request),
  },
  {
    name: "Content-Encoding is ignored",
    rule: "body.content-encoding",
    make: onRequest(
      (request) => request.headers.has("content-encoding"),
      (request) => withHeaders(request, { "content-encoding": null }),
    ),
  },
  {
    name: "no body size limit (a megabyte is parsed)",
    rule: "body.too-large",
    make: onRequest(
      async (request) => (await request.clone().arrayBuffer()).byteLength > 1024 * 1024,
      async (request) => withJson(request, { ...(await bodyOf(request)), prospectkit_verify_padding: "x" }),
    ),
  },
  {
    name: "a body that is not JSON gets a field error",
    rule: "body.malformed",
    make: onAnswer(
      (_, response) => response.status === 400,
      (response) =>
        changed(response, {
          body: (body) =>
            body.errors === undefined ? { ...body, errors: [{ pointer: "", detail: "the body is not JSON", code: "invalid_json" }] } : body,
        }),
    ),
  },
  {
    name: "a body that is not an object is reported at / instead of the root pointer",
    rule: "body.not-object",
    make: onAnswer(
      (_, response) => response.status === 400,
      (response) =>
        changed(response, {
          body: (body) => ({
            ...body,
            ...(body.errors && { errors: body.errors.map((error: any) => (error.pointer === "" ? { ...error, pointer: "/" } : error)) }),
          }),
        }),
    ),
  },
  {
    name: "a number that overflows is read as a large finite one",
    rule: "body.json-limits",
    make: onRequest(
      async (request) => (await request.clone().text()).includes("1e400"),
      async (request) => new Request(request, { body: (await request.clone().text()).replaceAll("1e400", "1e300") }),
    ),
  },
  {
    name: "every JSON limit error is listed, past 100",
    rule: "body.json-limits",
    make: onAnswer(
      (_, response) => response.status === 400,
      (response) =>
        changed(response, { body: (body) => (body.errors?.length === 100 ? { ...body, errors: [...body.errors, body.errors[0]] } : body) }),
    ),
  },
  {
    name: "JSON syntax is checked before the media type",
    rule: "errors.check-order",
    make: () => async (request, next) => {
      if (request.headers.get("content-type") !== "text/plain" || !hasValidKey(request) || (await bodyOf(request)) !== undefined)
        return next(request);
      return next(withHeaders(request, { "content-type": "application/json" }));
    },
  },
  {
    name: "problem bodies have type about:blank",
    rule: "errors.problem-body",
    make: onAnswer(
      (_, response) => isProblem(response),
      (response) => changed(response, { body: (body) => ({ ...body, type: "about:blank" }) }),
    ),
  },
  {
    name: "problem bodies carry an instance member",
    rule: "errors.problem-body",
    make: onAnswer(
      (_, response) => isProblem(response),
      (response) => changed(response, { body: (body) => ({ ...body, instance: "/prospectkit" }) }),
    ),
  },
  {
    name: "request IDs are UUIDs",
    rule: "errors.request-id",
    make: onAnswer(
      () => true,
      (response) => {
        const id = crypto.randomUUID();
        const json = (response.headers.get("content-type") ?? "").includes("json");
        return changed(response, {
          headers: { "x-request-id": id },
          ...(json && { body: (body: any) => ("requestId" in body ? { ...body, requestId: id } : body) }),
        });
      },
    ),
  },
  {
    name: "a body with a field named constructor crashes (500)",
    rule: "errors.never-5xx",
    make: () => async (request, next) =>
      (await request.clone().text()).includes('"constructor"') ? problem("internal_error", "Cannot read properties of undefined") : next(request),
  },
  {
    name: "createdAt is written without milliseconds",
    rule: "timestamps.exact-form",
    make: onAnswer(
      (request, response) => operationOf(request) === "create" && response.status === 201,
      (response) => changed(response, { body: (body) => ({ ...body, createdAt: body.createdAt.replace(/\.\d{3}Z$/, "Z") }) }),
    ),
  },
  {
    name: "an unknown key is named in the 401's detail",
    rule: "secrets.key-never-echoed",
    make: onAnswer(
      (request, response) => response.status === 401 && request.headers.has("x-api-key"),
      (response, request) =>
        changed(response, { body: (body) => ({ ...body, detail: `The key ${request.headers.get("x-api-key")} is not known.` }) }),
    ),
  },
];
