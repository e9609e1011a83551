/**
 * Contract rules of authentication (spec 5; docs/behaviour.md "Authentication and tenancy"), each
 * over every operation of the operation table (rules/samples.ts). Only requests without a valid
 * key go anywhere but each operation's own method and path. A rule that needs one operation as its vehicle
 * chooses it by what its row says (operations/index.ts).
 * @module
 */
import { API_PREFIX } from "../../../src/operation-row.js";
import { expectProblem, expectRefused } from "../expect.js";
import { BODY_SAMPLES, OPERATION_SAMPLES, READ_SAMPLE, RESOURCE_WRITE_SAMPLE, WRITE_SAMPLE } from "../operations/index.js";
import { type ContractRule, type KeyChoice, RuleSkipped, type VerifyContext } from "../rule.js";
import { oversizedBody, type Sample } from "./samples.js";

/** Sends an operation's sample request with this key (and its valid body). */
const sendSample = (context: VerifyContext, sample: Sample, key: KeyChoice) =>
  context.send(sample.route.method, sample.path(context), { key, ...(sample.body !== undefined && { json: sample.body }) });

const create = WRITE_SAMPLE;

/** The rules. */
export const authRules: readonly ContractRule[] = [
  {
    id: "auth.required",
    operation: null,
    class: "spec",
    title: "every operation refuses a request without x-api-key",
    source: "spec 5 rule 1",
    async run(context) {
      for (const sample of OPERATION_SAMPLES) expectRefused(await sendSample(context, sample, "none"));
    },
  },
  {
    id: "auth.missing-key",
    operation: null,
    class: "mock decision",
    title: "every operation answers a request without x-api-key, or with an empty one, 401 missing_api_key",
    source: "docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      for (const sample of OPERATION_SAMPLES) expectProblem(await sendSample(context, sample, "none"), 401, "missing_api_key");
      expectProblem(await sendSample(context, create, "empty"), 401, "missing_api_key");
    },
  },
  {
    id: "auth.unknown-key",
    operation: null,
    class: "mock decision",
    title: "every operation answers an unknown key 401 invalid_api_key (never 403)",
    source: "docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      for (const sample of OPERATION_SAMPLES) expectProblem(await sendSample(context, sample, "unknown"), 401, "invalid_api_key");
    },
  },
  {
    id: "auth.key-case",
    operation: null,
    class: "mock decision",
    title: "a key is compared exactly: the caller's key with the case of its letters swapped is 401 invalid_api_key",
    source: "docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      // A GET: were the swapped key taken for the caller's, the request would still be a read.
      if (!context.keyHasLetters) throw new RuleSkipped("the key has no letters, so no other case of it exists");
      expectProblem(await sendSample(context, READ_SAMPLE, "recased"), 401, "invalid_api_key");
    },
  },
  {
    id: "auth.header-only",
    operation: null,
    class: "mock decision",
    title: "a key in the query string or in the body is never read: without the header the answer is 401 missing_api_key",
    source: "spec 5 rule 2; docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      // A key no deployment knows: a deployment that reads it answers invalid_api_key, one that ignores it missing_api_key.
      const key = encodeURIComponent(context.unknownKey);
      const query = `${create.path(context)}?x-api-key=${key}&api_key=${key}&apiKey=${key}`;
      expectProblem(await context.send(create.route.method, query, { key: "none", json: create.body }), 401, "missing_api_key");
      const body = { ...create.body, apiKey: context.unknownKey, "x-api-key": context.unknownKey };
      expectProblem(await context.send(create.route.method, create.path(context), { key: "none", json: body }), 401, "missing_api_key");
    },
  },
  {
    id: "auth.before-validation",
    operation: null,
    class: "mock decision",
    title: "authentication comes first: an unknown key with an invalid body is 401, not 400",
    source: "docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      for (const sample of BODY_SAMPLES)
        expectProblem(
          await context.send(sample.route.method, sample.path(context), { key: "unknown", json: { source: "" } }),
          401,
          "invalid_api_key",
        );
    },
  },
  {
    id: "auth.before-route",
    operation: null,
    class: "mock decision",
    title: "authentication comes first: without a key an unknown /v0 path is 401, not 404, and a method a path does not serve is 401, not 405",
    source: "docs/behaviour.md, Authentication and tenancy; Errors",
    async run(context) {
      expectProblem(await context.send("GET", `${API_PREFIX}/prospectkit_verify_unknown`, { key: "none" }), 401, "missing_api_key");
      // DELETE without a valid key: nothing any deployment can act on.
      for (const sample of OPERATION_SAMPLES)
        expectProblem(await context.send("DELETE", sample.path(context), { key: "none" }), 401, "missing_api_key");
    },
  },
  {
    id: "auth.before-body",
    operation: null,
    class: "mock decision",
    title:
      "authentication comes first: without a valid key a body that is not JSON is 401, not 415; one over 1 MiB 401, not 413; a missing subscription 401, not 404",
    source: "docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      for (const sample of BODY_SAMPLES)
        expectProblem(
          await context.send(sample.route.method, sample.path(context), { key: "none", raw: "x", contentType: "text/plain" }),
          401,
          "missing_api_key",
        );
      expectProblem(await context.send(create.route.method, create.path(context), { key: "none", raw: oversizedBody(1) }), 401, "missing_api_key");
      const resource = RESOURCE_WRITE_SAMPLE;
      expectProblem(
        await context.send(resource.route.method, resource.missingPath(context), { key: "unknown", json: resource.body }),
        401,
        "invalid_api_key",
      );
    },
  },
];
