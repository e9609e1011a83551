import * as z from "zod/mini";
import { boundedString, DateTime, E164_PATTERN, Email, type JsonObject, JsonObjectSchema, ProspectId, ProspectLogId } from "./primitives.js";

/** Default activity type when a create request omits `type` (spec 4.1 rule 1). */
export const DEFAULT_PROSPECT_LOG_TYPE = "webhook";

/**
 * Request body of "create prospect log entry" (spec 2.1, 4.1 and 8). Strict: an unknown
 * top-level field (a typo such as `emial`) is rejected. `type` may be omitted and then
 * defaults to `webhook`.
 */
export const ProspectLogCreate = /* @__PURE__ */ z.strictObject({
  source: boundedString(1, 100),
  type: z._default(boundedString(1, 100), DEFAULT_PROSPECT_LOG_TYPE),
  payload: JsonObjectSchema,
  prospectId: z.optional(ProspectId),
  email: z.optional(Email),
  phoneNumber: z.optional(/* @__PURE__ */ z.string().check(z.regex(E164_PATTERN))),
  linkedinProfileUrl: z.optional(boundedString(1)),
  idempotencyKey: z.optional(boundedString(1, 255)),
  name: z.optional(boundedString(1, 255)),
});

/**
 * What a caller sends to create a prospect log entry (spec 2.1); `type` is optional. Written out
 * so that editors and declaration files show its name; a type test proves it equals the input of
 * the {@link ProspectLogCreate} schema, so the two cannot drift.
 */
export interface ProspectLogCreate {
  /** Where the activity comes from, such as `crm` (1 to 100 characters). */
  source: string;
  /** The kind of activity (1 to 100 characters); `webhook` when omitted. */
  type?: string | undefined;
  /** The activity's data: any JSON object. */
  payload: JsonObject;
  /** The prospect to log against (`prospect_` and 26 lower-case letters or digits); created when unknown. */
  prospectId?: string | undefined;
  /** The prospect's email address; matched case-insensitively. */
  email?: string | undefined;
  /** The prospect's phone number in E.164 form: a plus sign, then 2 to 15 digits, the first not 0. */
  phoneNumber?: string | undefined;
  /** The prospect's LinkedIn profile URL. */
  linkedinProfileUrl?: string | undefined;
  /** A key that makes retries safe: the same key and body replay the first answer (1 to 255 characters). */
  idempotencyKey?: string | undefined;
  /** The prospect's name (1 to 255 characters), stored when the prospect has none yet. */
  name?: string | undefined;
}

/** A create request after defaults are applied: `type` is always present. */
export interface ProspectLogCreateParsed extends ProspectLogCreate {
  /** The kind of activity; `webhook` when the request omitted it. */
  type: string;
}

/**
 * Response of "create prospect log entry" (spec 2.2). Forward-compatible: fields the API adds
 * later are kept, never an error.
 */
export const ProspectLog = /* @__PURE__ */ z.looseObject({
  prospectId: ProspectId,
  prospectLogId: ProspectLogId,
  createdAt: DateTime,
  createdProspect: z.boolean(),
  source: boundedString(1, 100),
  type: boundedString(1, 100),
});

/**
 * The result of creating a prospect log entry (spec 2.2): exactly the spec's fields. A type test
 * proves it equals the {@link ProspectLog} schema's output without its index signature.
 */
export interface ProspectLog {
  /** The prospect the entry belongs to. */
  prospectId: string;
  /** The entry's ID. */
  prospectLogId: string;
  /** When the entry was stored (ISO 8601, UTC). */
  createdAt: string;
  /** Whether this request created the prospect. */
  createdProspect: boolean;
  /** The `source` sent. */
  source: string;
  /** The `type` sent, or `webhook`. */
  type: string;
}
