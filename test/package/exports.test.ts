/**
 * The public surface, pinned: the runtime exports of every entry point of the packed package,
 * loaded from an empty project (`prospectkit/mock` with the repository's msw linked in for one
 * test). A new export (or a lost one) fails here, so it is a decision made in review, not an
 * accident of an `export *`. And `prospectkit/mock` without msw installed fails
 * with one error that names the fix, under `import` and under `require`.
 */
import { execFileSync } from "node:child_process";
import { symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { OPERATION_DOCS } from "../../mock/openapi/operation-docs.js";
import { OPERATIONS } from "../../src/operation-table.js";
import { installIntoEmptyProject } from "./pack.js";

/**
 * Every operation of the table is public with the schemas its row names (each row's function
 * and its request and result schemas: `src/index.ts` exports them by rule), so the pin derives
 * them from the rows; every other name is pinned here.
 */
const BY_ROW = [
  ...OPERATIONS,
  ...Object.values(OPERATION_DOCS).flatMap(({ schemas }) => [schemas.request, schemas.result].filter((name) => name !== undefined)),
];

const SDK = [
  ...new Set(BY_ROW),
  "APIConnectionError",
  "APIError",
  "APITimeoutError",
  "APIUserAbortError",
  "AuthenticationError",
  "BadRequestError",
  "ConfigurationError",
  "ConflictError",
  "DEFAULT_PROSPECT_LOG_TYPE",
  "DEFAULT_WEBHOOK_TOLERANCE_SECONDS",
  "DateTime",
  "E164_PATTERN",
  "ERROR_CODES",
  "FieldError",
  "HttpUrl",
  "InternalServerError",
  "JsonObjectSchema",
  "MAX_URL_LENGTH",
  "NotFoundError",
  "OpaqueId",
  "PROBLEM_CONTENT_TYPE",
  "PROSPECT_ID_PATTERN",
  "PROSPECT_LOG_ID_PATTERN",
  "PermissionDeniedError",
  "ProblemDetails",
  "ProspectId",
  "ProspectKitError",
  "ProspectLogId",
  "PublishedVersion",
  "RateLimitError",
  "RequestValidationError",
  "ResponseValidationError",
  "UnprocessableEntityError",
  "WEBHOOK_EVENT_KINDS",
  "WEBHOOK_HEADERS",
  "WEBHOOK_SECRET_PREFIX",
  "WebhookEvent",
  "WebhookEventKind",
  "WebhookEventKindInResponse",
  "WebhookVerificationError",
  "createBaseClient",
  "createClient",
  "signWebhook",
  "verifyWebhook",
];

const MOCK_CORE = [
  "DEFAULT_API_KEY",
  "DEFAULT_BASE_URL",
  "DEFAULT_COMPUTED_NAME",
  "DEFAULT_MAX_TENANTS",
  "DEFAULT_SEED",
  "FORM_EVENT_KINDS",
  "IDEMPOTENCY_WINDOW_MS",
  "MAX_BODY_BYTES",
  "MockStateError",
  "OPERATIONS",
  "WEBHOOK_EVENT_KINDS",
  "createMockApi",
  "normaliseLinkedinUrl",
  "persistState",
];

/** prospectkit/mock: everything of prospectkit/mock/core, and what needs msw. */
const MOCK = [...MOCK_CORE, "createMswHandlers", "unhandledRequests"];

const SERVER = ["StateFileError", "mockServer", "startMockServer"];

/** prospectkit/mock/vitest: the request matchers, for Vitest's and Jest's `expect.extend` (types apart). */
const VITEST = ["matchers"];

describe("the packed package's public surface", () => {
  let dir: string;
  beforeAll(() => {
    dir = installIntoEmptyProject(inject("tarball"));
  }, 120_000);

  const run = (file: string, source: string) => {
    writeFileSync(join(dir, file), source);
    return execFileSync(process.execPath, [file], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  };
  const keysOf = (entry: string, flavour: "import" | "require") =>
    JSON.parse(
      flavour === "import"
        ? run(
            "keys.mjs",
            `const m = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(m).filter((k) => k !== "default").sort()));`,
          )
        : run("keys.cjs", `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(entry)})).sort()));`),
    ) as string[];

  it.each([
    ["prospectkit", SDK],
    ["prospectkit/mock/core", MOCK_CORE],
    ["prospectkit/mock/server", SERVER],
    ["prospectkit/mock/vitest", VITEST],
  ] as const)("%s exports exactly the pinned names, under import and require", (entry, pinned) => {
    expect(keysOf(entry, "import")).toEqual([...pinned].sort());
    expect(keysOf(entry, "require")).toEqual([...pinned].sort());
  });

  it("prospectkit/mock exports exactly the pinned names, under import and require (with msw linked in)", () => {
    const msw = join(dir, "node_modules/msw");
    symlinkSync(join(import.meta.dirname, "../../node_modules/msw"), msw, "dir");
    try {
      expect(keysOf("prospectkit/mock", "import")).toEqual([...MOCK].sort());
      expect(keysOf("prospectkit/mock", "require")).toEqual([...MOCK].sort());
    } finally {
      unlinkSync(msw);
    }
  });

  it.each(["import", "require"] as const)(
    "prospectkit/mock without msw: one error naming npm install --save-dev msw and prospectkit/mock/core (%s)",
    (flavour) => {
      const source =
        flavour === "import"
          ? `try { await import("prospectkit/mock"); console.log("loaded"); } catch (error) { console.log(JSON.stringify([error.message, error.code])); }`
          : `try { require("prospectkit/mock"); console.log("loaded"); } catch (error) { console.log(JSON.stringify([error.message, error.code])); }`;
      const [message, code] = JSON.parse(run(flavour === "import" ? "no-msw.mjs" : "no-msw.cjs", source)) as [string, string];
      expect(message).toContain("npm install --save-dev msw");
      expect(message).toContain("prospectkit/mock/core");
      expect(code).toBe("ERR_MODULE_NOT_FOUND");
    },
  );
});
