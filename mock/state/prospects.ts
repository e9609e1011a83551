/**
 * Prospects and their identifiers: how a create request finds or creates its prospect
 * (docs/behaviour.md, "Prospect resolution"), and the indexes that make every match a lookup.
 * @module
 */
import type { ProspectRecord } from "./records.js";
import type { TenantData } from "./tenant-data.js";

/** The identifiers and name a request (or a stored prospect: `null` is none) may carry. */
export interface ProspectIdentifiers {
  readonly prospectId?: string | undefined;
  readonly email?: string | null | undefined;
  readonly phoneNumber?: string | null | undefined;
  readonly linkedinProfileUrl?: string | null | undefined;
  readonly name?: string | null | undefined;
}

type IdentifierField = "email" | "phoneNumber" | "linkedinProfileUrl";

/** The identifier fields in the order resolution tries them (each a lookup of the prospects' row: email case-insensitively, the phone number exactly, the LinkedIn URL normalised). */
const IDENTIFIERS: readonly IdentifierField[] = ["email", "phoneNumber", "linkedinProfileUrl"];

/** The prospect holding `value` of one identifier, or undefined. */
function holderOf(tenant: TenantData, field: IdentifierField, value: string | null | undefined): ProspectRecord | undefined {
  return value == null ? undefined : tenant.prospects.find(field, value);
}

/**
 * The prospect holding the first of the request's identifiers that some prospect holds (step 2 of
 * resolution; with one identifier, `state.prospects.findByIdentifier`), or undefined. Email is
 * compared case-insensitively, the phone number exactly, the LinkedIn URL after normalisation.
 */
export function findByIdentifier(tenant: TenantData, request: ProspectIdentifiers): ProspectRecord | undefined {
  for (const field of IDENTIFIERS) {
    const match = holderOf(tenant, field, request[field]);
    if (match) return match;
  }
  return undefined;
}

/** Which identifiers of `request` a prospect of the tenant already holds (a seeded prospect may not claim them). */
export function identifiersHeld(tenant: TenantData, request: ProspectIdentifiers): IdentifierField[] {
  return IDENTIFIERS.filter((field) => holderOf(tenant, field, request[field]) !== undefined);
}

/**
 * Gives the prospect each identifier of the request it has none of yet, unless another prospect
 * holds it, and the name if it has none. Existing values are never overwritten.
 */
export function gainIdentifiers(tenant: TenantData, prospect: ProspectRecord, request: ProspectIdentifiers): void {
  let changed = false;
  for (const field of IDENTIFIERS) {
    const value = request[field];
    if (value == null || prospect[field] !== null || holderOf(tenant, field, value) !== undefined) continue;
    prospect[field] = value;
    changed = true;
  }
  if (request.name != null && prospect.name === null) {
    prospect.name = request.name;
    changed = true;
  }
  if (changed) tenant.prospects.set(prospect.id, prospect); // stored again: the journal and the lookups hear of the change
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
  let prospect = request.prospectId === undefined ? findByIdentifier(tenant, request) : tenant.prospects.get(request.prospectId);
  const created = prospect === undefined;
  prospect ??= newProspect(request.prospectId);
  gainIdentifiers(tenant, prospect, request);
  return { prospect, created };
}
