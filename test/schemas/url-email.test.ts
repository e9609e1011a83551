/**
 * Rules (BEHAVIOUR.md): the webhook `url` (absolute http or https, at most 2048 characters as
 * sent, stored exactly as sent; no whitespace or control character anywhere, no backslash, every
 * `%` a two-hex-digit escape) and the email grammar (254 / 64 characters, dot-atom local part,
 * two or more labels, the last letters only or `xn--`, no IP literals), each one regular
 * expression shared by the SDK, the mock and the OpenAPI document. Table cases name the rule;
 * properties cover the classes of input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProspectLogCreate, WebhookSubscriptionUpdate } from "../../src/schemas/index.js";
import { EMAIL_PATTERN, HTTP_URL_PATTERN, HttpUrl, MAX_URL_LENGTH } from "../../src/schemas/primitives.js";

const urlOk = (url: string) => HttpUrl.safeParse(url).success;
const emailOk = (email: string) => ProspectLogCreate.safeParse({ source: "crm", payload: {}, email }).success;

describe("url: absolute http or https, checked on the raw string, kept exactly as sent", () => {
  it.each([
    ["https://example.com", true],
    ["http://example.com/hooks?x=1#f", true],
    ["HTTPS://Example.COM/Path", true],
    ["https://example.com:8443/a%20b", true],
    ["https://xn--bcher-kva.example/hook", true],
    ["http://1.2.3.4:0/", true],
    ["http://[2001:db8::8a2e:370:7334]:65535/x", true],
    ["http://a.0x1g/", true],
    ["https://user:pw@example.com:8443/a%20b", false],
    ["https://user@example.com/", false],
    ["https://例え.jp/パス", false],
    ["https://bücher.example/hook", false],
    ["https://example.com/café", false],
    ["http://a:99999/", false],
    ["http://a:65536/", false],
    ["http://[::1", false],
    ["http://[:::]/", false],
    ["HtTP://%0D%A0%d0", false],
    ["http://a.1/", false],
    ["http://a.0x1f/", false],
    ["http://256.1.1.1/", false],
    ["https://example.com/{id}", false],
    ["https://example.com/a|b", false],
    ["http://[::1]:8080/", true],
    ["ftp://example.com", false],
    ["javascript:alert(1)", false],
    ["HTTP:foo", false],
    ["http:foo", false],
    ["http:/example.com", false],
    ["https://", false],
    ["http:///path", false],
    ["http://@/", false],
    ["https://example.com/x\u0001", false],
    ["https://example.com/a\\b", false],
    ["https://example.com/a\tb", false],
    ["https://example.com/a\nb", false],
    ["  https://example.com", false],
    ["https://example.com ", false],
    ["https://example.com/\u00a0", false],
    ["https://example.com/\u2028", false],
    ["https://example.com/\u0085", false],
    ["http://a/%zz", false],
    ["http://a/%2", false],
    ["http://a/%", false],
  ])("%j accepted: %s", (url, ok) => {
    expect(urlOk(url)).toBe(ok);
  });

  it("at most 2048 characters as sent: 2048 pass, 2049 fail, and leading spaces count (never trimmed)", () => {
    const base = "https://example.com/";
    expect(urlOk(base + "a".repeat(MAX_URL_LENGTH - base.length))).toBe(true);
    expect(urlOk(base + "a".repeat(MAX_URL_LENGTH - base.length + 1))).toBe(false);
    expect(urlOk(`   ${base}${"a".repeat(MAX_URL_LENGTH - base.length)}`)).toBe(false);
  });

  it("the parsed value is the string as sent: never trimmed or normalized", () => {
    const url = "HTTPS://Example.COM:443/a/../b?%41";
    expect(WebhookSubscriptionUpdate.parse({ url }).url).toBe(url);
  });

  it("property: a URL with any whitespace or control character inserted anywhere is refused", () => {
    const bad = fc.constantFrom(..."\u0000\u0001\t\n\r\u000b\u000c\u001f \u007f\u0085\u00a0\u2028\u2029\u3000\ufeff\\".split(""));
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), bad, fc.nat(), (url, char, at) => {
        const i = at % (url.length + 1);
        expect(urlOk(url.slice(0, i) + char + url.slice(i))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("property: http(s) web URLs are accepted unchanged; the same URL with another scheme is refused", () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ["http", "https"], withQueryParameters: true, withFragments: true }), (url) => {
        fc.pre(url.length <= MAX_URL_LENGTH);
        expect(WebhookSubscriptionUpdate.parse({ url }).url).toBe(url);
        expect(urlOk(url.replace(/^https?/, "ftp"))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("property: a % not followed by two hex digits is refused", () => {
    fc.assert(
      fc.property(
        fc.webUrl(),
        fc.string({ maxLength: 2 }).filter((s) => !/^[0-9A-Fa-f]{2}/.test(s)),
        (url, after) => {
          expect(urlOk(`${url}%${after}`)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("url: a refusal says why, and never repeats a password", () => {
  const detailOf = (url: string) => {
    const result = WebhookSubscriptionUpdate.safeParse({ url });
    return result.success ? undefined : result.error.issues[0]?.message;
  };
  it.each([
    ["a non-ASCII host: the encoded form is suggested", "https://bücher.example/hook", /encoded form, here https:\/\/xn--bcher-kva\.example\/hook$/],
    ["a non-ASCII path: the escaped form is suggested", "https://example.com/café", /here https:\/\/example\.com\/caf%C3%A9$/],
    ["user info", "https://ada:s3cret@example.com/", /must not contain a user name or password/],
    ["a character RFC 3986 refuses: its escape is named", "https://example.com/{id}", /must not contain "\{" .*%7B/],
    ["a port over 65535", "http://a:99999/", /port of at most 65535/],
    ["a control character", "https://example.com/\u0001", /control character/],
  ])("%s", (_, url, detail) => {
    expect(detailOf(url)).toMatch(detail);
  });

  it("the password is in no message, even with non-ASCII characters around it", () => {
    for (const url of ["https://ada:s3cret@bücher.example/", "https://ada:s3cret@example.com/é", "http://ada:s3cret@[::1"]) {
      expect(detailOf(url)).not.toContain("s3cret");
    }
  });

  it("property: every string the pattern generates parses as a URL with a host, unchanged in scheme and length class", () => {
    fc.assert(
      fc.property(fc.stringMatching(HTTP_URL_PATTERN), (url) => {
        const parsed = new URL(url);
        expect(parsed.hostname).not.toBe("");
        expect(parsed.protocol).toMatch(/^https?:$/);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("email: the one grammar of BEHAVIOUR.md", () => {
  it.each([
    ["a&b@example.com", true],
    ["x=y+z@example.org", true],
    ["user@example.xn--p1ai", true],
    ["USER@EXAMPLE.COM", true],
    ["o'brien@example.ie", true],
    ["first.last@sub.example.co.uk", true],
    ["{}|~^`!#$%*/?@example.com", true],
    ["a@x-y.co", true],
    ["a@x-.co", false],
    ["a@-x.co", false],
    ["a..b@example.com", false],
    [".a@example.com", false],
    ["a.@example.com", false],
    ['"quoted"@example.com', false],
    ["a@[192.0.2.1]", false],
    ["a@192.0.2.1", false],
    ["a@localhost", false],
    ["a@example.c0m", false],
    ["a@example.xn--", false],
    ["a b@example.com", false],
    ["a@example.com\n", false],
    ["ü@example.com", false],
  ])("%j accepted: %s", (email, ok) => {
    expect(emailOk(email)).toBe(ok);
  });

  it("boundaries: local part 64 yes, 65 no; whole address 254 yes, 255 no; label 63 yes, 64 no", () => {
    const domain = (length: number) => `${"d".repeat(length - 4)}.com`;
    expect(emailOk(`${"l".repeat(64)}@example.com`)).toBe(true);
    expect(emailOk(`${"l".repeat(65)}@example.com`)).toBe(false);
    const at254 = `${"l".repeat(64)}@${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(57)}.com`;
    expect(at254).toHaveLength(254);
    expect(emailOk(at254)).toBe(true);
    expect(emailOk(`l${at254}`)).toBe(false);
    expect(emailOk(`a@${domain(67)}`)).toBe(true);
    expect(emailOk(`a@${"x".repeat(64)}.com`)).toBe(false);
  });

  it("property: addresses built from the grammar are accepted", () => {
    const atext = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,8}$/);
    const label = fc.stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,8}[A-Za-z0-9])?$/);
    const tld = fc.oneof(fc.stringMatching(/^[A-Za-z]{2,6}$/), fc.stringMatching(/^xn--[a-z0-9]{2,8}$/));
    fc.assert(
      fc.property(fc.array(atext, { minLength: 1, maxLength: 4 }), fc.array(label, { minLength: 1, maxLength: 3 }), tld, (local, labels, last) => {
        const address = `${local.join(".")}@${[...labels, last].join(".")}`;
        fc.pre(address.length <= 254 && local.join(".").length <= 64);
        expect(emailOk(address)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("property: fast-check's RFC email addresses are accepted exactly when they fit the grammar's restrictions", () => {
    fc.assert(
      fc.property(fc.emailAddress(), (address) => {
        const [local = "", domain = ""] = address.split("@");
        const labels = domain.split(".");
        const last = labels.at(-1)!;
        const fits =
          address.length <= 254 &&
          local.length <= 64 &&
          labels.length >= 2 &&
          labels.every((l) => /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l)) &&
          (/^[A-Za-z]+$/.test(last) || /^xn--[A-Za-z0-9-]*[A-Za-z0-9]$/i.test(last));
        expect(emailOk(address)).toBe(fits);
      }),
      { numRuns: 1000 },
    );
  });

  it("the exported patterns are the ones the schemas apply", () => {
    expect(EMAIL_PATTERN.test("a&b@example.com")).toBe(true);
    expect(HTTP_URL_PATTERN.test("http:foo")).toBe(false);
  });
});
