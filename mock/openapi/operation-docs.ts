/**
 * What the OpenAPI document says about each operation, all from its row (`src/operations.ts`):
 * its prose, its path parameters' descriptions, and the names its request and result schemas are
 * exported under beside it (the document's components). A row outside the table (a test's own)
 * brings its prose the same way; its schemas, exported nowhere, are written in place.
 * @module
 */
import type { OperationProse, OperationRow } from "../../src/operation-row.js";
import { OPERATION_TABLE, ROW_SCHEMAS } from "../../src/operation-table.js";

/** What the OpenAPI document and the banner say about an operation. */
export interface OperationDocs extends OperationProse {
  /** Each path parameter's description, by input field. */
  readonly fields: Readonly<Record<string, string>>;
  /** The names the row's request and result schemas are exported under: the document's components. */
  readonly schemas: { readonly request?: string; readonly result?: string };
}

/** The name `schema` is exported under beside the rows, if any. */
const exportedName = (schema: unknown): string | undefined => Object.entries(ROW_SCHEMAS).find(([, value]) => value === schema)?.[0];

/**
 * An operation's prose and names, from its row.
 * @param row - the row
 */
export function docsOf(row: OperationRow): OperationDocs {
  const [request, result] = [exportedName(row.request?.schema), exportedName(row.result)];
  return {
    ...row.docs,
    fields: Object.fromEntries(row.params.map((param) => [param.key, param.description])),
    schemas: { ...(request !== undefined && { request }), ...(result !== undefined && { result }) },
  };
}

/** Each operation's prose and names, by operation. */
export const OPERATION_DOCS: Readonly<Record<string, OperationDocs>> = /* @__PURE__ */ Object.fromEntries(
  OPERATION_TABLE.map((row) => [row.name, docsOf(row)]),
);
