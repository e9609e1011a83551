/**
 * The operation table as a list: the row of every operation of `src/operations.ts`, in its order.
 * Nothing names an operation here: a row added there is in the table.
 * @module
 */

import type { BaseClient } from "./base-client.js";
import type { ProspectKitClient } from "./client.js";
import { rowOf } from "./operation.js";
import type { OperationRow } from "./operation-row.js";
import operations from "./operations.js";

/** One of the API's operations, named as the SDK names its functions and the client its methods. */
export type OperationId = Exclude<keyof ProspectKitClient, keyof BaseClient>;

/** A row of the table, named. */
export type NamedRow = OperationRow & { readonly name: OperationId };

/**
 * Every row of the operation table, in the spec's order. The SDK's methods, the mock's router, the
 * MSW handlers, the OpenAPI document, the fault targets and the CLI banner are all derived from
 * it (test/architecture/operation-table.test.ts checks each).
 * @internal
 */
export const OPERATION_TABLE: readonly NamedRow[] = /* @__PURE__ */ Object.values(operations).map((run) => rowOf(run) as NamedRow);

/** The API's operations, named as the SDK names its methods. */
export const OPERATIONS: readonly OperationId[] = /* @__PURE__ */ OPERATION_TABLE.map((row) => row.name);
