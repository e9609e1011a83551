/**
 * The changes the store reports as they happen, one per stored, changed or removed record: what a
 * state file appends to its journal (`--state`), so a write costs the size of what changed, never
 * that of the whole state. Nothing listens in process, so a change costs one call that does nothing.
 * @module
 */
import type { WebhookChange } from "../webhooks/index.js";
import type { CollectionName } from "./collections.js";

/**
 * One change of the state: a tenant's record stored or changed (`put`, the whole record after the
 * change) or removed
 * (`delete`), a tenant created, an API key issued (`tenantId`) or revoked (`null`), one more
 * secret drawn (so a restarted mock never draws the same one twice), a change of the webhook
 * deliveries, a tenant's data cleared (`clear`, a tenant's reset: its record and keys stay), a
 * tenant deleted (`delete-tenant`, an isolated tenant's end: its keys are revoked before it, each
 * by its own `key` change) or a reset (everything before it is gone).
 */
export type StateChange =
  | { readonly op: "put"; readonly in: CollectionName; readonly tenantId: string; readonly value: object }
  | { readonly op: "delete"; readonly in: CollectionName; readonly tenantId: string; readonly id: string }
  | { readonly op: "tenant"; readonly value: { readonly id: string; readonly createdAt: string; readonly isolated?: true } }
  | { readonly op: "key"; readonly key: string; readonly tenantId: string | null }
  | { readonly op: "secrets"; readonly issued: number }
  | { readonly op: "webhooks"; readonly change: WebhookChange }
  | { readonly op: "clear"; readonly tenantId: string }
  | { readonly op: "delete-tenant"; readonly tenantId: string }
  | { readonly op: "reset" };

/** Hears every change of the state, synchronously, as it happens. */
export type Journal = (change: StateChange) => void;

/** What a collection reports of its own writes: a record stored or changed, or removed. */
export interface MapJournal<V> {
  put(id: string, value: V): void;
  delete(id: string): void;
}
