/** The conformance suite through MSW `setupServer` (msw 3, the repository's): a real `fetch` intercepted. */
import { setupServer } from "msw/node";
import { createMockApi } from "../../mock/index.js";
import { defineConformanceSuite } from "./suite.js";

defineConformanceSuite("MSW setupServer (msw 3)", (options) => {
  const api = createMockApi(options);
  const server = setupServer(...api.handlers);
  server.listen({ onUnhandledFrame: "error" });
  return { api, send: (request) => fetch(request), answersOutsideV0: false, close: () => server.close() };
});
