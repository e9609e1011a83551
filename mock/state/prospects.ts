/**
 * Prospects and their identifiers: how a create request finds or creates its prospect
 * (docs/behaviour.md, "Prospect resolution"), and the indexes that make every match a lookup.
 * @module
 */
import { normaliseLinkedinUrl } from "./linkedin.js";
import type { ProspectRecord } from "./records.js";
import type { TenantData } from "./tenant-data.js";

/** The identifiers and name a request may carry. */
export interface ProspectIdentifiers {
  readonly prospectId?: string | undefined;
  readonly email?: string | undefined;
  readonly phoneNumber?: string | undefined;
  readonly linkedinProfileUrl?: string | undefined;
  readonly name?: string | undefined;
}

/** One identifier that can find a prospect; exactly one field is given. */
export type IdentifierQuery = { email: string } | { phoneNumber: string } | { linkedinProfileUrl: string };

type IdentifierField = "email" | "phoneNumber" | "linkedinProfileUrl";

/** The identifier fields in the order resolution tries them, with their index and matching key. */
const IDENTIFIERS: readonly {
  field: IdentifierField;
  index: (tenant: TenantData) => Map<string, ProspectRecord>;
  key: (value: string) => string;
}[] = [
  { field: "email", index: (t) => t.prospectsByEmail, key: (v) => v.toLowerCase() },
  { field: "phoneNumber", index: (t) => t.prospectsByPhone, key: (v) => v },
  { field: "linkedinProfileUrl", index: (t) => t.prospectsByLinkedin, key: normaliseLinkedinUrl },
];

/**
 * The prospect holding one identifier, or undefined. Email is compared case-insensitively, the
 * phone number exactly, the LinkedIn URL after normalisation.
 */
export function findByIdentifier(tenant: TenantData, query: IdentifierQuery): ProspectRecord | undefined {
  for (const { field, index, key } of IDENTIFIERS) {
    const value = (query as Partial<Record<IdentifierField, string>>)[field];
    if (value !== undefined) return index(tenant).get(key(value));
  }
  return undefined;
}

/** The existing prospect that step 2 of resolution picks: the first identifier some prospect holds. */
function matchExisting(tenant: TenantData, request: ProspectIdentifiers): ProspectRecord | undefined {
  for (const { field, index, key } of IDENTIFIERS) {
    const value = request[field];
    const match = value === undefined ? undefined : index(tenant).get(key(value));
    if (match) return match;
  }
  return undefined;
}

/**
 * Which identifiers of `request` another prospect of the tenant already holds (those can never
 * be gained by `prospect`, and a seeded prospect may not claim them).
 */
export function identifiersHeldByOthers(tenant: TenantData, prospect: ProspectRecord | null, request: ProspectIdentifiers): IdentifierField[] {
  return IDENTIFIERS.filter(({ field, index, key }) => {
    const value = request[field];
    const holder = value === undefined ? undefined : index(tenant).get(key(value));
    return holder !== undefined && holder !== prospect;
  }).map(({ field }) => field);
}

/**
 * Gives the prospect each identifier of the request it has none of yet, unless another prospect
 * holds it, and the name if it has none. Existing values are never overwritten.
 */
export function gainIdentifiers(tenant: TenantData, prospect: ProspectRecord, request: ProspectIdentifiers): void {
  for (const { field, index, key } of IDENTIFIERS) {
    const value = request[field];
    if (value === undefined || prospect[field] !== null) continue;
    const matching = key(value);
    if (index(tenant).has(matching)) continue;
    prospect[field] = value;
    index(tenant).set(matching, prospect);
  }
  if (request.name !== undefined && prospect.name === null) prospect.name = request.name;
}

/** Stores a new prospect without identifiers (they are added by {@link gainIdentifiers}). */
export function insertProspect(tenant: TenantData, id: string, createdAt: string): ProspectRecord {
  const prospect: ProspectRecord = {
    id,
    tenantId: tenant.record.id,
    createdAt,
    email: null,
    phoneNumber: null,
    linkedinProfileUrl: null,
    name: null,
  };
  tenant.prospects.set(id, prospect);
  return prospect;
}

/**
 * Finds or creates the prospect of a create request, in the documented order:
 * 1. `prospectId`: that prospect, created with that ID when there is none;
 * 2. else the first of email, phone number, LinkedIn URL that an existing prospect holds;
 * 3. else a new prospect.
 * The prospect then gains the request's identifiers (see {@link gainIdentifiers}).
 *
 * @param newProspect - creates the prospect when one is needed (`id` is the requested one, if any)
 * @returns the prospect, and whether this call created it
 */
export function resolveProspect(
  tenant: TenantData,
  request: ProspectIdentifiers,
  newProspect: (id: string | undefined) => ProspectRecord,
): { prospect: ProspectRecord; created: boolean } {
  let prospect = request.prospectId === undefined ? matchExisting(tenant, request) : tenant.prospects.get(request.prospectId);
  const created = prospect === undefined;
  prospect ??= newProspect(request.prospectId);
  gainIdentifiers(tenant, prospect, request);
  return { prospect, created };
}
