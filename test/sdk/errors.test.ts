import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  ProspectKitError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
} from "../../src/index.js";
import { caught, clientFor, createBody } from "./support/fixtures.js";
import { problem, type Scripted, useServer } from "./support/http-server.js";

const server = useServer();

const noRetry = { maxRetries: 0 };

const STATUS_CLASSES = [
  [400, BadRequestError, "BadRequestError", "invalid_request"],
  [401, AuthenticationError, "AuthenticationError", "invalid_api_key"],
  [403, PermissionDeniedError, "PermissionDeniedError", "forbidden"],
  [404, NotFoundError, "NotFoundError", "not_found"],
  [405, APIError, "APIError", "method_not_allowed"],
  [409, ConflictError, "ConflictError", "idempotency_request_in_progress"],
  [413, APIError, "APIError", "payload_too_large"],
  [415, APIError, "APIError", "unsupported_media_type"],
  [422, UnprocessableEntityError, "UnprocessableEntityError", "idempotency_key_reused"],
  [429, RateLimitError, "RateLimitError", "rate_limited"],
  [500, InternalServerError, "InternalServerError", "internal_error"],
  [502, InternalServerError, "InternalServerError", "bad_gateway"],
  [503, InternalServerError, "InternalServerError", "unavailable"],
] as const;

describe("issue 3.6: each error status gives its own class, with the problem body's fields", () => {
  it.each(STATUS_CLASSES)("%i gives %O", async (status, ErrorClass, kind, code) => {
    const answer = problem(status, code);
    server.script(answer);
    const error = (await caught(clientFor(server.url, noRetry).createProspectLog(createBody))) as APIError;
    expect(error).toBeInstanceOf(ErrorClass);
    expect(ErrorClass.is(error)).toBe(true);
    expect(APIError.is(error)).toBe(true);
    expect(ProspectKitError.is(error)).toBe(true);
    expect(error).toMatchObject({ kind, name: kind, status, code, detail: `${code} happened`, attempts: 1 });
    expect(error.requestId).toBe((answer.headers as Record<string, string>)["x-request-id"]);
    expect(error.problem).toEqual(answer.body);
    expect(error.body).toEqual(answer.body);
    expect(error.headers.get("content-type")).toBe("application/problem+json");
    expect(error.message).toBe(`${status} ${code}: ${code} happened (request ${error.requestId})`);
  });

  it("a 400 carries every field error of the problem body", async () => {
    const errors = [
      { pointer: "/source", detail: "source is required", code: "required" },
      { pointer: "/email", detail: "email must be a valid email address", code: "invalid_format" },
    ];
    server.script(problem(400, "invalid_request", { errors }));
    const error = (await caught(clientFor(server.url).createProspectLog(createBody))) as BadRequestError;
    expect(error.problem?.errors).toEqual(errors);
  });
});

describe("issue 3.6: a body that is not a problem document still gives the right class", () => {
  it.each<[string, Scripted, typeof APIError, unknown]>([
    ["an empty 404", { status: 404 }, NotFoundError, undefined],
    [
      "an HTML 502 from a proxy",
      { status: 502, headers: { "content-type": "text/html" }, body: "<h1>Bad Gateway</h1>" },
      InternalServerError,
      "<h1>Bad Gateway</h1>",
    ],
    [
      "malformed JSON in a 400",
      { status: 400, headers: { "content-type": "application/problem+json" }, body: '{"code": "invalid_req' },
      BadRequestError,
      '{"code": "invalid_req',
    ],
    ["a JSON array in a 403", { status: 403, body: [1, 2] }, PermissionDeniedError, [1, 2]],
    ["plain text in a 401", { status: 401, headers: { "content-type": "text/plain" }, body: "nope" }, AuthenticationError, "nope"],
    ["an empty 418", { status: 418 }, APIError, undefined],
  ])("%s", async (_rule, answer, ErrorClass, body) => {
    server.script(answer);
    const error = (await caught(clientFor(server.url, noRetry).getPage({ pageGroupId: "g", pageId: "p" }))) as APIError;
    expect(ErrorClass.is(error)).toBe(true);
    expect(error.kind).toBe(ErrorClass.name);
    expect(error.problem).toBeUndefined();
    expect(error.body).toEqual(body);
    expect(error.requestId).toMatch(/^req_/);
    expect(error.message).toMatch(new RegExp(`^${answer.status} `));
  });

  it("a JSON object that is not a full problem document still lends its code and detail", async () => {
    server.script({
      status: 409,
      body: { code: "idempotency_request_in_progress", detail: "wait", requestId: "req_body" },
      headers: { "x-request-id": "" },
    });
    const error = (await caught(clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }))) as ConflictError;
    expect(error).toMatchObject({ code: "idempotency_request_in_progress", detail: "wait", problem: undefined });
  });
});

describe("issue 3.6: every failure is a ProspectKitError of its own class, with a type guard per class", () => {
  const everyClass = [
    ProspectKitError,
    ConfigurationError,
    RequestValidationError,
    ResponseValidationError,
    APIConnectionError,
    APITimeoutError,
    APIUserAbortError,
    APIError,
    ...STATUS_CLASSES.map(([, ErrorClass]) => ErrorClass),
  ];

  it.each([...new Set(everyClass)].map((ErrorClass) => [ErrorClass.name, ErrorClass] as const))(
    "%s.is() rejects what is not a prospectkit error",
    (_name, ErrorClass) => {
      for (const value of [new Error("x"), new TypeError("x"), null, undefined, "APIError", { kind: ErrorClass.name, name: ErrorClass.name }]) {
        expect(ErrorClass.is(value)).toBe(false);
        expect(value instanceof ErrorClass).toBe(false);
      }
    },
  );

  it("a subclass is its parent's kind too, never a sibling's", async () => {
    server.script(problem(429, "rate_limited"));
    const error = await caught(clientFor(server.url, noRetry).getPage({ pageGroupId: "g", pageId: "p" }));
    expect([RateLimitError.is(error), APIError.is(error), ProspectKitError.is(error)]).toEqual([true, true, true]);
    expect([InternalServerError.is(error), APIConnectionError.is(error), NotFoundError.is(error)]).toEqual([false, false, false]);
  });

  it("a timeout is a connection error; a user abort is not (so retrying on connection errors never repeats an abort)", () => {
    const timeout = new APITimeoutError("t", 1);
    const abort = new APIUserAbortError(1);
    expect([APIConnectionError.is(timeout), APIConnectionError.is(abort), ProspectKitError.is(abort)]).toEqual([true, false, true]);
  });
});
