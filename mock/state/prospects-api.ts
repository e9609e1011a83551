/**
 * `state.prospects` and `state.prospectLogs`: seed prospects and logs the way the API would
 * create them, and inspect what the API stored.
 * @module
 */
import type { ProspectLog, ProspectLogCreate } from "../../src/schemas/index.js";
import { MockStateError } from "../lib/errors.js";
import { IdentifierInput, ProspectInput, type TenantOption } from "./inputs.js";
import { claimProspectLog } from "./prospect-logs.js";
import { findByIdentifier, gainIdentifiers, identifiersHeld, insertProspect } from "./prospects.js";
import type { ProspectLogRecord, ProspectRecord } from "./records.js";
import { readers, type Store, tenantFor, timestamp } from "./store.js";
import { parseNew, parseOrThrow } from "./validate.js";

/** Prospects of a tenant. */
export interface ProspectsApi {
  /**
   * Stores a prospect with the given identifiers, as a create request would have.
   * @param input - `id` (default `prospect_` + ULID), `email`, `phoneNumber`, `linkedinProfileUrl`, `name`
   * @throws {MockStateError} for an invalid field, a taken ID, or an identifier another prospect holds
   */
  create(input?: ProspectInput): ProspectRecord;
  /** The prospect with this ID, or undefined. */
  get(id: string, options?: TenantOption): ProspectRecord | undefined;
  /** Every prospect of the tenant, oldest first. */
  list(options?: TenantOption): ProspectRecord[];
  /**
   * The prospect holding one identifier, matched as the API matches it (email case-insensitively,
   * phone number exactly, LinkedIn URL normalised), or undefined.
   */
  findByIdentifier(query: IdentifierInput): ProspectRecord | undefined;
}

/** Prospect log entries of a tenant. */
export interface ProspectLogsApi {
  /**
   * Creates a log entry exactly as `POST /v0/prospect_logs` does (same validation, prospect
   * resolution and idempotency).
   * @param input - a create request body, plus `tenantId`
   * @returns the same result the API answers
   * @throws {MockStateError} for an invalid body, or an idempotency key reused with another body or still in flight
   */
  create(input: ProspectLogCreate & TenantOption): ProspectLog;
  /** The log entry with this ID, or undefined. */
  get(id: string, options?: TenantOption): ProspectLogRecord | undefined;
  /** Every log entry of the tenant, oldest first; only those of one prospect with `prospectId`. */
  list(options?: TenantOption & { readonly prospectId?: string }): ProspectLogRecord[];
}

function createProspect(store: Store, input: unknown): ProspectRecord {
  const { parsed, tenant } = parseNew(store, ProspectInput, input, "a prospect", (t) => t.prospects);
  const { tenantId: _tenantId, id, ...identifiers } = parsed;
  const taken = identifiersHeld(tenant, identifiers);
  if (taken.length > 0) {
    throw new MockStateError(
      "refused to store a prospect",
      taken.map((field) => ({ pointer: `/${field}`, code: "duplicate", detail: `${field} is held by another prospect` })),
    );
  }
  const prospect = insertProspect(tenant, id ?? store.newId("prospect"), timestamp(store));
  gainIdentifiers(tenant, prospect, identifiers);
  return { ...prospect };
}

function createLog(store: Store, input: ProspectLogCreate & TenantOption): ProspectLog {
  let body: unknown = input;
  let tenantId: string | undefined;
  if (typeof input === "object" && input !== null) ({ tenantId, ...body } = input);
  const claimed = claimProspectLog(store, tenantFor(store, tenantId), body);
  switch (claimed.kind) {
    case "claimed":
      try {
        return claimed.write();
      } finally {
        claimed.release();
      }
    case "replay":
      return { ...claimed.result };
    case "invalid":
      throw new MockStateError("refused to store a prospect log", claimed.errors);
    default:
      throw new MockStateError(
        `refused to store a prospect log: the idempotency key ${claimed.kind === "reused" ? "was used with another body" : "is in flight"}`,
      );
  }
}

/** Builds `state.prospects` over the current store. */
export function prospectsApi(current: () => Store): ProspectsApi {
  return {
    create: (input = {}) => createProspect(current(), input),
    ...readers(current, (tenant) => tenant.prospects),
    findByIdentifier(query) {
      const { tenantId, ...identifier } = parseOrThrow(IdentifierInput, query, "a lookup");
      const found = findByIdentifier(tenantFor(current(), tenantId), identifier);
      return found && { ...found };
    },
  };
}

/** Builds `state.prospectLogs` over the current store. */
export function prospectLogsApi(current: () => Store): ProspectLogsApi {
  const logs = readers(current, (tenant) => tenant.prospectLogs);
  return {
    create: (input) => createLog(current(), input),
    get: logs.get,
    list(options = {}) {
      if (options.prospectId === undefined) return logs.list(options);
      const tenant = tenantFor(current(), options.tenantId);
      return tenant.prospectLogs.group(options.prospectId).map((log) => ({ ...log }));
    },
  };
}
