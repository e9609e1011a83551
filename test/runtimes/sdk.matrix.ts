/**
 * The runtime matrix: THE scenario (scenario.ts) on every runtime, from the packed tarball
 * installed into a throw-away project. Run with `npm run test:runtimes`.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { installIntoEmptyProject } from "../package/pack.ts";
import { RUNTIME_CASES } from "./cases.ts";
import { SDK_ENTRY, writeScenario } from "./entries.ts";
import { binaryOf } from "./install.ts";
import type { ScenarioResult } from "./scenario.ts";

const skipped = inject("skipped");
const cases = RUNTIME_CASES.filter((runtimeCase) => !skipped.includes(runtimeCase.runtime));

/** What the scenario must observe on every runtime: the spec's rules, not a recording. */
const expected = (runtime: string, host: string): ScenarioResult => ({
  runtime,
  host,
  // `type` defaults to `webhook` (spec 4.1 rule 1); the payload comes back as sent.
  created: { source: "crm", type: "webhook", payload: { event: "signup", nested: { list: [1, "two", null] } }, email: "a@b.co" },
  payloadKept: true,
  // Every failing field at once, each under its JSON Pointer: missing, malformed, unknown.
  rejectedCreate: [
    { pointer: "/source", code: "required" },
    { pointer: "/email", code: "invalid_format" },
    { pointer: "/emial", code: "unknown_field" },
  ],
  rejectedUpdate: [{ pointer: "/events", code: "events_empty" }],
  // A response from a newer API (unknown field, unknown event kind) is never an error.
  forwardCompatible: true,
  eventKinds: ["page.version.created", "page.version.processed", "page.version.published", "form.submitted", "form.enriched", "form.enrichment_failed"],
});

describe("the packed prospectkit on every runtime", () => {
  let project: string;
  beforeAll(() => {
    project = installIntoEmptyProject(inject("tarball"));
    writeScenario(project, SDK_ENTRY.scenario);
  });

  it.each(cases)("$name: the shared schemas default, reject and accept exactly as the spec says", async ({ name, runtime, host, run }) => {
    const { bin, version } = binaryOf(inject("runtimes"), runtime);
    expect(await run(bin, project, SDK_ENTRY, { runtime: name })).toEqual(expected(name, host(version)));
  });
});
