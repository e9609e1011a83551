/**
 * Contract rules of routes and methods (spec 9; docs/behaviour.md "Errors"): unknown paths, a
 * method a path does not serve, HEAD. With a valid key these rules send only methods that are safe
 * by definition (RFC 9110, 9.2.1: GET, HEAD, OPTIONS), so no deployment can act on them.
 * @module
 */
import { API_PREFIX } from "../../../src/operation-row.js";
import { expectEqual, expectProblem, expectStatus } from "../expect.js";
import { readPage } from "../inputs.js";
import { OPERATION_SAMPLES, sampleOf } from "../operations/index.js";
import { type ContractRule, expectThat, shown } from "../rule.js";
import { allowOf } from "./samples.js";

const page = sampleOf("getPage");

/** The rules. */
export const routeRules: readonly ContractRule[] = [
  {
    id: "errors.unknown-route",
    operation: null,
    class: "mock decision",
    title: "an unknown /v0 path is 404 not_found (a path below an operation's, and one beside them)",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      for (const path of [`${API_PREFIX}/prospectkit_verify_unknown`, `${sampleOf("createProspectLog").path(context)}/prospectkit_verify_unknown`])
        expectProblem(await context.send("GET", path), 404, "not_found");
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
      const head = await context.send("HEAD", page.path(context));
      expectStatus(head, 200);
      expectEqual(head.answer.text, "", "no body", head);
      const length = String(new TextEncoder().encode(get.answer.text).byteLength);
      expectEqual(head.answer.headers.get("content-length"), length, "content-length (the GET body's)", head);
      expectEqual(head.answer.headers.get("content-type"), get.answer.headers.get("content-type"), "content-type (the GET answer's)", head);
      const missing = await context.send("HEAD", page.missingPath(context));
      expectStatus(missing, 404);
      expectEqual(missing.answer.text, "", "no body", missing);
    },
  },
];
