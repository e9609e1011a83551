/**
 * The runtime matrix: THE scenario (scenario.ts) on every runtime, from the packed tarball
 * installed into a throw-away project. Run with `npm run test:runtimes`.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { installIntoEmptyProject } from "../package/pack.ts";
import { RUNTIME_CASES } from "./cases.ts";
import { compileIntoProject, SDK_ENTRY } from "./entries.ts";
import { binaryOf } from "./install.ts";
import type { ScenarioContext, ScenarioResult } from "./scenario.ts";
import { type RunningServer, startServer } from "./server.ts";

const skipped = inject("skipped");
const cases = RUNTIME_CASES.filter((runtimeCase) => !skipped.includes(runtimeCase.runtime));

/** What the scenario must observe on every runtime: the spec's rules, not a recording. */
const expected = (runtime: string, host: string): ScenarioResult => ({
  runtime,
  host,
  schemas: {
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
    eventKinds: [
      "page.version.created",
      "page.version.processed",
      "page.version.published",
      "form.submitted",
      "form.enriched",
      "form.enrichment_failed",
    ],
  },
  sdk: {
    // A new email: a prospect is created (spec 4.1 rule 3); `type` defaulted to webhook.
    created: { source: "crm", type: "webhook", createdProspect: true, idsMatchTheSpec: true },
    // No custom name, so the computed one is in effect; the seeded version is the first.
    page: { isTheSeededPage: true, effectiveName: "Pricing", customName: null, versionNumber: 1 },
    updated: { isTheSeededSubscription: true, active: false, events: ["page.version.published"] },
    withResponse: { status: 200, requestIdFromHeader: true },
    // An ID with "/", "?" and "#" stays one encoded path segment, so the answer is a clean 404.
    notFound: { isNotFoundError: true, status: 404, code: "not_found" },
    // An empty source is caught before anything is sent.
    invalidBody: { isRequestValidationError: true },
  },
});

describe("the packed prospectkit on every runtime, against the mock server", () => {
  let project: string;
  let server: RunningServer;
  beforeAll(async () => {
    project = installIntoEmptyProject(inject("tarball"));
    compileIntoProject(project, SDK_ENTRY.scenario);
    // The server runs on the project's own Node 24 (the same release as the matrix's node24).
    server = await startServer(process.execPath, project);
  });
  afterAll(() => server?.close());

  it.each(cases)("$name: the schemas and the SDK's three operations behave as the spec says", async ({ name, runtime, host, run }) => {
    const { bin, version } = binaryOf(inject("runtimes"), runtime);
    const context: ScenarioContext = { runtime: name, server: server.context };
    expect(await run(bin, project, SDK_ENTRY, context)).toEqual(expected(name, host(version)));
  });
});
