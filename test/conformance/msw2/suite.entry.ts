/**
 * The conformance suite through msw 2's `setupServer`. Never run in-tree (its name does not end
 * in `.test.ts`): `../msw2.test.ts` bundles it into a throw-away project that installed the
 * packed tarball and msw 2, with every import of the source (`mock/`, `src/`) turned into an
 * import of the packed `prospectkit`, so `msw/node`, `prospectkit/mock` and the `msw` its
 * handlers import all resolve in that project, and the cases are the same ones as in-tree.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { setupServer } from "msw/node";
import { expect, it } from "vitest";
import { createMockApi } from "../../../mock/index.js";
import { mswTarget } from "../msw-target.js";
import { defineConformanceSuite } from "../suite.js";
import { MSW2_CHECK, MSW2_TARGET } from "./names.js";

/** The version and location of the `msw` that a module at `from` resolves (msw exports its package.json). */
function mswManifest(from: string): { readonly version: string; readonly path: string } {
  const path = createRequire(from).resolve("msw/package.json");
  return { path, version: (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version };
}

it(MSW2_CHECK, () => {
  const fromMock = mswManifest(createRequire(import.meta.url).resolve("prospectkit/mock"));
  const fromHere = mswManifest(import.meta.url);
  expect(fromMock.version).toMatch(/^2\./);
  expect(fromHere).toEqual(fromMock);
});

defineConformanceSuite(MSW2_TARGET, mswTarget(setupServer, createMockApi));
