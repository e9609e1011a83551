/**
 * Fixture documents: a whole starting state as one JSON value (the server's `--data` file and its
 * demo data), built from the control API's own request schemas, so a fixture file accepts exactly
 * what the control API accepts. Loading reports the first refused entry by its JSON Pointer.
 * @module
 */
import * as z from "zod/mini";
import { type FieldError, ProspectLogCreate, toFieldErrors } from "../../src/schemas/index.js";
import { MockStateError } from "../lib/errors.js";
import type { MockState } from "../state/index.js";
import { ProspectInput } from "../state/inputs.js";
import {
  ControlPageCreate,
  ControlPageGroupCreate,
  ControlPageVersionCreate,
  ControlPageVersionProcess,
  ControlSubscriptionCreate,
} from "./schemas.js";

/** A page version to seed: created, processed when `computedName` is given, then published on `publish: true`. */
export const FixturePageVersion = z
  .extend(ControlPageVersionCreate, {
    computedName: z.optional(ControlPageVersionProcess.shape.computedName),
    publish: z.optional(z.boolean()),
  })
  .check(
    z.refine((version) => version.publish !== true || version.computedName !== undefined, {
      error: "a version is processed before it is published: give its computedName",
      path: ["publish"],
      params: { code: "required_to_publish" },
    }),
  );

/** A fixture document: every list optional, loaded in this order. */
export const FixtureDocument = z.strictObject({
  /** Lets an editor find a JSON Schema; ignored. */
  $schema: z.optional(z.string()),
  pageGroups: z.optional(z.array(ControlPageGroupCreate)),
  pages: z.optional(z.array(ControlPageCreate)),
  pageVersions: z.optional(z.array(FixturePageVersion)),
  webhookSubscriptions: z.optional(z.array(ControlSubscriptionCreate)),
  prospects: z.optional(z.array(z.omit(ProspectInput, { tenantId: true }))),
  prospectLogs: z.optional(z.array(ProspectLogCreate)),
});
/** A fixture document, as written in a file. */
export type FixtureDocument = z.input<typeof FixtureDocument>;

/**
 * Validates a fixture document.
 * @param value - the parsed JSON
 * @returns the document, or every failing field (pointers from the document's root)
 */
export function parseFixtureDocument(value: unknown): { ok: true; value: z.output<typeof FixtureDocument> } | { ok: false; errors: FieldError[] } {
  const parsed = FixtureDocument.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, errors: toFieldErrors(parsed.error.issues, value) };
}

/** Runs one entry; a refusal is rethrown with the entry's pointer in front of its fields. */
function entry(pointer: string, apply: () => void): void {
  try {
    apply();
  } catch (error) {
    if (!(error instanceof MockStateError)) throw error;
    const errors: FieldError[] =
      error.errors.length > 0
        ? error.errors.map((field) => ({ ...field, pointer: pointer + field.pointer }))
        : [{ pointer, code: "refused", detail: error.message }];
    throw new MockStateError("refused to load the fixtures", errors);
  }
}

function missing(pointer: string, field: string, what: string): never {
  throw new MockStateError("refused to load the fixtures", [
    { pointer: `${pointer}/${field}`, code: "not_found", detail: `${field} names no ${what} loaded before it` },
  ]);
}

/**
 * Validates a fixture document and loads it into one tenant: page groups, pages, page versions,
 * subscriptions, prospects, then prospect logs (created exactly as the API creates them).
 * @param state - the mock's state
 * @param input - the document
 * @param tenantId - the tenant to load into (default: the mock's default tenant)
 * @throws {MockStateError} for an invalid document (every failing field), or naming the first
 *   refused entry by pointer (a taken ID, an unknown reference)
 */
export function loadFixtures(state: MockState, input: FixtureDocument, tenantId?: string): void {
  const parsed = parseFixtureDocument(input);
  if (!parsed.ok) throw new MockStateError("refused to load the fixtures", parsed.errors);
  const document = parsed.value;
  const tenant = tenantId === undefined ? {} : { tenantId };
  for (const [i, group] of (document.pageGroups ?? []).entries()) entry(`/pageGroups/${i}`, () => state.pageGroups.create({ ...group, ...tenant }));
  document.pages?.forEach((page, i) => {
    const pointer = `/pages/${i}`;
    if (page.pageGroupId !== undefined && state.pageGroups.get(page.pageGroupId, tenant) === undefined) missing(pointer, "pageGroupId", "page group");
    entry(pointer, () => state.pages.create({ ...page, ...tenant }));
  });
  document.pageVersions?.forEach(({ computedName, publish, ...version }, i) => {
    const pointer = `/pageVersions/${i}`;
    if (state.pages.get(version.pageId, tenant) === undefined) missing(pointer, "pageId", "page");
    entry(pointer, () => {
      const created = state.pageVersions.create({ ...version, ...tenant });
      if (computedName !== undefined) state.pageVersions.process(created.id, { computedName }, tenant);
      if (publish === true) state.pageVersions.publish(created.id, tenant);
    });
  });
  for (const [i, subscription] of (document.webhookSubscriptions ?? []).entries()) {
    entry(`/webhookSubscriptions/${i}`, () => state.webhookSubscriptions.create({ ...subscription, ...tenant }));
  }
  for (const [i, prospect] of (document.prospects ?? []).entries())
    entry(`/prospects/${i}`, () => state.prospects.create({ ...prospect, ...tenant }));
  for (const [i, log] of (document.prospectLogs ?? []).entries()) entry(`/prospectLogs/${i}`, () => state.prospectLogs.create({ ...log, ...tenant }));
}
