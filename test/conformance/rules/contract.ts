/**
 * The contract rules that ship with `prospectkit-mock verify` (mock/verify/rules/), run here
 * through the same black-box harness `verify` uses, its requests handed to the target instead of
 * the network: one source of rules, two harnesses. The mock behind provides the inputs a real
 * deployment gets from the command line (a published page, a subscription with an events list,
 * another tenant's key). A rule skipped here fails: every input is given.
 */
import { describe, it } from "vitest";
import { createHttpContext } from "../../../mock/verify/http-context.js";
import { CONTRACT_RULES } from "../../../mock/verify/rules/index.js";
import { A, KEYS, SUBSCRIPTIONS } from "../fixtures.js";
import type { Harness } from "../harness.js";

/** Registers the rules. */
export function contractRules(h: Harness): void {
  describe("contract rules shipped with verify (black box: HTTP only)", () => {
    it.each(CONTRACT_RULES.map((rule) => [`${rule.id} (${rule.class}): ${rule.title}`, rule] as const))("%s", async (_, rule) => {
      const context = createHttpContext({
        baseUrl: h.target.baseUrl ?? h.api.baseUrl,
        apiKey: KEYS.a,
        otherTenantKey: KEYS.b,
        page: { pageGroupId: A.group, pageId: A.custom },
        subscription: SUBSCRIPTIONS.list,
        maxRequests: Number.POSITIVE_INFINITY,
        rate: Number.POSITIVE_INFINITY,
        fetch: (url, init) => h.target.send(new Request(url, init)),
      });
      await rule.run(context);
    });
  });
}
