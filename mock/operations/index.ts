/**
 * The API's part of the route table: one route per row of the operation table
 * (`src/operations.ts`), each answered by the behaviour in the operation's own file,
 * `mock/operations/<name>.ts` (its row's name in kebab case). The list is the table's: nothing
 * here names an operation, and a row without its file (or a file without its row) fails at load.
 * @module
 */
import type { OperationRow } from "../../src/operation-row.js";
import { OPERATION_TABLE, type OperationId } from "../../src/operation-table.js";
import type { Route } from "../pipeline/route.js";
import type { Store } from "../state/store.js";
import type { MockOperation, OperationBehaviour } from "./context.js";

export type { MockOperation } from "./context.js";

// One import per file, expanded by Vite (the tests) and by the build (scripts/import-meta-glob.ts).
// @ts-expect-error: import.meta.glob is Vite's and the build's, not the language's
const FILES: Readonly<Record<string, OperationBehaviour>> = import.meta.glob(["./*.ts", "!./index.ts", "!./context.ts"], { eager: true });

/** The file of an operation's behaviour: `./create-prospect-log.ts` for `createProspectLog`. */
export const behaviourFile = (name: string): string => `./${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.ts`;

/**
 * Every operation of the API with its behaviour, in the table's order: what a mock serves unless
 * its `operations` option says otherwise.
 * @throws {TypeError} at load, for a row without its file or a file without its row
 */
export const MOCK_OPERATIONS: readonly MockOperation[] = /* @__PURE__ */ (() => {
  const files = new Set(Object.keys(FILES));
  const operations = OPERATION_TABLE.map((row): MockOperation => {
    const file = behaviourFile(row.name);
    const behaviour = FILES[file];
    if (behaviour === undefined) throw new TypeError(`mock/operations: ${row.name} has no behaviour (mock/operations/${file.slice(2)})`);
    files.delete(file);
    return {
      row,
      run: behaviour.run,
      ...(behaviour.example && { example: behaviour.example }),
      ...(behaviour.record && { record: behaviour.record }),
    };
  });
  if (files.size > 0) throw new TypeError(`mock/operations: ${[...files].join(", ")} is named after no operation of the table`);
  return operations;
})();

/**
 * What a route of the API takes from its row of the operation table: method, path template and
 * parameters, the area and the operation (the mock's routes and the validating proxy's alike).
 * @param row - the row
 */
export function operationRoute(row: OperationRow): Pick<Route, "method" | "path" | "params" | "area" | "operation"> {
  // A row of the table is named by an OperationId; a test's own row by a name of its own.
  return { method: row.method, path: row.path, params: row.params, area: "api", operation: row.name as OperationId };
}

/**
 * The API's routes: method, path and parameters from each operation's row, a JSON body where the
 * row takes one (validated by the operation, as the state API does), the operation's behaviour.
 * @param store - the current state
 * @param operations - the operations served (every operation of the API unless a test gives its own)
 */
export function apiRoutes(store: () => Store, operations: readonly MockOperation[] = MOCK_OPERATIONS): Route[] {
  return operations.map(
    ({ row, run }): Route => ({
      ...operationRoute(row),
      ...(row.request !== undefined && { body: "json" as const }),
      // The handler checked the key first: a route of the API always has its caller's tenant.
      run: (context) => run({ ...context, store: store(), tenant: context.tenant! }),
    }),
  );
}
