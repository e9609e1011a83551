/**
 * The client: every operation of the table as a method, derived from the operations' functions
 * (`src/operations.ts`), each method documented by its row.
 * @module
 */
import { type BaseClient, createBaseClient } from "./base-client.js";
import type { OperationFunction } from "./operation.js";
import type * as exported from "./operations.js";
import operations from "./operations.js";
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
 */
type Operations = {
  readonly [Name in keyof typeof exported as (typeof exported)[Name] extends OperationFunction<never, unknown>
    ? Name
    : never]: (typeof exported)[Name];
};

/** The client: every operation of the API as a method. Create it with {@link createClient}. */
export interface ProspectKitClient extends BaseClient, MethodsOf<Operations> {}

/**
 * A client with a method for each operation function of `table`: what {@link createClient} makes
 * with every operation of the API, and how a test makes one with operations of its own.
 * @param table - the operation functions, by name
 * @param options - as for {@link createClient}
 * @internal
 */
export function clientWith<Table extends Readonly<Record<string, OperationFunction<never, unknown>>>>(
  table: Table,
  options?: ClientOptions,
): BaseClient & MethodsOf<Table> {
  const client = createBaseClient(options) as BaseClient & Record<string, unknown>;
  for (const [name, run] of Object.entries(table)) client[name] = (input: never, callOptions?: RequestOptions) => run(client, input, callOptions);
  return client as BaseClient & MethodsOf<Table>;
}

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
  // Typed as every export of the table: an operation missing from its default export does not compile.
  const table: Operations = operations;
  return clientWith(table, options);
}
