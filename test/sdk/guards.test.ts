import { runInNewContext } from "node:vm";
import { build } from "esbuild";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as sdk from "../../src/index.js";

type Sdk = typeof sdk;
const fields = {
  status: 429,
  code: "rate_limited",
  detail: "slow down",
  problem: undefined,
  body: undefined,
  headers: new Headers(),
  requestId: "r",
  attempts: 1,
  retryAfterMs: 5,
};

/** Makes one error of every class with `copy`'s classes, as the copy's own code would. */
function errorsOf(copy: Sdk) {
  return [
    new copy.RateLimitError("m", fields),
    new copy.NotFoundError("m", { ...fields, status: 404 }),
    new copy.APITimeoutError("t", 1),
    new copy.APIUserAbortError(1),
    new copy.RequestValidationError("getPage", []),
    new copy.ConfigurationError("c"),
  ];
}

/** Which classes each error of `errorsOf` belongs to, by name. */
const MEMBERSHIP: [string, string[]][] = [
  ["RateLimitError", ["RateLimitError", "APIError", "ProspectKitError"]],
  ["NotFoundError", ["NotFoundError", "APIError", "ProspectKitError"]],
  ["APITimeoutError", ["APITimeoutError", "APIConnectionError", "ProspectKitError"]],
  ["APIUserAbortError", ["APIUserAbortError", "ProspectKitError"]],
  ["RequestValidationError", ["RequestValidationError", "ProspectKitError"]],
  ["ConfigurationError", ["ConfigurationError", "ProspectKitError"]],
];
const CLASS_NAMES = [
  "ProspectKitError",
  "APIError",
  "RateLimitError",
  "NotFoundError",
  "InternalServerError",
  "APIConnectionError",
  "APITimeoutError",
  "APIUserAbortError",
  "RequestValidationError",
  "ResponseValidationError",
  "ConfigurationError",
] as const;

function expectGuardsAgree(errors: unknown[]) {
  errors.forEach((error, index) => {
    const [kind, memberOf] = MEMBERSHIP[index]!;
    expect((error as sdk.ProspectKitError).kind).toBe(kind);
    for (const name of CLASS_NAMES) {
      const ErrorClass = sdk[name];
      const expected = memberOf.includes(name);
      expect(ErrorClass.is(error), `${kind} is ${name}`).toBe(expected);
      expect(error instanceof ErrorClass, `${kind} instanceof ${name}`).toBe(expected);
    }
  });
}

describe("issue 3.6: the type guards work on errors from a duplicate copy of the package", () => {
  let copy: Sdk;
  beforeAll(async () => {
    vi.resetModules();
    copy = (await import("../../src/index.js")) as Sdk;
  });

  it("the copy really has its own classes", () => {
    expect(copy.RateLimitError).not.toBe(sdk.RateLimitError);
    expect(Object.getPrototypeOf(new copy.RateLimitError("m", fields))).not.toBe(sdk.RateLimitError.prototype);
  });

  it("is() and instanceof agree, for every class", () => {
    expectGuardsAgree(errorsOf(copy));
  });
});

describe("issue 3.6: the type guards work on errors from another realm", () => {
  let realm: Sdk;
  beforeAll(async () => {
    const bundle = await build({
      entryPoints: ["src/index.ts"],
      bundle: true,
      write: false,
      format: "iife",
      globalName: "prospectkit",
      platform: "neutral",
      logLevel: "silent",
    });
    realm = runInNewContext(`${bundle.outputFiles[0]!.text}; prospectkit`, { Headers, URL, TextEncoder, TextDecoder, crypto }) as Sdk;
  });

  it("the other realm has its own Error", () => {
    const error = new realm.ConfigurationError("c");
    expect(error instanceof Error).toBe(false);
  });

  it("is() and instanceof agree, for every class", () => {
    expectGuardsAgree(errorsOf(realm));
  });
});
