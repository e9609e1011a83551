/**
 * The operation table as a list: every row of `src/operations.ts`, in its order. Nothing names an
 * operation here: a row added there is in the table.
 * @module
 */

import type { BaseClient } from "./base-client.js";
import type { ProspectKitClient } from "./client.js";
import type { OperationRow } from "./operation-row.js";
import table from "./operations.js";

/** One of the API's operations, named as the SDK names its functions and the client its methods. */
export type OperationId = Exclude<keyof ProspectKitClient, keyof BaseClient>;

/** Holds only a `true`. */
type Holds<T extends true> = T;
/**
 * Every operation function has its row in the table's default export: one without fails to
 * compile here (and a row whose name is no function fails at {@link OPERATION_TABLE}: a
 * {@link NamedRow}'s name is an {@link OperationId}).
 * @internal
 */
export type EveryFunctionHasItsRow = Holds<[Exclude<OperationId, (typeof table.rows)[number]["name"]>] extends [never] ? true : false>;

/** A row of the table, named. */
export type NamedRow = OperationRow & { readonly name: OperationId };

/**
 * Every row of the operation table, in the spec's order. The SDK's methods, the mock's router, the
 * MSW handlers, the OpenAPI document, the fault targets and the CLI banner are all derived from
 * it (test/architecture/operation-table.test.ts checks each).
 * @internal
 */
export const OPERATION_TABLE: readonly NamedRow[] = table.rows;

/** The schemas the rows name, by the name each is exported under. @internal */
export const ROW_SCHEMAS: Readonly<Record<string, unknown>> = table.schemas;

/** The API's operations, named as the SDK names its methods. */
export const OPERATIONS: readonly OperationId[] = /* @__PURE__ */ OPERATION_TABLE.map((row) => row.name);

/**
 * A value for each operation, by name: what the mock's behaviour and the contract check's
 * per-operation part are. An operation missing, or one the table does not have, fails `tsc`.
 */
export type PerOperation<T> = { readonly [Name in OperationId]: T };
