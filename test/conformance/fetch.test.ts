/** The conformance suite through `api.fetch` (no interception), at a host root and under a path. */
import { createMockApi } from "../../mock/index.js";
import { defineConformanceSuite } from "./suite.js";

defineConformanceSuite("api.fetch", (options) => {
  const api = createMockApi(options);
  return { api, send: (request) => api.fetch(request) };
});

defineConformanceSuite(
  "api.fetch under a base URL with a path",
  (options) => {
    const api = createMockApi(options);
    return { api, send: (request) => api.fetch(request) };
  },
  { baseUrl: "https://gateway.example.test/prospect-api/" },
);
