/**
 * The server keeps the latest answered requests only (a long-running mock must not grow without
 * end): `api.requests` and `/__mock/requests` show at most the limit, newest last, in order. The
 * limit is the mock's own log's (the core caps itself; the server keeps no copy of it).
 */
import { describe, expect, it } from "vitest";
import { createMockApi } from "../../mock/core.js";

/** The old server-side archive rotated every 1,000 requests; the cases straddle that boundary still. */
const ROTATE_EVERY = 1_000;

const KEY = "key_retained";
const BASE = "http://127.0.0.1:4010";

function app(retainedRequests: number) {
  const core = createMockApi({ apiKeys: [KEY], baseUrl: BASE, seed: 1, retainedRequests });
  return { core, app: { api: core, handle: core.handle } };
}

async function get(handle: (request: Request) => Promise<unknown>, n: number): Promise<void> {
  await handle(new Request(`${BASE}/v0/page_groups/g/pages/p${n}`, { headers: { "x-api-key": KEY } }));
}

describe("the retained request log", () => {
  it.each([
    [5, 8],
    [1500, ROTATE_EVERY * 2 + 500],
    [ROTATE_EVERY * 3, ROTATE_EVERY * 2 + 10],
  ])("keeps the latest %i of %i requests, oldest first, in the mock's own log", async (limit, sent) => {
    const { core, app: server } = app(limit);
    for (let n = 0; n < sent; n++) await get(server.handle, n);
    const paths = server.api.requests.list().map((entry) => entry.path);
    const kept = Math.min(limit, sent);
    expect(paths).toHaveLength(kept);
    expect(server.api.requests.size).toBe(kept);
    expect(paths[0]).toBe(`/v0/page_groups/g/pages/p${sent - kept}`);
    expect(server.api.requests.last()?.path).toBe(`/v0/page_groups/g/pages/p${sent - 1}`);
    expect(core.requests.size).toBe(kept);
  });

  it("a reset empties it, archive included", async () => {
    const { app: server } = app(10);
    for (let n = 0; n < ROTATE_EVERY + 5; n++) await get(server.handle, n);
    server.api.reset();
    expect([server.api.requests.size, server.api.requests.list(), server.api.requests.last()]).toEqual([0, [], undefined]);
  });

  it.each([0, -1, 1.5, Number.NaN])("a limit of %s is refused", (limit) => {
    expect(() => app(limit)).toThrow(TypeError);
  });
});
