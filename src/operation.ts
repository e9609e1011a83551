/**
 * An operation of the API as the SDK offers it: one function made from its row of the operation
 * table, called with a client, the input and per-call options. A client's method is the same
 * call with the client bound. Nothing here is written per operation.
 * @module
 */
import { type BaseClient, clientSettings } from "./base-client.js";
import type { OperationRow } from "./operation-row.js";
import type { RequestOptions } from "./options.js";
import { type APIPromise, call } from "./request.js";

/**
 * An operation as a standalone function: the client, the input, per-call options.
 * @typeParam Input - what the caller passes: the path parameters' fields and the body's
 * @typeParam Result - the success body
 */
export type OperationFunction<Input, Result> = (
  /** a client from {@link createBaseClient} or {@link createClient} (a client's method passes its own) */
  client: BaseClient,
  input: Input,
  /** per-call options */
  options?: RequestOptions,
) => APIPromise<Result>;

/**
 * The SDK's operation of a table row: a function that runs the row's request with the settings
 * of the client it is given. A call marked pure at each row, so that a bundle drops the
 * operations (and their rows and schemas) it does not use.
 * @param row - the operation's row
 * @returns the standalone function
 * @internal
 */
export function operation<Input, Result>(row: OperationRow): OperationFunction<Input, Result> {
  return (client, input, options) => call<Result>(clientSettings(client), row, input, options);
}
