/** Contract rules of the API as a whole: authentication (spec 5), errors and routes (docs/behaviour.md "Errors"). */
import { API_PREFIX, createProspectLogRoute } from "../../../src/operations.js";
import { expectProblem, expectRefused } from "../expect.js";
import { type ContractRule, expectThat } from "../rule.js";
import { VERIFY_SOURCE } from "./create-prospect-log.js";
import { pagePath } from "./get-page.js";
import { subscriptionPath } from "./update-subscription.js";

const LOG = { source: VERIFY_SOURCE, payload: { check: "prospectkit-verify" } };

/** The rules. */
export const apiRules: readonly ContractRule[] = [
  {
    id: "auth.required",
    operation: null,
    class: "spec",
    title: "every operation refuses a request without x-api-key",
    source: "spec 5 rule 1",
    async run(context) {
      const page = context.page ?? { pageGroupId: "pagegroup_prospectkit_verify", pageId: "page_prospectkit_verify" };
      expectRefused(await context.send("POST", createProspectLogRoute.path, { key: "none", json: LOG }));
      expectRefused(await context.send("GET", pagePath(page.pageGroupId, page.pageId), { key: "none" }));
      const subscription = context.subscription ?? "webhooksubscription_prospectkit_verify";
      expectRefused(await context.send("PATCH", subscriptionPath(subscription), { key: "none", json: {} }));
    },
  },
  {
    id: "auth.missing-key",
    operation: null,
    class: "mock decision",
    title: "a request without x-api-key is 401 missing_api_key",
    source: "docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      expectProblem(await context.send("POST", createProspectLogRoute.path, { key: "none", json: LOG }), 401, "missing_api_key");
    },
  },
  {
    id: "auth.unknown-key",
    operation: null,
    class: "mock decision",
    title: "an unknown key is 401 invalid_api_key (never 403)",
    source: "docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      expectProblem(await context.send("POST", createProspectLogRoute.path, { key: "unknown", json: LOG }), 401, "invalid_api_key");
    },
  },
  {
    id: "auth.before-validation",
    operation: null,
    class: "mock decision",
    title: "authentication is checked first: an unknown key with an invalid body is 401, not 400",
    source: "docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      expectProblem(await context.send("POST", createProspectLogRoute.path, { key: "unknown", json: { source: "" } }), 401, "invalid_api_key");
    },
  },
  {
    id: "errors.unknown-route",
    operation: null,
    class: "mock decision",
    title: "an unknown /v0 path is 404 not_found",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      expectProblem(await context.send("GET", `${API_PREFIX}/prospectkit_verify_unknown`), 404, "not_found");
    },
  },
  {
    id: "errors.wrong-method",
    operation: null,
    class: "mock decision",
    title: "a known path with a method it does not serve is 405 method_not_allowed with Allow",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      const exchange = await context.send("DELETE", createProspectLogRoute.path);
      expectProblem(exchange, 405, "method_not_allowed");
      expectThat(
        exchange.answer.headers.get("allow") === "POST",
        `expected Allow: POST, got ${exchange.answer.headers.get("allow") ?? "none"}`,
        exchange,
      );
    },
  },
];

/** Runs last: it also reads every answer the earlier rules got. */
export const keyRule: ContractRule = {
  id: "secrets.key-never-echoed",
  operation: null,
  class: "mock decision",
  title: "no answer carries an API key it was sent (an error detail, a body, a header)",
  source: "docs/behaviour.md, Authentication and tenancy",
  async run(context) {
    await context.send("POST", createProspectLogRoute.path, { key: "unknown", json: LOG });
    await context.send("POST", createProspectLogRoute.path, { json: { ...LOG, name: "" } });
    const echoes = context.keyEchoes();
    expectThat(echoes.length === 0, `${echoes.length} answer(s) carried the API key sent (shown here as [redacted])`, echoes[0]);
  },
};
