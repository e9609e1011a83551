/**
 * Issue 26.4: docs/server.md describes each control route once, as the control API's own
 * document (`/__mock/openapi.json`) has it. Each table row `| \`METHOD /__mock/path\` | body |
 * status answer |` is checked against the document: the route exists and no row repeats it, every
 * route has a row, the status is the documented success status, the query names are the
 * documented query parameters, and where a body or an answer is written as fields
 * (`{ url, events?, id? }`, `{ id, secret, previousSecret: { secret, expiresAt } | null }`), the
 * fields are the schema's (`?`: optional; `| null`: nullable; nested objects too).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createControlOpenApiDocument } from "../../mock/openapi/document.js";
import { ROOT } from "./support/cli-process.js";

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
  responses: Record<string, { content?: { "application/json"?: { schema: Schema } } }>;
}

const document = createControlOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };
const guide = readFileSync(join(ROOT, "docs/server.md"), "utf8");

/** A route with its parameters' names left out: `/__mock/page_versions/{}/process`. */
const shape = (path: string) => path.replace(/\{\w*\}/g, "{}");

/** Every row of the guide's tables that names a control route (cells split at pipes not escaped as `\|`). */
const rows = guide
  .split("\n")
  .filter((line) => /^\| `(GET|POST|PATCH|DELETE) \/__mock/.test(line))
  .map((line) => {
    const [, route = "", body = "", answer = ""] = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    const [, method, path, query = ""] = /^`(\w+) ([^`[?]*)(?:\[\?(.*)\])?`$/.exec(route)!;
    return { method: method!, path: path!, query: [...query.matchAll(/(\w+)=/g)].map((m) => m[1]!), body, answer };
  });

/** The documented operation of a row, if any. */
function operationOf(method: string, path: string): Operation | undefined {
  const template = Object.keys(document.paths).find((candidate) => shape(candidate) === shape(path));
  return template === undefined ? undefined : document.paths[template]![method.toLowerCase()];
}

/** One field of the notation: its name, whether `?` marks it optional, its nested fields and nullability. */
interface Field {
  readonly name: string;
  readonly optional: boolean;
  readonly nested: Field[] | undefined;
  readonly nullable: boolean;
}

/** Splits at the commas that are not inside braces or brackets. */
function topLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    else if (char === "," && depth === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** Parses `{ a, b?, c: { d } | null, e: [...] }` into its fields. */
function fields(notation: string): Field[] {
  const inner = notation.trim().replace(/^\{/, "").replace(/\}$/, "");
  return topLevel(inner).map((part) => {
    const [, name, optional, type = ""] = /^(\w+)(\?)?(?::\s*(.*))?$/s.exec(part) ?? [];
    if (name === undefined) throw new TypeError(`not a field: ${part}`);
    const object = /^(\{.*\})\s*(\|\s*null)?$/s.exec(type);
    return { name, optional: optional === "?", nested: object ? fields(object[1]!) : undefined, nullable: /\|\s*null$/.test(type) };
  });
}

/** The object schema of a property: itself, or the object branch of a nullable one. */
const objectOf = (schema: Schema): Schema | undefined =>
  schema.properties !== undefined ? schema : [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((branch) => branch.properties !== undefined);
const allowsNull = (schema: Schema): boolean =>
  [schema.type].flat().includes("null") || [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((branch) => branch.type === "null");

/**
 * How the notation differs from the schema (empty: it agrees). An answer marks every nullable
 * field `| null`; a body need not (sending null is never needed), but what it marks must be so.
 */
function differences(notation: Field[], schema: Schema, side: "body" | "answer", at = ""): string[] {
  const properties = schema.properties ?? {};
  const found: string[] = [];
  const written = notation.map((field) => field.name).sort();
  const documented = Object.keys(properties).sort();
  if (written.join() !== documented.join())
    found.push(`${at || "the body"}: fields ${written.join(", ")}; the document has ${documented.join(", ")}`);
  for (const field of notation) {
    const property = properties[field.name];
    if (property === undefined) continue;
    const required = schema.required?.includes(field.name) ?? false;
    if (field.optional === required) found.push(`${at}${field.name}: written ${field.optional ? "optional" : "required"}, documented the other way`);
    if (field.nullable !== allowsNull(property) && (side === "answer" || field.nullable))
      found.push(`${at}${field.name}: written ${field.nullable ? "" : "not "}nullable, documented the other way`);
    if (field.nested !== undefined) {
      const object = objectOf(property);
      if (object === undefined) found.push(`${at}${field.name}: written as an object, documented otherwise`);
      else found.push(...differences(field.nested, object, side, `${at}${field.name}.`));
    }
  }
  return found;
}

/** The field notation of a table cell, if it is written that way (`{ id, secret }`, not `{"reset":true}`). */
const notationIn = (cell: string) => /`(\{ \w[^`]*\})`/.exec(cell.replaceAll("\\|", "|"))?.[1];

describe("docs/server.md's control route tables agree with /__mock/openapi.json", () => {
  it("finds the rows", () => {
    expect(rows.length).toBeGreaterThan(20);
  });

  it("each route in the document has exactly one row, and each row a route in the document", () => {
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${shape(path)}`),
    );
    const written = rows.map((row) => `${row.method} ${shape(row.path)}`);
    expect(written.filter((route, index) => written.indexOf(route) !== index)).toEqual([]);
    expect([...written].sort()).toEqual([...documented].sort());
  });

  it.each(rows.map((row) => [`${row.method} ${row.path}`, row] as const))("%s: status, query, body and answer fields as documented", (_, row) => {
    const operation = operationOf(row.method, row.path)!;
    const [status] = Object.keys(operation.responses).filter((code) => code.startsWith("2"));
    expect(row.answer.startsWith(`${status} `), `the answer column starts with ${status}`).toBe(true);
    expect(row.query).toEqual((operation.parameters ?? []).filter((parameter) => parameter.in === "query").map((parameter) => parameter.name));
    const body = notationIn(row.body);
    if (body !== undefined) expect(differences(fields(body), operation.requestBody!.content["application/json"].schema, "body")).toEqual([]);
    const answer = notationIn(row.answer);
    if (answer !== undefined)
      expect(differences(fields(answer), operation.responses[status!]!.content!["application/json"]!.schema, "answer")).toEqual([]);
  });

  it("the field notation parser reads what the rows write", () => {
    expect(fields("{ id, secret?, previousSecret: { secret, expiresAt } | null, data: [...] }")).toEqual([
      { name: "id", optional: false, nested: undefined, nullable: false },
      { name: "secret", optional: true, nested: undefined, nullable: false },
      {
        name: "previousSecret",
        optional: false,
        nested: [
          { name: "secret", optional: false, nested: undefined, nullable: false },
          { name: "expiresAt", optional: false, nested: undefined, nullable: false },
        ],
        nullable: true,
      },
      { name: "data", optional: false, nested: undefined, nullable: false },
    ]);
  });
});
