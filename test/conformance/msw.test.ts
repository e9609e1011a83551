/** The conformance suite through MSW `setupServer` (msw 3, the repository's): a real `fetch` intercepted. */
import { setupServer } from "msw/node";
import { createMockApi } from "../../mock/index.js";
import { mswTarget } from "./msw-target.js";
import { defineConformanceSuite } from "./suite.js";

defineConformanceSuite("MSW setupServer (msw 3)", mswTarget(setupServer, createMockApi));
