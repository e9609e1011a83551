/**
 * Validation of state-helper input with the same schemas and the same field errors as the API,
 * and the lookups that refuse an unknown or taken ID.
 * @module
 */
import type * as z from "zod/mini";
import { toFieldErrors } from "../../src/schemas/index.js";
import { MockStateError } from "../lib/errors.js";
import { type Store, tenantFor } from "./store.js";
import type { TenantData } from "./tenant-data.js";

/**
 * Parses `input` with `schema`.
 * @param what - names the refused thing in the message, e.g. "a page"
 * @throws {MockStateError} listing every failing field
 */
export function parseOrThrow<Schema extends z.ZodMiniType>(schema: Schema, input: unknown, what: string): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new MockStateError(`refused to store ${what}`, toFieldErrors(result.error.issues, input));
}

/**
 * Checks that `id` is free in `collection`.
 * @throws {MockStateError} when it is taken
 */
export function assertFreeId(collection: ReadonlyMap<string, unknown>, id: string, what: string): void {
  if (collection.has(id)) {
    throw new MockStateError(`refused to store ${what}`, [
      { pointer: "/id", code: "duplicate", detail: `id ${JSON.stringify(id)} is already taken` },
    ]);
  }
}

/**
 * Parses the input of a `create` helper, finds its tenant and checks that a chosen `id` is free there.
 * @throws {MockStateError} for an invalid field, an unknown tenant or a taken ID
 */
export function parseNew<Schema extends z.ZodMiniType<{ tenantId?: string | undefined; id?: string | undefined }>>(
  store: Store,
  schema: Schema,
  input: unknown,
  what: string,
  collection: (tenant: TenantData) => ReadonlyMap<string, unknown>,
): { parsed: z.output<Schema>; tenant: TenantData } {
  const parsed = parseOrThrow(schema, input, what);
  const tenant = tenantFor(store, parsed.tenantId);
  if (parsed.id !== undefined) assertFreeId(collection(tenant), parsed.id, what);
  return { parsed, tenant };
}

/**
 * The record with this ID.
 * @throws {MockStateError} when there is none
 */
export function existing<T>(collection: ReadonlyMap<string, T>, id: string, what: string): T {
  const record = collection.get(id);
  if (record === undefined) throw new MockStateError(`no ${what} ${JSON.stringify(id)}`);
  return record;
}
