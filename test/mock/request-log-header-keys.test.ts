/**
 * The request log keeps a request's query and headers (issue 45) but never a key in them, in any
 * form. A key the mock knows is taken out when the log is read; a key it does not know (a refused
 * request's, or behind the proxy the target's) is taken out when the entry is recorded, since no
 * later check knows it. Both paths, each encoding, in a header and in the query.
 */
import { describe, expect, it } from "vitest";
import { createMockApi } from "../../mock/index.js";

const KNOWN = "key_known_0123456789";
const UNKNOWN = "key_stranger_98765";
const BASE = "https://api.example.test";
const PAGE = "/v0/page_groups/pagegroup_1/pages/page_1";

const forms = (key: string) => ({
  raw: key,
  "URL-encoded": encodeURIComponent(`${key}&`),
  base64: btoa(key),
  "JSON-escaped": JSON.stringify(JSON.stringify({ key })),
});

describe.each([
  { rule: "a key the mock knows is taken out when the log is read", key: KNOWN, status: 200 },
  { rule: "a key the mock does not know is taken out when the entry is recorded", key: UNKNOWN, status: 401 },
])("$rule", ({ key, status }) => {
  it.each(Object.entries(forms(key)))("the key %s, in a header and in the query", async (_form, value) => {
    const api = createMockApi({
      apiKeys: { [KNOWN]: "tenant_a" },
      baseUrl: BASE,
      fixtures(state) {
        state.pageGroups.create({ id: "pagegroup_1", tenantId: "tenant_a" });
        state.pages.create({ id: "page_1", pageGroupId: "pagegroup_1", tenantId: "tenant_a" });
      },
    });
    const response = await api.fetch(`${BASE}${PAGE}?token=${encodeURIComponent(value)}`, {
      headers: { "x-api-key": key, "x-echo": value, "x-trace": "t1" },
    });
    expect(response.status).toBe(status);
    const [entry] = api.requests.list();
    expect(entry?.headers?.["x-trace"]).toBe("t1");
    expect(entry?.headers?.["x-echo"]).toBe("[redacted]");
    expect(entry?.query?.["token"]).toBe("[redacted]");
    const shown = JSON.stringify(api.requests.list());
    for (const form of Object.values(forms(key))) expect(shown).not.toContain(form);
  });
});
