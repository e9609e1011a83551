/**
 * `unhandledRequests`: msw's unhandled-request option in both spellings (msw 3 `onUnhandledFrame`,
 * msw 2 `onUnhandledRequest`), optionally strict only under the mock's base URL. Run here with
 * msw 3's `setupServer` against a real loopback server that stands for everything else (the page,
 * its assets): what passes through gets that server's answer. msw 2 runs the same option through
 * the documentation's examples (test/docs/msw2-examples.test.ts) and the browser recipe
 * (test/browser/app-recipe.test.ts).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createMockApi, type UnhandledStrategy, unhandledRequests } from "../../mock/index.js";

let real: Server;
let origin: string;

beforeAll(async () => {
  real = createServer((request, response) => response.writeHead(200, { "content-type": "text/plain" }).end(`real ${request.url}`));
  await new Promise<void>((done) => real.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => real.close(() => done())));
afterEach(() => vi.restoreAllMocks());

/** Starts msw with the mock under `${origin}/api` and the given option, runs `body`, stops msw. */
async function withServer<T>(options: ReturnType<typeof unhandledRequests>, body: (base: string) => Promise<T>): Promise<T> {
  const api = createMockApi({ apiKeys: ["pk_unhandled"], baseUrl: `${origin}/api` });
  const server = setupServer(...api.handlers);
  server.listen(options);
  try {
    return await body(api.baseUrl);
  } finally {
    server.close();
  }
}

/** What a fetch came to: the real server's text, the mock's status, or a failure. */
async function outcome(url: string): Promise<string> {
  try {
    const response = await fetch(url, { headers: { "x-api-key": "pk_unhandled" } });
    const text = await response.text();
    return text.startsWith("real ") ? "passed through" : `mock ${response.status}`;
  } catch {
    return "failed";
  }
}

describe("unhandledRequests", () => {
  it("gives both msw majors' option names the same plain strategy when unscoped", () => {
    for (const strategy of ["bypass", "warn", "error"] as const) {
      expect(unhandledRequests(strategy)).toEqual({ onUnhandledFrame: strategy, onUnhandledRequest: strategy });
    }
  });

  it.each([
    ["an unknown strategy", () => unhandledRequests("strict" as UnhandledStrategy), /strategy must be "bypass", "warn" or "error"/],
    ["a relative within", () => unhandledRequests("error", { within: "/api" }), /within must be an absolute URL/],
  ])("refuses %s with a TypeError", (_, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });

  it.each([
    // [case, path under the loopback origin, unscoped "error", "error" within the mock's base URL]
    ["the mock's own route", "/api/v0/page_groups/pg/pages/p", "mock 404", "mock 404"],
    ["an unhandled path under the mock's base URL", "/api/health", "failed", "failed"],
    ["the page itself (same origin, outside the base path)", "/", "failed", "passed through"],
    ["a path that only starts like the base path", "/apiary", "failed", "passed through"],
    ["a dev server's module (msw skips common assets itself)", "/src/main.ts", "passed through", "passed through"],
  ])("%s: unscoped %s, within the base URL %s", async (_, path, unscoped, scoped) => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await withServer(unhandledRequests("error"), () => outcome(`${origin}${path}`))).toBe(unscoped);
    expect(await withServer(unhandledRequests("error", { within: `${origin}/api` }), () => outcome(`${origin}${path}`))).toBe(scoped);
  });

  it("another origin passes through when scoped, and fails when not", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const other = origin.replace("127.0.0.1", "localhost");
    expect(await withServer(unhandledRequests("error", { within: `${origin}/api` }), () => outcome(`${other}/`))).toBe("passed through");
    expect(await withServer(unhandledRequests("error"), () => outcome(`${other}/`))).toBe("failed");
  });

  it('"error" prints msw\'s own message naming the request, then fails it; nothing is printed for what passes through', async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await withServer(unhandledRequests("error", { within: `${origin}/api` }), async () => {
      expect(await outcome(`${origin}/`)).toBe("passed through");
      expect(errors).not.toHaveBeenCalled();
      expect(await outcome(`${origin}/api/health`)).toBe("failed");
    });
    expect(errors.mock.calls.map((args) => args.join(" ")).join("\n")).toMatch(/without a matching request handler[\s\S]*GET .*\/api\/health/);
  });

  it('"warn" within the base URL warns and passes through there, silently elsewhere', async () => {
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    await withServer(unhandledRequests("warn", { within: `${origin}/api` }), async () => {
      expect(await outcome(`${origin}/`)).toBe("passed through");
      expect(warnings).not.toHaveBeenCalled();
      expect(await outcome(`${origin}/api/health`)).toBe("passed through");
    });
    expect(warnings.mock.calls.map((args) => args.join(" ")).join("\n")).toMatch(/GET .*\/api\/health/);
  });

  it("msw 2's callback (onUnhandledRequest) applies the same scope: strict under the base URL, silent elsewhere", () => {
    const { onUnhandledRequest } = unhandledRequests("error", { within: "https://api.prospectkit.test" });
    if (typeof onUnhandledRequest !== "function") throw new TypeError("expected a callback");
    const print = { warning: vi.fn(), error: vi.fn() };
    expect(() => onUnhandledRequest(new Request("http://localhost:5173/"), print)).not.toThrow();
    expect(() => onUnhandledRequest(new Request("ws://localhost:5173/?token=x"), print)).not.toThrow();
    expect(print.error).not.toHaveBeenCalled();
    // A thrown Response is what msw answers with (msw 2 and 3): Response.error() fails the request as a network error would.
    const thrown = (() => {
      try {
        return onUnhandledRequest(new Request("https://api.prospectkit.test/v1/x"), print);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown instanceof Response && thrown.type).toBe("error");
    expect(print.error).toHaveBeenCalledTimes(1);
  });
});
