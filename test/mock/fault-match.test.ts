/**
 * What a fault's match may name comes from the operation table: each operation's path parameters
 * and the top-level scalar fields of its body (never an object or a list such as `payload` or
 * `events`), as its request's JSON Schema shows them. A match on any path parameter of any
 * operation applies to the requests that carry its value only; the conformance rules have one row
 * per body field (a scenario each), so a field added to an operation is matched, and tested,
 * without anyone remembering to.
 */
import { describe, expect, it } from "vitest";
import { MATCH_FIELDS, type MatchFieldType } from "../../mock/faults/match.js";
import { createMockApi } from "../../mock/index.js";
import { toJsonSchema } from "../../mock/openapi/json-schema.js";
import { fillPath } from "../../src/operation-row.js";
import { OPERATION_TABLE } from "../../src/operation-table.js";
import { MATCH_ROWS } from "../conformance/rules/matched-faults.js";

/** The JSON Schema types a match compares. */
const SCALAR: Readonly<Record<string, MatchFieldType>> = { string: "string", number: "number", integer: "number", boolean: "boolean" };

/** A body field's scalar type as its JSON Schema says it (an `anyOf` with null, an enum of strings), or undefined. */
function scalarOf(schema: { type?: string | string[]; enum?: unknown[]; anyOf?: { type?: string }[] }): MatchFieldType | undefined {
  const types = [schema.type ?? [], ...(schema.anyOf ?? []).map((branch) => branch.type ?? [])].flat().filter((type) => type !== "null");
  if (types.length === 0 && schema.enum?.every((value) => typeof value === "string")) return "string";
  return types.length === 1 ? SCALAR[types[0]!] : undefined;
}

describe("the fields a match may name", () => {
  it("are each operation's path parameters and scalar body fields, with their types, as the request's JSON Schema shows them", () => {
    const expected = Object.fromEntries(
      OPERATION_TABLE.map((row) => {
        const properties = (row.request === undefined ? {} : (toJsonSchema(row.request.schema, "input").properties ?? {})) as Record<
          string,
          Parameters<typeof scalarOf>[0]
        >;
        const body = Object.entries(properties).flatMap(([name, schema]) => (scalarOf(schema) === undefined ? [] : [[name, scalarOf(schema)]]));
        return [row.name, { params: row.params.map((param) => param.key), body: Object.fromEntries(body) }];
      }),
    );
    expect(MATCH_FIELDS).toEqual(expected);
    // An object or a list is never one.
    expect(Object.values(MATCH_FIELDS).flatMap(({ body }) => Object.keys(body))).not.toContain("payload");
  });

  it("each body field has its row in the conformance rules of matched faults, and no row names another field", () => {
    const fields = Object.entries(MATCH_FIELDS).flatMap(([operation, { body }]) => Object.keys(body).map((field) => `${operation}.${field}`));
    const params = Object.entries(MATCH_FIELDS).flatMap(([operation, { params }]) => params.map((field) => `${operation}.${field}`));
    const rows = MATCH_ROWS.map((row) => `${row.operation}.${row.field}`);
    expect(rows.filter((row) => !params.includes(row)).sort()).toEqual(fields.sort());
  });
});

describe.each(OPERATION_TABLE.flatMap((row) => row.params.map((param) => [row.name, param.key, row] as const)))(
  "%s matched on its path parameter %s",
  (operation, key, row) => {
    it("only a request carrying the value triggers and consumes the fault; the others answer as without it", async () => {
      const api = createMockApi({ baseUrl: "https://fault-match.test" });
      const send = (value: string) =>
        api.fetch(`${api.baseUrl}${fillPath(row, (param) => encodeURIComponent(param.key === key ? value : `match_${param.key}`))}`, {
          method: row.method,
          headers: { "x-api-key": "mock_api_key" },
        });
      const unfaulted = (await send("match_hit")).status;
      api.faults.status(503, { operation, match: { [key]: "match_hit" } });
      expect((await send("match_miss")).status).toBe(unfaulted);
      expect(api.faults.pending()).toHaveLength(1);
      expect((await send("match_hit")).status).toBe(503);
      expect(api.faults.pending()).toEqual([]);
      expect((await send("match_hit")).status).toBe(unfaulted);
    });
  },
);
