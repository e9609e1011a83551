/**
 * Rules: RFC 9457 problem bodies, x-request-id on every response, 404 unknown routes, 405 with
 * Allow, 415 non-JSON bodies, 413 over 1 MiB, 400 malformed or non-object JSON.
 */
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../../mock/index.js";
import { A, KEYS, SUBSCRIPTIONS } from "../fixtures.js";
import { expectFieldErrors, expectProblem, type Harness } from "../harness.js";

const LOG_PATH = "/v0/prospect_logs";
const PAGE_PATH = `/v0/page_groups/${A.group}/pages/${A.custom}`;
const SUB_PATH = `/v0/webhook_subscriptions/${SUBSCRIPTIONS.all}`;

/** A valid create body of exactly `bytes` bytes (ASCII, so characters = bytes). */
function bodyOfSize(bytes: number): string {
  const empty = JSON.stringify({ source: "crm", payload: { pad: "" } });
  return JSON.stringify({ source: "crm", payload: { pad: "p".repeat(bytes - empty.length) } });
}

/** Registers the rules. */
export function errorRules(h: Harness): void {
  describe("every response carries x-request-id; every error is application/problem+json", () => {
    it.each([
      ["a 201", "POST", LOG_PATH, { json: { source: "crm", payload: {} } }, 201],
      ["a 200 (get page)", "GET", PAGE_PATH, {}, 200],
      ["a 200 (update subscription)", "PATCH", SUB_PATH, { json: {} }, 200],
      ["a 400", "POST", LOG_PATH, { json: {} }, 400],
      ["a 401", "GET", PAGE_PATH, { key: null }, 401],
      ["a 404", "GET", "/v0/nothing", {}, 404],
      ["a 405", "PUT", LOG_PATH, {}, 405],
    ] as const)("%s has an x-request-id of the form req_ + lower-case ULID", async (_, method, path, options, status) => {
      const answer = await h.call(method, path, options);
      expect(answer.status).toBe(status);
      expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
      if (status >= 400) expect(answer.body.requestId).toBe(answer.headers.get("x-request-id"));
    });

    it("every request gets its own request ID", async () => {
      const answers = await Promise.all([1, 2, 3].map(() => h.getPage(A.group, A.custom)));
      expect(new Set(answers.map((a) => a.headers.get("x-request-id"))).size).toBe(3);
    });

    it("a problem body has type, title, status, detail, code and requestId", async () => {
      const answer = await h.call("GET", "/v0/nothing");
      expectProblem(answer, 404, "not_found");
      expect(Object.keys(answer.body).sort()).toEqual(["code", "detail", "requestId", "status", "title", "type"]);
      expect(answer.body.title).toBe("Not found");
    });

    it("a success is application/json", async () => {
      expect((await h.getPage(A.group, A.custom)).headers.get("content-type")).toBe("application/json");
    });
  });

  describe("404 not_found: unknown routes", () => {
    it.each([
      ["/v0"],
      ["/v0/"],
      ["/v0/prospect_logs/extra"],
      ["/v0/prospect_logs/"],
      ["/v0/page_groups/g/pages"],
      ["/v0/page_groups//pages/p"],
      ["/v0/webhook_subscriptions/"],
      ["/v0/webhook_subscriptions/a/b"],
      ["/v0/PROSPECT_LOGS"],
      ["/v0/page_groups/%E0%A4%A/pages/p"],
    ])("GET %s answers 404 not_found", async (path) => {
      expectProblem(await h.call("GET", path), 404, "not_found");
    });

    it.each([["/v1/prospect_logs"], ["/prospect_logs"], ["/"]])(
      "a path outside /v0 (%s) is not the API's: 404 without asking for a key, or left unhandled",
      async (path) => {
        if (h.target.answersOutsideV0 === false) {
          await expect(h.call("POST", path, { key: null, json: {} })).rejects.toThrow(TypeError);
          expect(h.api.requests.size).toBe(0);
        } else {
          expectProblem(await h.call("POST", path, { key: null, json: {} }), 404, "not_found");
        }
      },
    );
  });

  describe("405 method_not_allowed: a known path with another method, with Allow", () => {
    it.each([
      ["GET", LOG_PATH, "POST"],
      ["PUT", LOG_PATH, "POST"],
      ["PATCH", LOG_PATH, "POST"],
      ["POST", PAGE_PATH, "GET, HEAD"],
      ["PATCH", PAGE_PATH, "GET, HEAD"],
      ["DELETE", PAGE_PATH, "GET, HEAD"],
      ["GET", SUB_PATH, "PATCH"],
      ["PUT", SUB_PATH, "PATCH"],
      ["POST", SUB_PATH, "PATCH"],
      ["DELETE", SUB_PATH, "PATCH"],
    ])("%s %s answers 405 with Allow: %s", async (method, path, allow) => {
      const answer = await h.call(method, path);
      expectProblem(answer, 405, "method_not_allowed");
      expect(answer.headers.get("allow")).toBe(allow);
    });
  });

  describe("415 unsupported_media_type: a POST or PATCH body that is not JSON", () => {
    const body = new TextEncoder().encode(JSON.stringify({ source: "crm", payload: {} }));
    it.each([
      ["no Content-Type", null],
      ["text/plain", "text/plain"],
      ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded"],
      ["multipart/form-data", "multipart/form-data; boundary=x"],
      ["application/jsonx", "application/jsonx"],
      ["text/json", "text/json"],
    ])("POST with %s answers 415", async (_, contentType) => {
      expectProblem(await h.call("POST", LOG_PATH, { raw: body, contentType }), 415, "unsupported_media_type");
    });

    it("PATCH with text/plain answers 415", async () => {
      expectProblem(await h.call("PATCH", SUB_PATH, { raw: "{}", contentType: "text/plain" }), 415, "unsupported_media_type");
    });

    it.each([["application/json; charset=utf-8"], ["APPLICATION/JSON"], ["application/json;charset=UTF-8"], ["application/vnd.prospectkit+json"]])(
      "Content-Type %s is JSON",
      async (contentType) => {
        expect((await h.call("POST", LOG_PATH, { raw: body, contentType })).status).toBe(201);
      },
    );
  });

  describe("413 payload_too_large: a body over 1 MiB", () => {
    it("exactly 1 MiB (1,048,576 bytes) is accepted", async () => {
      const raw = bodyOfSize(MAX_BODY_BYTES);
      expect(raw.length).toBe(MAX_BODY_BYTES);
      expect((await h.call("POST", LOG_PATH, { raw })).status).toBe(201);
    });

    it("1 MiB + 1 byte answers 413", async () => {
      expectProblem(await h.call("POST", LOG_PATH, { raw: bodyOfSize(MAX_BODY_BYTES + 1) }), 413, "payload_too_large");
    });

    it("a large body is refused on PATCH too", async () => {
      expectProblem(await h.call("PATCH", SUB_PATH, { raw: " ".repeat(MAX_BODY_BYTES + 1) }), 413, "payload_too_large");
    });

    it("a body over the limit is refused without a Content-Length (streamed)", async () => {
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > MAX_BODY_BYTES) controller.close();
          else controller.enqueue(chunk);
          sent += chunk.byteLength;
        },
      });
      const request = new Request(`${h.target.baseUrl ?? h.api.baseUrl}${LOG_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": KEYS.a },
        body: stream,
        duplex: "half",
      } as RequestInit);
      const answer = await h.target.send(request);
      expect(answer.status).toBe(413);
    });
  });

  describe("400 invalid_request: the body is not JSON, or not an object", () => {
    it.each([
      ["an empty body", ""],
      ["an unfinished object", "{"],
      ["single quotes", "{'source':'crm'}"],
      ["a bare word", "nul"],
      ["trailing garbage", '{"source":"crm","payload":{}} x'],
      ["a trailing comma", '{"source":"crm","payload":{},}'],
      ["NaN", '{"source":"crm","payload":{"n":NaN}}'],
    ])("%s answers 400 without field errors", async (_, raw) => {
      const answer = await h.call("POST", LOG_PATH, { raw });
      expectProblem(answer, 400, "invalid_request");
      expect(answer.body.errors).toBeUndefined();
    });

    it("invalid UTF-8 answers 400", async () => {
      const raw = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
      expectProblem(await h.call("POST", LOG_PATH, { raw }), 400, "invalid_request");
    });

    it.each([["[]"], ["null"], ["1"], ['"crm"'], ["true"]])('the JSON value %s is not an object: 400 with the pointer ""', async (raw) => {
      const answer = await h.call("POST", LOG_PATH, { raw });
      expectFieldErrors(answer, [["", "invalid_type"]]);
      expect(answer.body.errors[0].detail).toBe("the body must be an object");
      expectFieldErrors(await h.call("PATCH", SUB_PATH, { raw }), [["", "invalid_type"]]);
    });
  });

  describe("validation reports every failing field at once", () => {
    it("create: seven failing fields give seven errors", async () => {
      const answer = await h.createLog({
        source: "",
        type: 7,
        payload: [],
        prospectId: "prospect_X",
        email: "no",
        phoneNumber: "0",
        emial: "typo@example.com",
      });
      expectFieldErrors(answer, [
        ["/source", "too_short"],
        ["/type", "invalid_type"],
        ["/payload", "invalid"],
        ["/prospectId", "invalid_format"],
        ["/email", "invalid_format"],
        ["/phoneNumber", "invalid_format"],
        ["/emial", "unknown_field"],
      ]);
      expect(answer.body.detail).toMatch(/7 fields/);
    });

    it("update: three failing fields give three errors", async () => {
      expectFieldErrors(await h.patchSubscription(SUBSCRIPTIONS.all, { url: "ftp://x", events: [], active: "yes" }), [
        ["/url", "invalid_format"],
        ["/events", "events_empty"],
        ["/active", "invalid_type"],
      ]);
    });
  });
}
