/**
 * The client: every row of the operation table (`src/operations.ts`) as a method, made from the
 * row, each method documented as the standalone function of its row is.
 * @module
 */
import { type BaseClient, createBaseClient } from "./base-client.js";
import { type OperationFunction, operation } from "./operation.js";
import type { OperationRow } from "./operation-row.js";
import type * as exported from "./operations.js";
import table from "./operations.js";
import type { ClientOptions, RequestOptions } from "./options.js";
import type { APIPromise } from "./request.js";

/** The method of an operation function: the same call with the client bound. */
type MethodOf<F> = F extends OperationFunction<infer Input, infer Result> ? (input: Input, options?: RequestOptions) => APIPromise<Result> : never;

/**
 * A method for each function of `table`, under the same name and with the same documentation
 * (a mapped type over the functions keeps each one's).
 */
type MethodsOf<Table> = { readonly [Name in keyof Table]: MethodOf<Table[Name]> };

/**
 * Every operation function of the table, by name (each with its documentation): the module's
 * exports that are operations (it also exports their input types and the schemas their rows name).
 * `src/operation-table.ts` fails to compile when one has no row, or a row no function.
 */
type Operations = {
  readonly [Name in keyof typeof exported as (typeof exported)[Name] extends OperationFunction<never, unknown>
    ? Name
    : never]: (typeof exported)[Name];
};

/** The client: every operation of the API as a method. Create it with {@link createClient}. */
export interface ProspectKitClient extends BaseClient, MethodsOf<Operations> {}

/**
 * A client with a method for each row of `rows`, made from the row: what {@link createClient}
 * makes with the table, and how a test makes one with operations of its own (`Methods` says
 * their types).
 * @param rows - the operations' rows
 * @param options - as for {@link createClient}
 * @internal
 */
export function clientWith<Methods>(rows: readonly OperationRow[], options?: ClientOptions): BaseClient & Methods {
  const client = createBaseClient(options) as BaseClient & Record<string, unknown>;
  for (const row of rows) {
    const run = operation(row);
    client[row.name] = (input: unknown, callOptions?: RequestOptions) => run(client, input, callOptions);
  }
  return client as BaseClient & Methods;
}

/** The methods of a client built from the table and more rows, whose functions are `Table`. @internal */
export type ClientOf<Table> = BaseClient & MethodsOf<Table>;

/**
 * Creates a client for the API.
 *
 * @param options - `apiKey` (default `PROSPECTKIT_API_KEY`), `baseUrl` (the host root without
 *   `/v0`; default `PROSPECTKIT_BASE_URL`), and the defaults of every call: `timeoutMs`
 *   (60 000 per attempt), `totalTimeoutMs`, `maxRetries` (2), `headers`, `fetch`,
 *   `validateRequests` (true), `validateResponses` (`"strict"`), logging and hooks
 * @returns the client
 * @throws {ConfigurationError} when the key is missing, the base URL is not an absolute http(s)
 *   URL (or ends in `/v0`), an option is out of range, or no `fetch` exists
 *
 * @example
 * ```ts
 * import { createClient, NotFoundError } from "prospectkit";
 *
 * const client = createClient({ apiKey: process.env.PROSPECTKIT_API_KEY, baseUrl: "https://api.example.com" });
 * const log = await client.createProspectLog({ source: "crm", payload: { stage: "demo" }, email: "a@b.co" });
 * const { data: page, requestId } = await client.getPage({ pageGroupId, pageId }).withResponse();
 * ```
 */
export function createClient(options?: ClientOptions): ProspectKitClient {
  return clientWith<MethodsOf<Operations>>(table.rows, options);
}
