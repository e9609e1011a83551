/**
 * What a fault's match may name comes from the operation table: each operation's path parameters
 * and the top-level scalar fields of its body (never an object or a list such as `payload` or
 * `events`). The conformance rules have one row per such field, so a field added to an operation
 * is matched, and tested, without anyone remembering to.
 */
import { describe, expect, it } from "vitest";
import { MATCH_FIELDS } from "../../mock/faults/match.js";
import { MATCH_ROWS } from "../conformance/rules/matched-faults.js";

describe("the fields a match may name", () => {
  it("are each operation's path parameters and scalar body fields, with their types", () => {
    expect(MATCH_FIELDS).toEqual({
      createProspectLog: {
        params: [],
        body: {
          source: "string",
          type: "string",
          prospectId: "string",
          email: "string",
          phoneNumber: "string",
          linkedinProfileUrl: "string",
          idempotencyKey: "string",
          name: "string",
        },
      },
      getPage: { params: ["pageGroupId", "pageId"], body: {} },
      updateWebhookSubscription: { params: ["subscriptionId"], body: { url: "string", active: "boolean" } },
    });
  });

  it("each has its row in the conformance rules of matched faults, and no row names another", () => {
    const fields = Object.entries(MATCH_FIELDS).flatMap(([operation, { params, body }]) =>
      [...params, ...Object.keys(body)].map((field) => `${operation}.${field}`),
    );
    expect(MATCH_ROWS.map((row) => `${row.operation}.${row.field}`).sort()).toEqual(fields.sort());
  });
});
