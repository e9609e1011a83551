/**
 * Issue 32, finding 9: the control API's OpenAPI document (`/__mock/openapi.json`) states exactly
 * what the server does. Every route that takes no body documents the 400 it answers for one; a
 * fault's `match` is valid by the document exactly when the server accepts it (one branch per
 * operation, naming only its fields); every operation has a description; Spectral's `spectral:oas`
 * ruleset (run as a library: the CLI brings an install script) reports nothing; and every answer
 * of this suite is one the document describes (test/server/support/control-answers.ts, also run
 * by the control, webhook-control and tenancy suites).
 */

import { Document, Spectral } from "@stoplight/spectral-core";
import * as Parsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_ROUTES } from "../../mock/control/routes.js";
import { OPERATIONS } from "../../mock/core.js";
import { MATCH_FIELDS } from "../../mock/faults/match.js";
import { createControlOpenApiDocument, createOpenApiDocument } from "../../mock/openapi/document.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { controlValidator, undescribedAnswers, watchControlAnswers } from "./support/control-answers.js";

const KEY = "key_control_document";
const watched = watchControlAnswers();
let server: MockServer;
const control = createControlOpenApiDocument() as any;
const ajv = controlValidator(control);

beforeAll(async () => {
  server = await startMockServer({ port: 0, apiKeys: [KEY] });
});
afterAll(async () => {
  watched.stop();
  await server.close();
});

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { "x-api-key": KEY, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

describe("a route that takes no body documents the 400 it answers for one", () => {
  const bodyless = CONTROL_ROUTES.filter((route) => route.method !== "GET" && route.body === undefined);
  it.each(bodyless.map((route) => [`${route.method} ${route.path}`, route] as const))("%s", async (_, route) => {
    const path = route.path.replace(/\{\w+\}/g, "none");
    const answer = await send(route.method, path, { unexpected: true });
    await answer.arrayBuffer();
    expect(answer.status).toBe(400);
    expect(Object.keys(control.paths[route.path][route.method.toLowerCase()].responses)).toContain("400");
  });
});

describe("a fault's match: valid by the document exactly when the server accepts it", () => {
  const faultBody = "paths/~1__mock~1faults/post/requestBody/content/application~1json/schema";
  const valid = (body: unknown) => ajv.getSchema(`control.json#/${faultBody}`)!(body);
  const fields = [...new Set(Object.values(MATCH_FIELDS).flatMap((f) => [...f.params, ...Object.keys(f.body)])), "nothing"];
  const match = fc.dictionary(fc.constantFrom(...fields), fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null)), {
    maxKeys: 3,
  });
  const fault = fc.record(
    { kind: fc.constant("status"), status: fc.constant(503), operation: fc.constantFrom("all", ...OPERATIONS), match },
    { requiredKeys: ["kind", "status"] },
  );

  it.each([
    ["getPage matched on a path parameter", { kind: "status", status: 503, operation: "getPage", match: { pageId: "page_1" } }],
    ["getPage matched on a field of another operation", { kind: "status", status: 503, operation: "getPage", match: { source: "crm" } }],
    ["createProspectLog matched on a string field", { kind: "latency", ms: 1, operation: "createProspectLog", match: { email: "a@b.co" } }],
    [
      "updateWebhookSubscription, active compared with a string",
      { kind: "status", status: 500, operation: "updateWebhookSubscription", match: { active: "yes" } },
    ],
    ["a match without an operation", { kind: "status", status: 503, match: { pageId: "page_1" } }],
    ["an empty match without an operation", { kind: "status", status: 503, match: {} }],
  ])("%s", async (_, body) => {
    const answer = await send("POST", "/__mock/faults", body);
    await answer.arrayBuffer();
    await send("DELETE", "/__mock/faults").then((r) => r.arrayBuffer());
    expect({ documented: valid(body), accepted: answer.status === 201 }).toEqual({
      documented: answer.status === 201,
      accepted: answer.status === 201,
    });
  });

  it("property: for any operation and any match, the document and the server agree", async () => {
    await fc.assert(
      fc.asyncProperty(fault, async (body) => {
        const answer = await send("POST", "/__mock/faults", body);
        await answer.arrayBuffer();
        await send("DELETE", "/__mock/faults").then((r) => r.arrayBuffer());
        expect({ body, documented: valid(body) }).toEqual({ body, documented: answer.status === 201 });
      }),
      { numRuns: 200 },
    );
  });

  it("the schema has one branch per operation, naming its fields with propertyNames", () => {
    const branches = (control.paths as any)["/__mock/faults"].post.requestBody.content["application/json"].schema.allOf[0].anyOf;
    for (const operation of OPERATIONS) {
      const branch = branches.find((b: any) => b.properties?.operation?.const === operation);
      const { params, body } = MATCH_FIELDS[operation];
      expect(branch.properties.match.propertyNames.enum).toEqual([...params, ...Object.keys(body)]);
    }
  });
});

describe("Spectral's spectral:oas ruleset", () => {
  it.each([
    ["/__mock/openapi.json", control],
    ["/openapi.json", createOpenApiDocument()],
  ])(
    "%s: no error, no warning (every operation described, every component used)",
    async (_, document) => {
      const spectral = new Spectral();
      spectral.setRuleset({ extends: [[oas as never, "recommended"]] } as never);
      const results = await spectral.run(new Document(JSON.stringify(document), Parsers.Json, "openapi.json"));
      expect(results.filter((result) => result.severity <= 1).map((result) => `${result.code} ${result.path.join(".")}: ${result.message}`)).toEqual(
        [],
      );
    },
    60_000,
  );

  it("every control operation has a description of its own", () => {
    const operations = Object.values(control.paths as Record<string, Record<string, { operationId: string; description?: string }>>).flatMap(
      Object.values,
    );
    expect(operations.filter((operation) => !operation.description?.trim()).map((operation) => operation.operationId)).toEqual([]);
    expect(new Set(operations.map((operation) => operation.description)).size).toBe(operations.length);
  });
});

describe("the control API's OpenAPI document", () => {
  it("describes every answer this suite received from a control route: its status, media type and body", async () => {
    await watched.settled();
    const { problems, checked } = undescribedAnswers(watched.answers);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });
});
