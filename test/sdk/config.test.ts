import { afterEach, describe, expect, it, vi } from "vitest";
import { type ClientOptions, ConfigurationError, createClient, getPage } from "../../src/index.js";
import { fakeFetch, json } from "./support/fetch.js";
import { API_KEY, page } from "./support/fixtures.js";

const base = { apiKey: API_KEY, baseUrl: "https://api.example.com" };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("issue 3.1: createClient fails at once, with a ConfigurationError, on a bad configuration", () => {
  it.each<[string, ClientOptions, RegExp]>([
    ["no apiKey and no PROSPECTKIT_API_KEY", { baseUrl: base.baseUrl }, /apiKey is missing/],
    ["an empty apiKey", { ...base, apiKey: "" }, /apiKey is missing/],
    ["an apiKey with a line break (header injection)", { ...base, apiKey: "abc\r\nx-evil: 1" }, /visible ASCII/],
    ["an apiKey with a space", { ...base, apiKey: "abc def" }, /visible ASCII/],
    ["no baseUrl and no PROSPECTKIT_BASE_URL", { apiKey: API_KEY }, /baseUrl is missing/],
    ["a relative baseUrl", { ...base, baseUrl: "/api" }, /absolute http\(s\) URL/],
    ["a host without a scheme", { ...base, baseUrl: "api.example.com" }, /absolute http\(s\) URL/],
    ["an ftp: baseUrl", { ...base, baseUrl: "ftp://api.example.com" }, /absolute http\(s\) URL/],
    ["a javascript: baseUrl", { ...base, baseUrl: "javascript:alert(1)" }, /absolute http\(s\) URL/],
    ["a baseUrl with credentials", { ...base, baseUrl: "https://user:pw@api.example.com" }, /without credentials/],
    ["a baseUrl with a query", { ...base, baseUrl: "https://api.example.com/?a=1" }, /query/],
    ["a baseUrl with a fragment", { ...base, baseUrl: "https://api.example.com/#x" }, /fragment/],
    ["a baseUrl that includes /v0", { ...base, baseUrl: "https://api.example.com/v0" }, /must not include \/v0/],
    ["a baseUrl that includes /v0/", { ...base, baseUrl: "https://api.example.com/v0/" }, /must not include \/v0/],
    ["timeoutMs 0", { ...base, timeoutMs: 0 }, /timeoutMs/],
    ["timeoutMs beyond what a timer can hold", { ...base, timeoutMs: 2 ** 31 }, /timeoutMs/],
    ["timeoutMs NaN", { ...base, timeoutMs: Number.NaN }, /timeoutMs/],
    ["a negative maxRetries", { ...base, maxRetries: -1 }, /maxRetries/],
    ["a fractional maxRetries", { ...base, maxRetries: 1.5 }, /maxRetries/],
    ["totalTimeoutMs 0", { ...base, totalTimeoutMs: 0 }, /totalTimeoutMs/],
    ["a header value with a line break", { ...base, headers: { "x-team": "a\nb" } }, /headers/],
    ["an unknown validateResponses mode", { ...base, validateResponses: "lenient" as never }, /validateResponses/],
    ["an unknown logLevel", { ...base, logLevel: "verbose" as never }, /logLevel/],
    ["a header name with a space", { ...base, headers: { "x team": "a" } }, /headers/],
  ])("%s", (_rule, options, message) => {
    vi.stubEnv("PROSPECTKIT_API_KEY", "");
    vi.stubEnv("PROSPECTKIT_BASE_URL", "");
    const attempt = () => createClient(options);
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(message);
  });

  it("no fetch in the runtime and none injected", () => {
    vi.stubGlobal("fetch", undefined);
    try {
      expect(() => createClient(base)).toThrow(/fetch is not available/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("never puts the key into a configuration error", () => {
    const error = (() => {
      try {
        createClient({ ...base, apiKey: `${API_KEY} tail` });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(ConfigurationError.is(error)).toBe(true);
    expect(`${error?.message} ${JSON.stringify(error)} ${error?.stack}`).not.toContain(API_KEY);
  });
});

describe("issue 3.1: baseUrl is the host root; a trailing slash or a path prefix is fine", () => {
  it.each([
    ["https://api.example.com", "https://api.example.com/v0/page_groups/g/pages/p"],
    ["https://api.example.com/", "https://api.example.com/v0/page_groups/g/pages/p"],
    ["https://api.example.com///", "https://api.example.com/v0/page_groups/g/pages/p"],
    ["http://localhost:8080", "http://localhost:8080/v0/page_groups/g/pages/p"],
    ["https://gateway.example.com/prospect/", "https://gateway.example.com/prospect/v0/page_groups/g/pages/p"],
    ["HTTPS://API.EXAMPLE.COM", "https://api.example.com/v0/page_groups/g/pages/p"],
  ])("%s calls %s", async (baseUrl, expected) => {
    const { fetch, calls } = fakeFetch(json(page));
    await createClient({ ...base, baseUrl, fetch }).getPage({ pageGroupId: "g", pageId: "p" });
    expect(calls[0]?.url).toBe(expected);
  });
});

describe("issue 3.1: PROSPECTKIT_API_KEY and PROSPECTKIT_BASE_URL are the fallbacks", () => {
  it("uses both environment variables when the options are missing", async () => {
    vi.stubEnv("PROSPECTKIT_API_KEY", "env-key-123");
    vi.stubEnv("PROSPECTKIT_BASE_URL", "https://env.example.com/");
    const { fetch, calls } = fakeFetch(json(page));
    const client = createClient({ fetch });
    expect(client.baseUrl).toBe("https://env.example.com");
    await client.getPage({ pageGroupId: "g", pageId: "p" });
    expect(calls[0]?.headers.get("x-api-key")).toBe("env-key-123");
  });

  it("prefers the options over the environment", async () => {
    vi.stubEnv("PROSPECTKIT_API_KEY", "env-key-123");
    vi.stubEnv("PROSPECTKIT_BASE_URL", "https://env.example.com");
    const { fetch, calls } = fakeFetch(json(page));
    await createClient({ ...base, fetch }).getPage({ pageGroupId: "g", pageId: "p" });
    expect(calls[0]?.headers.get("x-api-key")).toBe(API_KEY);
    expect(calls[0]?.url.startsWith("https://api.example.com/")).toBe(true);
  });

  it("works where process does not exist (browsers, workers)", () => {
    vi.stubGlobal("process", undefined);
    try {
      expect(() => createClient({ baseUrl: base.baseUrl })).toThrow(/apiKey is missing/);
      expect(createClient(base).baseUrl).toBe("https://api.example.com");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("works where reading the environment throws (Deno without --allow-env)", () => {
    const env = new Proxy(
      {},
      {
        get: () => {
          throw new Error("Requires env access");
        },
      },
    );
    vi.stubGlobal("process", { env });
    try {
      expect(() => createClient({ baseUrl: base.baseUrl })).toThrow(ConfigurationError);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("issue 3.1: per-call options are checked like the client's", () => {
  it.each<[string, object]>([
    ["timeoutMs -5", { timeoutMs: -5 }],
    ["maxRetries 2.5", { maxRetries: 2.5 }],
    ["a header with a line break", { headers: { "x-a": "1\r\n2" } }],
    ["an unknown validateResponses mode", { validateResponses: "loose" }],
  ])("%s rejects the call with a ConfigurationError and sends nothing", async (_rule, options) => {
    const { fetch, calls } = fakeFetch(json(page));
    const client = createClient({ ...base, fetch });
    await expect(client.getPage({ pageGroupId: "g", pageId: "p" }, options)).rejects.toThrow(ConfigurationError);
    expect(calls).toHaveLength(0);
  });

  it("an object that is not a client is rejected with a ConfigurationError", async () => {
    await expect(getPage({ baseUrl: "https://x.example" }, { pageGroupId: "g", pageId: "p" })).rejects.toThrow(/not a prospectkit client/);
  });
});
