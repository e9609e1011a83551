/**
 * Rules of prospect resolution (BEHAVIOUR "Create prospect log"): prospectId first (created with
 * that ID when unknown), else the first of email (case-insensitive), phone (exact), LinkedIn URL
 * (normalised) that a prospect holds, else a new prospect; identifiers are gained without
 * overwriting and without taking another prospect's; `createdProspect` says whether it was created.
 */
import { describe, expect, it } from "vitest";
import { B_PROSPECT, KEYS, KNOWN, PHONE_ONLY } from "../fixtures.js";
import type { Harness } from "../harness.js";

const BASE = { source: "crm", payload: {} };
const NEW_ID = "prospect_01hzy8k3m4n5p6q7r8s9t0v1aa";

/** Registers the rules. */
export function prospectResolutionRules(h: Harness): void {
  const log = async (fields: Record<string, unknown>, key: string = KEYS.a) => (await h.createLog({ ...BASE, ...fields }, { key })).body;

  describe("prospect resolution: which prospect a log is written against", () => {
    it.each([
      ["prospectId of an existing prospect", { prospectId: KNOWN.id }, KNOWN.id],
      ["email, exactly", { email: KNOWN.email }, KNOWN.id],
      ["email, in another case", { email: KNOWN.email.toUpperCase() }, KNOWN.id],
      ["email, all lower case", { email: KNOWN.email.toLowerCase() }, KNOWN.id],
      ["phoneNumber, exactly", { phoneNumber: KNOWN.phoneNumber }, KNOWN.id],
      ["LinkedIn URL, exactly", { linkedinProfileUrl: KNOWN.linkedinProfileUrl }, KNOWN.id],
      ["LinkedIn URL without scheme, www. and trailing slash", { linkedinProfileUrl: "linkedin.com/in/known-person" }, KNOWN.id],
      ["LinkedIn URL with an upper-case host", { linkedinProfileUrl: "HTTPS://WWW.LINKEDIN.COM/in/known-person" }, KNOWN.id],
      ["LinkedIn URL with http, a query and a fragment", { linkedinProfileUrl: "http://linkedin.com/in/known-person/?trk=x#about" }, KNOWN.id],
      ["LinkedIn URL with several trailing slashes", { linkedinProfileUrl: "linkedin.com/in/known-person///" }, KNOWN.id],
      ["email before phoneNumber: each held by a different prospect", { email: KNOWN.email, phoneNumber: PHONE_ONLY.phoneNumber }, KNOWN.id],
      ["phoneNumber when the email is unknown", { email: "unknown@example.com", phoneNumber: PHONE_ONLY.phoneNumber }, PHONE_ONLY.id],
      ["phoneNumber before LinkedIn URL", { phoneNumber: PHONE_ONLY.phoneNumber, linkedinProfileUrl: KNOWN.linkedinProfileUrl }, PHONE_ONLY.id],
      ["prospectId before an email another prospect holds", { prospectId: PHONE_ONLY.id, email: KNOWN.email }, PHONE_ONLY.id],
    ])("matched by %s: createdProspect false", async (_, fields, prospectId) => {
      expect(await log(fields)).toMatchObject({ prospectId, createdProspect: false });
    });

    it.each([
      ["no identifier at all", {}],
      ["an unknown email", { email: "new@example.com" }],
      ["a phone number in another format", { phoneNumber: "+14155550101" }],
      ["a LinkedIn URL with another path case", { linkedinProfileUrl: "linkedin.com/in/Known-Person" }],
      ["a name only (names never match)", { name: KNOWN.name }],
    ])("%s creates a new prospect: createdProspect true", async (_, fields) => {
      const body = await log(fields);
      expect(body.createdProspect).toBe(true);
      expect([KNOWN.id, PHONE_ONLY.id]).not.toContain(body.prospectId);
      expect(h.api.state.prospects.get(body.prospectId)).toBeDefined();
    });

    it("an unknown prospectId creates the prospect with that ID; the next request finds it", async () => {
      expect(await log({ prospectId: NEW_ID })).toMatchObject({ prospectId: NEW_ID, createdProspect: true });
      expect(await log({ prospectId: NEW_ID })).toMatchObject({ prospectId: NEW_ID, createdProspect: false });
    });

    it("two requests without identifiers create two prospects", async () => {
      expect((await log({})).prospectId).not.toBe((await log({})).prospectId);
    });
  });

  describe("prospect resolution: identifiers are gained, never overwritten, never taken", () => {
    it("a matched prospect gains the identifiers it lacks; they match it afterwards", async () => {
      const created = await log({ email: "gain@example.com" });
      await log({ email: "gain@example.com", phoneNumber: "+33123456789", linkedinProfileUrl: "linkedin.com/in/gain", name: "Gain" });
      expect(h.api.state.prospects.get(created.prospectId)).toMatchObject({
        email: "gain@example.com",
        phoneNumber: "+33123456789",
        linkedinProfileUrl: "linkedin.com/in/gain",
        name: "Gain",
      });
      expect(await log({ phoneNumber: "+33123456789" })).toMatchObject({ prospectId: created.prospectId, createdProspect: false });
      expect(await log({ linkedinProfileUrl: "https://www.linkedin.com/in/gain/" })).toMatchObject({ prospectId: created.prospectId });
    });

    it("a created prospect holds every identifier of its request", async () => {
      const created = await log({ email: "All@Example.com", phoneNumber: "+4930123456", linkedinProfileUrl: "linkedin.com/in/all", name: "All" });
      expect(h.api.state.prospects.get(created.prospectId)).toMatchObject({
        email: "All@Example.com",
        phoneNumber: "+4930123456",
        linkedinProfileUrl: "linkedin.com/in/all",
        name: "All",
      });
    });

    it("existing values are never overwritten (email, phone, LinkedIn, name)", async () => {
      await log({
        prospectId: KNOWN.id,
        email: "other@example.com",
        phoneNumber: "+15550000000",
        linkedinProfileUrl: "linkedin.com/in/other",
        name: "Other",
      });
      expect(h.api.state.prospects.get(KNOWN.id)).toMatchObject({
        email: KNOWN.email,
        phoneNumber: KNOWN.phoneNumber,
        linkedinProfileUrl: KNOWN.linkedinProfileUrl,
        name: KNOWN.name,
      });
      expect(await log({ email: "other@example.com" })).toMatchObject({ createdProspect: true });
    });

    it("an identifier another prospect holds is not taken", async () => {
      const taker = await log({ email: "taker@example.com" });
      const body = await log({ email: "taker@example.com", phoneNumber: KNOWN.phoneNumber });
      expect(body).toMatchObject({ prospectId: taker.prospectId, createdProspect: false });
      expect(h.api.state.prospects.get(taker.prospectId)!.phoneNumber).toBeNull();
      expect(await log({ phoneNumber: KNOWN.phoneNumber })).toMatchObject({ prospectId: KNOWN.id });
    });

    it("an email another prospect holds in another case is not taken", async () => {
      const body = await log({ prospectId: NEW_ID, email: KNOWN.email.toLowerCase() });
      expect(h.api.state.prospects.get(body.prospectId)!.email).toBeNull();
    });

    it("a name is gained only when the prospect has none", async () => {
      const created = await log({ email: "named@example.com" });
      await log({ email: "named@example.com", name: "First" });
      await log({ email: "named@example.com", name: "Second" });
      expect(h.api.state.prospects.get(created.prospectId)!.name).toBe("First");
    });
  });

  describe("prospect resolution stays inside the caller's tenant", () => {
    it("another tenant's email does not match: a new prospect is created", async () => {
      expect(await log({ email: B_PROSPECT.email })).toMatchObject({ createdProspect: true });
    });

    it("another tenant's prospectId does not match: a prospect with that ID is created in this tenant", async () => {
      expect(await log({ prospectId: B_PROSPECT.id })).toMatchObject({ prospectId: B_PROSPECT.id, createdProspect: true });
      expect(h.api.state.prospects.get(B_PROSPECT.id, { tenantId: "tenant_b" })!.email).toBe(B_PROSPECT.email);
    });

    it("the same email in two tenants makes two prospects", async () => {
      const a = await log({ email: "both@example.com" }, KEYS.a);
      const b = await log({ email: "both@example.com" }, KEYS.b);
      expect([a.createdProspect, b.createdProspect]).toEqual([true, true]);
      expect(a.prospectId).not.toBe(b.prospectId);
    });
  });
}
