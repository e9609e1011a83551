/**
 * The contract rules that ship with `prospectkit-mock verify` (mock/verify/rules/), run here
 * through the same black-box harness `verify` uses, its requests handed to the target instead of
 * the network: one source of rules, two harnesses. The mock behind provides the inputs a real
 * deployment gets from the command line (a published page, a subscription with an events list,
 * another tenant's key), and its clock moves a millisecond per request, as a deployment's does
 * (the suite's is frozen otherwise). A rule skipped here fails: every input is given.
 */
import { describe, expect, it } from "vitest";
import { createHttpContext, Unreachable } from "../../../mock/verify/http-context.js";
import { CONTRACT_RULES } from "../../../mock/verify/rules/index.js";
import { A, KEYS, SUBSCRIPTIONS } from "../fixtures.js";
import type { Harness } from "../harness.js";

/** The rules that send a request outside /v0, which MSW's handlers leave to the network (the target says so). */
const OUTSIDE_V0 = new Set(["errors.outside-v0"]);

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
        fetch: (url, init) => {
          h.advance(1);
          return h.target.send(new Request(url, init));
        },
      });
      if (OUTSIDE_V0.has(rule.id) && h.target.answersOutsideV0 === false) await expect(rule.run(context)).rejects.toThrow(Unreachable);
      else await rule.run(context);
    });
  });
}
