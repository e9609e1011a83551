/**
 * What one row of the operation table holds: everything about an operation that is not its
 * behaviour (its method, path and parameters, request and result schemas, statuses and retry
 * class, its prose), and the helpers every consumer of a row shares. The rows themselves are
 * plain data, in `src/operations.ts`.
 * @module
 */
import type * as z from "zod/mini";
import type { ErrorStatus } from "./schemas/problem.js";

/** The prefix of every path of the API (the `baseUrl` is the host root without it). */
export const API_PREFIX = "/v0";

/**
 * How a failed attempt may be repeated without changing the outcome:
 * `safe` (a read), `idempotent` (the same absolute change twice is the change once), or
 * `idempotency-key` (made safe by a key in the body that is the same on every attempt; the server
 * replays the first answer).
 */
export type RetryClass = "safe" | "idempotent" | "idempotency-key";

/** A parameter of a path template: its name in the template, and the SDK's input field that fills it. */
export interface PathParam {
  /** As written in the template (`{page_group_id}`) and in the OpenAPI document. */
  readonly name: string;
  /** The input field of the SDK and the key of the mock's decoded params (`pageGroupId`). */
  readonly key: string;
  /** What it names, as the input field's TSDoc says it: the OpenAPI parameter's description. */
  readonly description: string;
}

/**
 * What the OpenAPI document and the CLI banner say about an operation: the same text as its
 * standalone function's TSDoc (test/architecture/operation-docs.test.ts holds the two together).
 */
export interface OperationProse {
  /** The TSDoc's first paragraph, without its final period: "Get a page with its published version". */
  readonly summary: string;
  /** The rest of the TSDoc's summary section (before the first block tag), as Markdown. */
  readonly description?: string;
  /** `@param input`, as a sentence: the request's description. */
  readonly input: string;
  /** `@returns`, as a sentence: the success response's description. */
  readonly result: string;
}

/**
 * A JSON request body: its schema, and how the SDK turns the caller's fields into the body it
 * sends. The converter comes with the body (see `src/json-body.ts`), so a bundle that uses only
 * operations without one never carries it.
 */
export interface RequestBody {
  readonly schema: z.ZodMiniType;
  /**
   * The body to send: a JSON-safe copy of `fields`, with an idempotency key added for the
   * `idempotency-key` retry class.
   * @throws {RequestValidationError} for a value JSON cannot carry
   */
  encode(operation: string, fields: unknown, retry: RetryClass): object;
}

/**
 * One row of the operation table: everything about an operation that is not its behaviour. The
 * SDK's function and method, the mock's route, the MSW handler, the OpenAPI operation (with the
 * prose of the row's documentation), the fault targets, the CLI banner's example and the contract
 * check's generic rules all derive from it.
 * @internal
 */
export interface OperationRow {
  /** The SDK's method name, the mock's operation ID and the OpenAPI `operationId`. */
  readonly name: string;
  readonly method: "GET" | "POST" | "PATCH";
  /** The path template, `{name}` for each parameter (spec 4). */
  readonly path: string;
  /** The template's parameters, in order (none: `[]`). */
  readonly params: readonly PathParam[];
  /** The JSON body, when the operation takes one: the input's fields that fill no path parameter. */
  readonly request?: RequestBody;
  /** The success body's schema. */
  readonly result: z.ZodMiniType;
  /** The success status. */
  readonly success: 200 | 201;
  /** Every error status the operation can answer (never 405, which the router answers for a path's other methods). */
  readonly errors: readonly Exclude<ErrorStatus, 405>[];
  readonly retry: RetryClass;
  /** Its prose, for the OpenAPI document and the CLI banner. */
  readonly docs: OperationProse;
}

/**
 * A row's path with every parameter filled in.
 * @param row - the table row
 * @param value - the text for one parameter (the SDK passes it URL-encoded; the CLI banner may pass a placeholder)
 * @internal
 */
export function fillPath(row: Pick<OperationRow, "path" | "params">, value: (param: PathParam) => string): string {
  let path = row.path;
  for (const param of row.params) path = path.replace(`{${param.name}}`, value(param));
  return path;
}
