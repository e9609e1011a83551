/**
 * Field error wording, over every bounded field and every closed list of values in the API's
 * schemas, the control API's and the state inputs' (found by walking the schemas, so a field
 * added later is covered too): a number's bound says a number ("must be at least 400"), a
 * string's says characters, an array's says items, and every enum lists what it allows. The SDK
 * and the mock both word their errors with toFieldErrors, so this holds for both.
 */

import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import * as control from "../../mock/control/schemas.js";
import * as inputs from "../../mock/state/inputs.js";
import * as api from "../../src/schemas/index.js";
import { fieldErrors } from "./support/field-errors.js";

type Def = { type: string; [key: string]: unknown };
type Node = { _zod: { def: Def } };

const isSchema = (value: unknown): value is Node => typeof value === "object" && value !== null && "_zod" in value;

/** A bound found on a schema: where, on what, which side, the limit. */
interface Bound {
  readonly name: string;
  readonly schema: Node;
  readonly kind: "number" | "string" | "array";
  readonly side: "min" | "max";
  readonly limit: number;
  readonly inclusive: boolean;
}

/** A closed list of values found on a schema. */
interface Closed {
  readonly name: string;
  readonly schema: Node;
  readonly values: readonly unknown[];
  readonly bad: unknown;
}

const bounds: Bound[] = [];
const closed: Closed[] = [];

function walk(name: string, node: Node, seen: Set<Node>): void {
  if (seen.has(node)) return;
  seen.add(node);
  const def = node._zod.def;
  const kind = def.type === "string" ? "string" : def.type === "array" ? "array" : def.type === "number" ? "number" : undefined;
  for (const check of (def["checks"] as Node[] | undefined) ?? []) {
    const c = check._zod.def as Def & { check: string; value?: number; minimum?: number; maximum?: number; inclusive?: boolean };
    if (kind === undefined) continue;
    if (c.check === "min_length") bounds.push({ name, schema: node, kind, side: "min", limit: c.minimum!, inclusive: true });
    if (c.check === "max_length") bounds.push({ name, schema: node, kind, side: "max", limit: c.maximum!, inclusive: true });
    if (c.check === "greater_than") bounds.push({ name, schema: node, kind, side: "min", limit: c.value!, inclusive: c.inclusive! });
    if (c.check === "less_than") bounds.push({ name, schema: node, kind, side: "max", limit: c.value!, inclusive: c.inclusive! });
  }
  if (def.type === "enum") closed.push({ name, schema: node, values: Object.values(def["entries"] as object), bad: "not-a-known-value" });
  if (def.type === "literal") closed.push({ name, schema: node, values: def["values"] as unknown[], bad: "not-a-known-value" });
  if (def.type === "union" && typeof def["discriminator"] === "string") {
    const key = def["discriminator"];
    const values = (def["options"] as Node[]).flatMap(
      (option) => ((option._zod.def["shape"] as Record<string, Node>)[key]!._zod.def["values"] as unknown[]) ?? [],
    );
    closed.push({ name: `${name}/${key} (tag)`, schema: node, values, bad: { [key]: "boom" } });
  }
  if (def.type === "object") for (const [key, child] of Object.entries(def["shape"] as Record<string, Node>)) walk(`${name}/${key}`, child, seen);
  for (const inner of ["innerType", "element", "in", "out"]) if (isSchema(def[inner])) walk(name, def[inner], seen);
  if (Array.isArray(def["options"])) for (const [i, option] of (def["options"] as Node[]).entries()) walk(`${name}|${i}`, option, seen);
}

for (const [module, exports] of [
  ["api", api],
  ["control", control],
  ["inputs", inputs],
] as const) {
  for (const [name, value] of Object.entries(exports)) if (isSchema(value)) walk(`${module}.${name}`, value, new Set());
}

/** A value just past the bound. */
function violating(bound: Bound): unknown {
  const past = bound.side === "min" ? (bound.inclusive ? bound.limit - 1 : bound.limit) : bound.inclusive ? bound.limit + 1 : bound.limit;
  if (bound.kind === "number") return past;
  if (bound.kind === "string") return "x".repeat(past);
  return Array.from({ length: past }, () => "x");
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

function expected(bound: Bound): { code: string; detail: string } {
  if (bound.kind === "number") {
    const words = bound.side === "min" ? (bound.inclusive ? "at least" : "greater than") : bound.inclusive ? "at most" : "less than";
    return { code: bound.side === "min" ? "too_small" : "too_big", detail: `the body must be ${words} ${bound.limit}` };
  }
  const noun = bound.kind === "string" ? "character" : "item";
  return {
    code: bound.side === "min" ? "too_short" : "too_long",
    detail: `the body must have ${bound.side === "min" ? "at least" : "at most"} ${plural(bound.limit, noun)}`,
  };
}

describe("the walk finds the bounded fields users trip on", () => {
  it.each([
    ["control.ControlFault|0/status", "number", "min", 400],
    ["control.ControlFault|0/status", "number", "max", 599],
    ["control.ControlFault|0/times", "number", "min", 1],
    ["control.ControlFault|1/ms", "number", "max", 600_000],
    ["api.ProspectLogCreate/source", "string", "max", 100],
    ["api.WebhookSubscriptionUpdate/url", "string", "max", 2048],
  ])("%s (%s, %s %d)", (name, kind, side, limit) => {
    expect(bounds).toContainEqual(expect.objectContaining({ name, kind, side, limit }));
  });

  it("and the closed lists: event kinds, fault kinds and operations", () => {
    const names = closed.map((list) => list.name);
    expect(names).toEqual(expect.arrayContaining(["api.WebhookEventKind", "control.ControlFault/kind (tag)", "control.FaultOperation"]));
  });
});

describe("a bound says what it counts", () => {
  // one case per schema and bound: a schema shared by many fields (OpaqueId) under its first name
  const cases = bounds.filter((b, i) => bounds.findIndex((other) => other.schema === b.schema && other.side === b.side) === i);

  it.each(cases.map((b) => [b.name, b.kind, b.side, b.limit, b] as const))("%s: %s %s %d", (_name, _kind, _side, _limit, bound) => {
    const errors = fieldErrors(bound.schema as unknown as z.ZodMiniType, violating(bound)).filter((e) => /^too_/.test(e.code));
    expect(errors).toEqual([{ pointer: "", ...expected(bound) }]);
  });
});

describe("every enum lists what it allows", () => {
  it.each(closed.map((list) => [list.name, list] as const))("%s", (_name, list) => {
    const [error] = fieldErrors(list.schema as unknown as z.ZodMiniType, list.bad);
    expect(error?.code).toBe("invalid_value");
    expect(error?.detail).toMatch(/ must be one of /);
    for (const value of list.values) expect(error?.detail).toContain(JSON.stringify(value));
  });
});

describe("patterns a person reads in words", () => {
  it.each([
    ["phoneNumber", "0049301234567", "phoneNumber must be a phone number in E.164 form: a plus sign, then 2 to 15 digits, the first not 0"],
    ["prospectId", "prospect_ABC", "prospectId must be prospect_ followed by 26 lower-case letters or digits"],
  ])("%s", (field, value, detail) => {
    const errors = fieldErrors(api.ProspectLogCreate, { source: "crm", payload: {}, [field]: value });
    expect(errors).toEqual([{ pointer: `/${field}`, code: "invalid_format", detail }]);
  });
});
