/**
 * What the create rules send: entries tagged `prospectkit-verify`, and identifiers no prospect of
 * any deployment holds (a fresh prospect ID, an address at example.com, a phone number in the
 * unassigned country code +999, a LinkedIn profile named after the run), so that no entry
 * `verify` writes can ever be matched to a real prospect.
 * @module
 */

import type { Exchange, SendOptions, VerifyContext } from "../rule.js";
import { ROW, VERIFY_PAYLOAD, VERIFY_SOURCE } from "../rules/samples.js";

/** A create request: the tagged source and payload, with `fields` added (or replacing them). */
export const createLog = (context: VerifyContext, fields: Readonly<Record<string, unknown>>, options: SendOptions = {}): Promise<Exchange> =>
  context.send("POST", ROW.createProspectLog.path, { ...options, json: { source: VERIFY_SOURCE, payload: VERIFY_PAYLOAD, ...fields } });

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** `count` random characters of the lower-case ULID alphabet. */
const randomOf = (count: number, alphabet = ALPHABET) =>
  Array.from(crypto.getRandomValues(new Uint8Array(count)), (byte) => alphabet[byte % alphabet.length]).join("");

/** A prospect ID no deployment has seen: `prospect_` and 26 random lower-case letters or digits. */
export const freshProspectId = (): string => `prospect_${randomOf(26)}`;

/** An email address no prospect holds (example.com is reserved, RFC 2606). */
export const freshEmail = (): string => `prospectkit-verify.${randomOf(12)}@example.com`;

/** A phone number no prospect holds: +999 is not assigned to any country (ITU-T E.164), 15 digits in all. */
export const freshPhone = (): string => `+999${randomOf(12, "0123456789")}`;

/** A LinkedIn profile URL no prospect holds. */
export const freshLinkedin = (): string => `https://www.linkedin.com/in/prospectkit-verify-${randomOf(12)}/`;

/** A name no prospect has. */
export const freshName = (): string => `prospectkit verify ${randomOf(12)}`;
