/**
 * What a control route answers: a success body or a typed refusal (400 with field errors, 404),
 * which the control handler renders as JSON or problem+json.
 * @module
 */
import type { FieldError } from "../../src/schemas/index.js";

/** What a route answers: its JSON body, or a refusal. */
export type ControlResult =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly status: 400 | 404; readonly detail: string; readonly errors?: FieldError[] };

/** A success. */
export const ok = (body: unknown): ControlResult => ({ ok: true, body });

/** The 400 of a body field naming a resource the caller's tenant does not have. */
export const missingReference = (field: string, what: string): ControlResult => ({
  ok: false,
  status: 400,
  detail: "The request body names a resource your tenant does not have (see errors).",
  errors: [{ pointer: `/${field}`, code: "not_found", detail: `${field} names no ${what} of your tenant` }],
});

/** The 404 of a resource the caller's tenant does not have. */
export const notFound = (what: string, id: string): ControlResult => ({
  ok: false,
  status: 404,
  detail: `Your tenant has no ${what} ${JSON.stringify(id)}.`,
});
