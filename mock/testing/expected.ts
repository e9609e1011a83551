/**
 * A partial request, as a test expects it (`{ body, params, query, headers, status }`), and how a
 * logged request is compared with it: through the runner's own `equals`, so asymmetric matchers
 * (`expect.objectContaining`, `expect.any`) work anywhere inside it.
 * @module
 */
import { OPERATION_TABLE, type OperationId } from "../../src/operation-table.js";
import { API_KEY_HEADER } from "../../src/redact.js";
import type { LoggedRequest } from "../observe/request-log.js";

/**
 * A partial request: only the parts named are compared. `body` and `status` are compared whole
 * (wrap the body in `expect.objectContaining` to name some of its fields); `params`, `query` and
 * `headers` by the names given (a header's name in any case). The API key is never compared: a
 * `headers` naming `x-api-key` is refused.
 */
export interface ExpectedRequest {
  /** The JSON request body (or an asymmetric matcher). */
  readonly body?: unknown;
  /** Path parameters by their SDK names (`pageGroupId`, `pageId`, `subscriptionId`), decoded. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Query parameters by name (the log keeps them when a request had any). */
  readonly query?: Readonly<Record<string, unknown>>;
  /** Request headers by name (the log keeps the API's own, such as `idempotency-key`; never `x-api-key`). */
  readonly headers?: Readonly<Record<string, unknown>>;
  /** The HTTP status the mock answered (0: a dropped connection). */
  readonly status?: unknown;
}

/** The runner's deep equality, asymmetric matchers included (`this.equals`). */
export type Equals = (a: unknown, b: unknown) => boolean;

const PARTS = ["body", "params", "query", "headers", "status"] as const;
type Part = (typeof PARTS)[number];
const KEYED: readonly Part[] = ["params", "query", "headers"];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** The sample of an `expect.objectContaining(...)` (Vitest's and Jest's both keep it as `sample`), or undefined. */
function containingSample(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null || typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch !== "function") return undefined;
  const { sample } = value as { sample?: unknown };
  return String(value).startsWith("ObjectContaining") && isPlainObject(sample) ? sample : undefined;
}

/**
 * Checks what a test passed as `expected`.
 * @throws {TypeError} for something that is not a partial request, or a `headers` naming the key
 */
export function checkExpected(expected: unknown): ExpectedRequest {
  if (expected === undefined) return {};
  if (!isPlainObject(expected)) throw new TypeError("expected must be a partial request: { body, params, query, headers, status }");
  const unknown = Object.keys(expected).filter((key) => !(PARTS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new TypeError(`expected has no part ${unknown.map((key) => JSON.stringify(key)).join(", ")}: name body, params, query, headers or status`);
  }
  for (const part of KEYED) {
    if (expected[part] !== undefined && !isPlainObject(expected[part])) throw new TypeError(`expected.${part} must be an object of names and values`);
  }
  const headers = expected.headers as Record<string, unknown> | undefined;
  if (headers !== undefined && Object.keys(headers).some((name) => name.toLowerCase() === API_KEY_HEADER)) {
    throw new TypeError(`expected.headers names ${API_KEY_HEADER}: the request log never keeps the API key, so it cannot be compared`);
  }
  return expected as ExpectedRequest;
}

/** The row of an operation. */
export function rowOf(operation: OperationId) {
  const row = OPERATION_TABLE.find((candidate) => candidate.name === operation);
  if (row === undefined) {
    throw new TypeError(`${JSON.stringify(operation)} is not an operation of the API (one of ${OPERATION_TABLE.map((r) => r.name).join(", ")})`);
  }
  return row;
}

/** The decoded path parameters of a logged request of `operation` (its path's last segments against the template). */
export function paramsOf(operation: OperationId, path: string): Record<string, string> {
  const row = rowOf(operation);
  const template = row.path.split("/");
  const segments = path.split("/").slice(-template.length);
  const params: Record<string, string> = {};
  template.forEach((part, i) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name === undefined) return;
    const key = row.params.find((param) => param.name === name)?.key ?? name;
    try {
      params[key] = decodeURIComponent(segments[i] ?? "");
    } catch {
      params[key] = segments[i] ?? "";
    }
  });
  return params;
}

/** A logged request as the parts of {@link ExpectedRequest}. */
export interface SeenRequest {
  readonly body: unknown;
  readonly params: Record<string, string>;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly status: number;
}

/** The parts of a logged request. */
export function seen(entry: LoggedRequest): SeenRequest {
  return {
    body: entry.requestBody,
    params: entry.operation === null ? {} : paramsOf(entry.operation, entry.path),
    query: entry.query ?? {},
    headers: entry.headers ?? {},
    status: entry.status,
  };
}

/** The value of `name` in a keyed part (a header's name in any case). */
const valueIn = (part: Part, values: Record<string, string>, name: string) =>
  part === "headers" ? values[name.toLowerCase()] : Object.hasOwn(values, name) ? values[name] : undefined;

/**
 * What of `expected` a request does not satisfy: the paths of the fields that differ (`body`,
 * `body.email`, `params.pageId`, `status`); empty when it matches. A body that is an object is
 * counted field by field, so the nearest request is the one with the fewest differing fields.
 */
export function differences(expected: ExpectedRequest, request: SeenRequest, equals: Equals): string[] {
  const found: string[] = [];
  for (const part of PARTS) {
    const wanted = expected[part];
    if (wanted === undefined) continue;
    if (part === "body" || part === "status") {
      if (equals(request[part], wanted)) continue;
      const actual = request[part];
      const sample = containingSample(wanted);
      if (sample !== undefined && isPlainObject(actual)) {
        const fields = Object.keys(sample).filter((name) => !Object.hasOwn(actual, name) || !equals(actual[name], sample[name]));
        found.push(...(fields.length > 0 ? fields.map((name) => `body.${name}`) : ["body"]));
      } else if (isPlainObject(wanted) && isPlainObject(actual)) {
        const names = new Set([...Object.keys(wanted), ...Object.keys(actual)]);
        const fields = [...names].filter((name) => !equals(actual[name], wanted[name])).map((name) => `body.${name}`);
        found.push(...(fields.length > 0 ? fields : ["body"]));
      } else found.push(part);
      continue;
    }
    for (const [name, value] of Object.entries(wanted as Record<string, unknown>)) {
      if (!equals(valueIn(part, request[part], name), value)) found.push(`${part}.${name}`);
    }
  }
  return found;
}

/**
 * `expected` and the parts of a request it names, side by side for the runner's diff: keyed parts
 * with only the names given; a body wanted as `expect.objectContaining(sample)` as the sample,
 * beside the request body's fields of the same names (so the diff shows the fields, not the wrapper).
 */
export function diffPair(
  expected: ExpectedRequest,
  request: SeenRequest,
): readonly [wanted: Record<string, unknown>, shown: Record<string, unknown>] {
  const wanted: Record<string, unknown> = {};
  const shown: Record<string, unknown> = {};
  for (const part of PARTS) {
    const value = expected[part];
    if (value === undefined) continue;
    wanted[part] = value;
    if (part === "body" || part === "status") {
      const sample = part === "body" ? containingSample(value) : undefined;
      const actual = request[part];
      if (sample !== undefined && isPlainObject(actual)) {
        wanted[part] = sample;
        shown[part] = Object.fromEntries(
          Object.keys(sample)
            .filter((name) => Object.hasOwn(actual, name))
            .map((name) => [name, actual[name]]),
        );
      } else shown[part] = actual;
    } else {
      const values: Record<string, unknown> = {};
      for (const name of Object.keys(value as Record<string, unknown>)) values[name] = valueIn(part, request[part], name);
      shown[part] = values;
    }
  }
  return [wanted, shown];
}
