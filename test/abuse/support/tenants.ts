/**
 * Two tenants with the same shape of data, for the cross-tenant suite: each has a page group, a
 * published page, a version still to process and publish, a webhook subscription, a prospect and
 * a log with an idempotency key. IDs are per tenant, so each tenant's IDs name its own records only.
 */
import type { MockState } from "../../../mock/index.js";

/** One tenant's key and the IDs of its seeded data. */
export interface TenantData {
  readonly tenantId: string;
  readonly key: string;
  readonly group: string;
  readonly page: string;
  /** A version created but not processed: the target of the control API's process and publish. */
  readonly openVersion: string;
  readonly subscription: string;
  readonly prospectId: string;
  readonly email: string;
  readonly idempotencyKey: string;
}

function tenant(letter: "a" | "b", prospectSuffix: string): TenantData {
  return {
    tenantId: `tenant_${letter}`,
    key: `pk_test_abuse_tenant_${letter}_5e0d`,
    group: `pagegroup_${letter}`,
    page: `page_${letter}`,
    openVersion: `pageversion_${letter}_2`,
    subscription: `whsub_${letter}`,
    prospectId: `prospect_01hzy8k3m4n5p6q7r8s9t0v1${prospectSuffix}`,
    email: `only-${letter}@example.com`,
    idempotencyKey: `idem-${letter}-1`,
  };
}

/** The two tenants. */
export const TENANTS = { a: tenant("a", "aa"), b: tenant("b", "bb") } as const;

/** The `apiKeys` option: one key per tenant. */
export const API_KEYS: Readonly<Record<string, string>> = Object.fromEntries(Object.values(TENANTS).map((t) => [t.key, t.tenantId]));

/** Seeds both tenants (runs at start and after every reset). */
export function seedTenants(state: MockState): void {
  for (const t of Object.values(TENANTS)) {
    const tenantId = t.tenantId;
    state.pageGroups.create({ id: t.group, tenantId });
    state.pages.create({ id: t.page, pageGroupId: t.group, computedName: `Page of ${tenantId}`, tenantId });
    const first = state.pageVersions.create({ id: `pageversion_${tenantId}_1`, pageId: t.page, tenantId });
    state.pageVersions.process(first.id, { computedName: `Page of ${tenantId}` }, { tenantId });
    state.pageVersions.publish(first.id, { tenantId });
    state.pageVersions.create({ id: t.openVersion, pageId: t.page, tenantId });
    state.webhookSubscriptions.create({ id: t.subscription, url: `https://hooks.example.com/${tenantId}`, events: ["form.submitted"], tenantId });
    state.prospects.create({ id: t.prospectId, email: t.email, tenantId });
    state.prospectLogs.create({ source: "crm", payload: { owner: tenantId }, prospectId: t.prospectId, idempotencyKey: t.idempotencyKey, tenantId });
  }
}

/** What of `other` must never appear in an answer to its neighbour, unless the caller sent it. */
export function secretsOf(other: TenantData, sent: string): string[] {
  return [other.tenantId, other.email, other.key, `Page of ${other.tenantId}`, other.group, other.page, other.subscription, other.prospectId].filter(
    (value) => !sent.includes(value),
  );
}
