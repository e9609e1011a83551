/**
 * Issue 16.1: without an injected fetch, the client looks up `globalThis.fetch` at each call,
 * never once at createClient, so an interceptor that patches it later (MSW's setupServer, nock,
 * Playwright) still sees every request.
 */
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "../../src/index.js";
import { API_KEY, page } from "./support/fixtures.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("issue 16.1: the default fetch is looked up at call time", () => {
  it("a client created before msw's setupServer().listen() is intercepted", async () => {
    const client = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.test" });
    const server = setupServer(http.get("https://api.example.test/v0/page_groups/:group/pages/:page", () => HttpResponse.json(page)));
    server.listen({ onUnhandledFrame: "error" });
    try {
      await expect(client.getPage({ pageGroupId: "g", pageId: "p" })).resolves.toEqual(page);
    } finally {
      server.close();
    }
  });

  it("a fetch stubbed after createClient is the one called", async () => {
    const client = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.test" });
    const stub = vi.fn(async () => Response.json(page));
    vi.stubGlobal("fetch", stub);
    await expect(client.getPage({ pageGroupId: "g", pageId: "p" })).resolves.toEqual(page);
    expect(stub).toHaveBeenCalledTimes(1);
  });
});
