import * as z from "zod/mini";
import {
  boundedString,
  DateTime,
  E164_PATTERN,
  Email,
  JsonObjectSchema,
  ProspectId,
  ProspectLogId,
} from "./primitives.js";
import type { KnownFields } from "./types.js";

/** Default activity type when a create request omits `type` (spec 4.1 rule 1). */
export const DEFAULT_PROSPECT_LOG_TYPE = "webhook";

/**
 * Request body of "create prospect log entry" (spec 2.1, 4.1 and 8). Strict: an unknown
 * top-level field (a typo such as `emial`) is rejected. `type` may be omitted and then
 * defaults to `webhook`.
 */
export const ProspectLogCreate = z.strictObject({
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

/** What a caller sends to create a prospect log entry (spec 2.1); `type` is optional. */
export type ProspectLogCreate = z.input<typeof ProspectLogCreate>;

/** A create request after defaults are applied: `type` is always present. */
export type ProspectLogCreateParsed = z.output<typeof ProspectLogCreate>;

/**
 * Response of "create prospect log entry" (spec 2.2). Forward-compatible: fields the API adds
 * later are kept, never an error.
 */
export const ProspectLog = z.looseObject({
  prospectId: ProspectId,
  prospectLogId: ProspectLogId,
  createdAt: DateTime,
  createdProspect: z.boolean(),
  source: boundedString(1, 100),
  type: boundedString(1, 100),
});

/** The result of creating a prospect log entry (spec 2.2): exactly the spec's fields. */
export type ProspectLog = KnownFields<z.output<typeof ProspectLog>>;
