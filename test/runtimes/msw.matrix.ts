/**
 * The mock matrix: `prospectkit/mock` through MSW's `setupServer` with msw 2 on Node 20 and 22
 * and msw 3 on Node 22, 24 and 26, each from the packed tarball plus that msw in a throw-away
 * project (the handlers import `msw` by name, so only a real install proves a major works).
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { installIntoEmptyProject } from "../package/pack.ts";
import { RUNTIME_CASES } from "./cases.ts";
import { compileIntoProject, type EntrySpec } from "./entries.ts";
import { binaryOf } from "./install.ts";
import type { MswContext, MswResult } from "./msw-scenario.ts";
import { MSW_PINS } from "./runtimes.ts";

const COMBINATIONS = [
  { msw: 2, runtime: "node20" },
  { msw: 2, runtime: "node22" },
  { msw: 3, runtime: "node22" },
  { msw: 3, runtime: "node24" },
  { msw: 3, runtime: "node26" },
] as const;

const MSW_ENTRY: EntrySpec = {
  scenario: "msw-scenario",
  modules: [
    ["prospectkit", "prospectkit"],
    ["mock", "prospectkit/mock"],
    ["mswNode", "msw/node"],
  ],
};

const skipped = inject("skipped");
const combinations = COMBINATIONS.filter(({ runtime }) => !skipped.includes(runtime)).map((combination) => ({
  ...combination,
  name: `msw ${combination.msw} on ${combination.runtime}`,
}));

describe("prospectkit/mock through MSW setupServer, per msw major and Node version", () => {
  const projects = new Map<2 | 3, string>();
  beforeAll(() => {
    for (const major of new Set(combinations.map(({ msw }) => msw))) {
      const project = installIntoEmptyProject(inject("tarball"), [MSW_PINS[major]]);
      compileIntoProject(project, MSW_ENTRY.scenario);
      projects.set(major, project);
    }
  });

  it.each(combinations)("$name: one create request is answered 201 with a valid ProspectLog", async ({ msw, runtime, name }) => {
    const { bin, version } = binaryOf(inject("runtimes"), runtime);
    const nodeImport = RUNTIME_CASES.find((runtimeCase) => runtimeCase.name === `${runtime} import`);
    if (nodeImport === undefined) throw new TypeError(`no case runs ${runtime} with import`);
    const context: MswContext = { runtime: name, baseUrl: "https://api.prospectkit.test", apiKey: "pk_test_runtime_matrix" };
    const expected: MswResult = {
      runtime: name,
      host: nodeImport.host(version),
      status: 201,
      hasRequestId: true,
      validLog: true,
      type: "webhook",
      createdProspect: true,
    };
    expect(await nodeImport.run(bin, projects.get(msw)!, MSW_ENTRY, context)).toEqual(expected);
  });
});
