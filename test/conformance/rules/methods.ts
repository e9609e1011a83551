/**
 * Rules (BEHAVIOUR.md, "Errors"): every request gets an answer with `x-request-id`, whatever its
 * method token. A known path with a method it does not serve: 401 when the key is missing or
 * wrong, else 405 with `Allow`. `HEAD` is served wherever `GET` is, answering like `GET` without a
 * body (RFC 9110). (The methods fetch cannot send, CONNECT, TRACE and TRACK, are checked over raw
 * sockets in test/server/methods.test.ts.)
 */
import { METHODS } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { A, KEYS, SUBSCRIPTIONS } from "../fixtures.js";
import { expectProblem, type Harness } from "../harness.js";

/** Each API route's path and the `Allow` of its 405. */
const ROUTES = [
  { path: "/v0/prospect_logs", allow: "POST" },
  { path: `/v0/page_groups/${A.group}/pages/${A.custom}`, allow: "GET, HEAD" },
  { path: `/v0/webhook_subscriptions/${SUBSCRIPTIONS.all}`, allow: "PATCH" },
] as const;

/** Names fetch upper-cases whatever their case (the Fetch standard's "normalize a method"). */
const NORMALISED = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);
const FORBIDDEN = new Set(["CONNECT", "TRACE", "TRACK"]);

/** A method token (RFC 9110 tchar) fetch will carry. */
const token = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,10}$/).filter((m) => !FORBIDDEN.has(m.toUpperCase()));

const asSent = (method: string) => (NORMALISED.has(method.toUpperCase()) ? method.toUpperCase() : method);

/** Whether the target can carry `method` to the mock (see `onlyNodeMethods`). */
const reaches = (h: Harness, method: string) => h.target.onlyNodeMethods !== true || METHODS.includes(asSent(method));

/** Tokens node knows, so that every target gets plenty of them. */
const knownToken = fc.constantFrom(...METHODS.filter((m) => !FORBIDDEN.has(m)));

/** Registers the rules. */
export function methodRules(h: Harness): void {
  describe("every method token on every route: 401 first, then 405 with Allow, always x-request-id", () => {
    it("property: any token a route does not serve is 401 without a valid key and 405 with Allow with one", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(token, knownToken),
          fc.constantFrom(...ROUTES),
          fc.constantFrom<string | null>(KEYS.a, null, "pk_unknown"),
          async (method, route, key) => {
            const sent = asSent(method);
            fc.pre(sent !== "HEAD" && !route.allow.split(", ").includes(sent) && reaches(h, method)); // HEAD: below
            const answer = await h.call(method, route.path, { key });
            expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
            if (key === KEYS.a) {
              expectProblem(answer, 405, "method_not_allowed");
              expect(answer.headers.get("allow")).toBe(route.allow);
            } else {
              expectProblem(answer, 401, key === null ? "missing_api_key" : "invalid_api_key");
            }
          },
        ),
        { numRuns: 60 },
      );
    });

    it("property: any token on an unknown /v0 path is 401 without a key, 404 with one", async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(token, knownToken), fc.boolean(), async (method, withKey) => {
          fc.pre(asSent(method) !== "HEAD" && reaches(h, method));
          const answer = await h.call(method, "/v0/unknown_route", { key: withKey ? KEYS.a : null });
          expectProblem(answer, withKey ? 404 : 401, withKey ? "not_found" : "missing_api_key");
        }),
        { numRuns: 30 },
      );
    });
  });

  describe("HEAD is served wherever GET is, answering like GET without a body", () => {
    it("HEAD on the page route: the GET's status and headers, its content-length, no body", async () => {
      const get = await h.getPage(A.group, A.custom);
      const head = await h.call("HEAD", `/v0/page_groups/${A.group}/pages/${A.custom}`);
      expect(head.status).toBe(200);
      expect(head.text).toBe("");
      expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
      expect(head.headers.get("content-length")).toBe(String(new TextEncoder().encode(get.text).byteLength));
      expect(head.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
    });

    it.each([
      ["an unknown page", `/v0/page_groups/${A.group}/pages/page_missing`, KEYS.a, 404],
      ["no key", `/v0/page_groups/${A.group}/pages/${A.custom}`, null, 401],
      ["a route GET does not serve", "/v0/prospect_logs", KEYS.a, 405],
    ] as const)("HEAD with %s: the GET's error status, no body, x-request-id", async (_, path, key, status) => {
      const head = await h.call("HEAD", path, { key });
      expect(head.status).toBe(status);
      expect(head.text).toBe("");
      expect(head.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
      if (status === 405) expect(head.headers.get("allow")).toBe("POST");
    });
  });
}
