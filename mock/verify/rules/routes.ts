/**
 * Contract rules of routes and methods (spec 9; docs/behaviour.md "Errors"): unknown paths, a
 * method a path does not serve, HEAD. With a valid key these rules send only methods that are safe
 * by definition (RFC 9110, 9.2.1: GET, HEAD, OPTIONS), so no deployment can act on them.
 * @module
 */
import { API_PREFIX } from "../../../src/operation-row.js";
import { OPERATION_TABLE } from "../../../src/operation-table.js";
import { expectEqual, expectProblem, expectStatus } from "../expect.js";
import { pagePath, readPage } from "../inputs.js";
import { OPERATION_SAMPLES } from "../operations/index.js";
import { type ContractRule, expectThat, shown, type VerifyContext } from "../rule.js";
import { allowOf, MISSING } from "./samples.js";

/** Whether a path (without its query) is one an operation's route matches. */
const routed = (path: string): boolean => OPERATION_TABLE.some((row) => new RegExp(`^${row.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));

/**
 * Unknown paths of the API, each checked to match no row's route: one beside the operations, and
 * one below an operation's path (the first whose path with a segment added is no route).
 */
export function unknownPaths(context: VerifyContext): string[] {
  const below = OPERATION_SAMPLES.map((sample) => `${sample.path(context)}/prospectkit_verify_unknown`).find((path) => !routed(path));
  return [`${API_PREFIX}/prospectkit_verify_unknown`, ...(below === undefined ? [] : [below])].filter((path) => !routed(path));
}

/** The rules. */
export const routeRules: readonly ContractRule[] = [
  {
    id: "errors.unknown-route",
    operation: null,
    class: "mock decision",
    title: "an unknown /v0 path is 404 not_found (a path below an operation's, and one beside them)",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      const paths = unknownPaths(context);
      expectThat(paths.length === 2, "expected a path beside the operations and one below an operation's that no route matches", undefined);
      for (const path of paths) expectProblem(await context.send("GET", path), 404, "not_found");
    },
  },
  {
    id: "errors.outside-v0",
    operation: null,
    class: "mock decision",
    title: "a path outside /v0 is not the API's: 404 not_found before any key check",
    source: "spec 9; docs/behaviour.md, Errors",
    async run(context) {
      expectProblem(await context.send("GET", "/prospectkit_verify_unknown", { key: "none" }), 404, "not_found");
    },
  },
  {
    id: "errors.wrong-method",
    operation: null,
    class: "mock decision",
    title:
      "every operation's path answers a method it does not serve (OPTIONS, safe by definition) 405 method_not_allowed with Allow naming its methods",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      for (const sample of OPERATION_SAMPLES) {
        const exchange = await context.send("OPTIONS", sample.path(context));
        expectProblem(exchange, 405, "method_not_allowed");
        const allow = (exchange.answer.headers.get("allow") ?? "").split(",").map((token) => token.trim().toUpperCase());
        expectThat(
          shown(allow.sort()) === shown(allowOf(sample.route).sort()),
          `expected Allow: ${allowOf(sample.route).join(", ")}, got ${exchange.answer.headers.get("allow") ?? "none"}`,
          exchange,
        );
      }
    },
  },
  {
    id: "errors.head",
    operation: null,
    class: "mock decision",
    title: "HEAD is served wherever GET is: the page's status and headers without a body, content-length the GET body's; a missing page 404",
    source: "docs/behaviour.md, Errors",
    needs: ["page"],
    async run(context) {
      const get = await readPage(context);
      expectStatus(get, 200);
      const head = await context.send("HEAD", pagePath(context.page!.pageGroupId, context.page!.pageId));
      expectStatus(head, 200);
      expectEqual(head.answer.text, "", "no body", head);
      const length = String(new TextEncoder().encode(get.answer.text).byteLength);
      expectEqual(head.answer.headers.get("content-length"), length, "content-length (the GET body's)", head);
      expectEqual(head.answer.headers.get("content-type"), get.answer.headers.get("content-type"), "content-type (the GET answer's)", head);
      const missing = await context.send("HEAD", pagePath(context.page!.pageGroupId, MISSING.pageId));
      expectStatus(missing, 404);
      expectEqual(missing.answer.text, "", "no body", missing);
    },
  },
];
