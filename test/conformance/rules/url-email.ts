/**
 * Rules (BEHAVIOUR.md, "url" and the email grammar) through every adapter: a webhook URL is
 * checked on the string as sent and stored exactly as sent; an email follows the one grammar.
 */
import { describe, expect, it } from "vitest";
import { SUBSCRIPTIONS } from "../fixtures.js";
import { expectFieldErrors, type Harness } from "../harness.js";

/** Registers the rules. */
export function urlEmailRules(h: Harness): void {
  describe("url: refused unless an absolute http(s) URL of printable ASCII with a host, without user info, whitespace, control characters, backslashes or bad escapes", () => {
    it.each([
      ["a trailing control character", "https://example.com/x\u0001"],
      ["a backslash", "https://example.com/a\\b"],
      ["a tab inside", "https://exa\tmple.com/"],
      ["a newline inside", "https://example.com/a\nb"],
      ["leading spaces (never trimmed)", "   https://example.com/"],
      ["a bad escape", "http://a/%zz"],
      ["no //", "HTTP:foo"],
      ["a non-ASCII host (send its punycode)", "https://bücher.example/hook"],
      ["a non-ASCII path (send it escaped)", "https://example.com/café"],
      ["a user name and password (fetch cannot send them)", "https://user:pw@example.com/"],
      ["a port over 65535", "http://a:99999/"],
      ["an unclosed IPv6 bracket", "http://[::1"],
      ["an escape in the host", "HtTP://%0D%A0%d0"],
      ["a host ending in a number", "http://example.1/"],
    ])("%s: 400 at /url, the subscription unchanged", async (_, url) => {
      const before = h.api.state.snapshot();
      expectFieldErrors(await h.patchSubscription(SUBSCRIPTIONS.all, { url }), [["/url", "invalid_format"]]);
      expect(h.api.state.snapshot()).toBe(before);
    });

    it("a valid URL is stored and echoed exactly as sent (scheme case, dot segments, escapes kept)", async () => {
      const url = "HTTPS://Hooks.Example.com/a/../b?q=%41";
      const answer = await h.patchSubscription(SUBSCRIPTIONS.all, { url });
      expect(answer.status).toBe(200);
      expect(answer.body.url).toBe(url);
      expect(h.api.state.webhookSubscriptions.get(SUBSCRIPTIONS.all)?.url).toBe(url);
    });
  });

  describe("email: the grammar of BEHAVIOUR.md", () => {
    it.each(["a&b@example.com", "x=y+z@example.org", "user@example.xn--p1ai"])("%s is a valid address: 201", async (email) => {
      const answer = await h.createLog({ source: "crm", payload: {}, email });
      expect(answer.status).toBe(201);
    });

    it.each(["a@x-.co", "a@[192.0.2.1]", '"q"@example.com', "a..b@example.com"])("%s is refused: 400 at /email", async (email) => {
      expectFieldErrors(await h.createLog({ source: "crm", payload: {}, email }), [["/email", "invalid_format"]]);
    });
  });
}
