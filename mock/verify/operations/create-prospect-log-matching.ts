/**
 * Contract rules of which prospect a create lands on (spec 4.1 rule 5 leaves it open;
 * docs/behaviour.md "Create prospect log: which prospect" decides). Every rule makes its own
 * prospects first, with a fresh prospect ID and identifiers no prospect holds, then looks them up
 * by those identifiers alone: no entry can land on a prospect the run did not make.
 * @module
 */
import { expectAccepted, expectEqual } from "../expect.js";
import { type ContractRule, type Exchange, expectThat, type VerifyContext } from "../rule.js";
import { createLog, freshEmail, freshLinkedin, freshName, freshPhone, freshProspectId } from "./create-prospect-log-fresh.js";

const operation = "createProspectLog" as const;
const source = "docs/behaviour.md, Create prospect log: which prospect";

/** Creates a prospect with a fresh ID holding `identifiers`; returns its ID. */
async function madeWith(context: VerifyContext, identifiers: Readonly<Record<string, string>>): Promise<string> {
  const prospectId = freshProspectId();
  const exchange = await createLog(context, { prospectId, ...identifiers });
  expectAccepted(exchange, 201);
  expectEqual(
    [exchange.answer.body.prospectId, exchange.answer.body.createdProspect],
    [prospectId, true],
    "a new prospect with the ID sent",
    exchange,
  );
  return prospectId;
}

/** The entry landed on `prospectId`, an existing prospect. */
function expectFound(exchange: Exchange, prospectId: string, why: string): void {
  expectAccepted(exchange, 201);
  expectEqual([exchange.answer.body.prospectId, exchange.answer.body.createdProspect], [prospectId, false], `the prospect ${why}`, exchange);
}

/** The entry made a new prospect (not `notId`). */
function expectNew(exchange: Exchange, notId: string, why: string): void {
  expectAccepted(exchange, 201);
  const { prospectId, createdProspect } = exchange.answer.body;
  expectThat(
    createdProspect === true && prospectId !== notId,
    `expected a new prospect (${why}), got ${prospectId} (createdProspect ${createdProspect})`,
    exchange,
  );
}

/** The rules. */
export const rules: readonly ContractRule[] = [
  {
    id: "create.resolution-email",
    operation,
    class: "mock decision",
    title: "without a prospectId, an entry lands on the prospect holding its email, compared without regard to case",
    source,
    async run(context) {
      const email = freshEmail().replace("prospectkit-verify", "ProspectKit-Verify");
      const prospectId = await madeWith(context, { email });
      expectFound(await createLog(context, { email: email.toLowerCase() }), prospectId, "holding the email (in another case)");
    },
  },
  {
    id: "create.resolution-phone",
    operation,
    class: "mock decision",
    title: "without a prospectId or a known email, an entry lands on the prospect holding its phone number",
    source,
    async run(context) {
      const phoneNumber = freshPhone();
      const prospectId = await madeWith(context, { phoneNumber });
      expectFound(await createLog(context, { phoneNumber, email: freshEmail() }), prospectId, "holding the phone number");
    },
  },
  {
    id: "create.resolution-linkedin",
    operation,
    class: "mock decision",
    title: "a LinkedIn URL is matched without its scheme, www., query, fragment and trailing slash, its host in any case",
    source,
    async run(context) {
      const linkedinProfileUrl = freshLinkedin();
      const prospectId = await madeWith(context, { linkedinProfileUrl });
      const other = linkedinProfileUrl.replace("https://www.linkedin.com", "http://LinkedIn.COM").replace(/\/$/, "?trk=prospectkit-verify#top");
      expectFound(await createLog(context, { linkedinProfileUrl: other }), prospectId, "holding the same profile");
    },
  },
  {
    id: "create.resolution-order",
    operation,
    class: "mock decision",
    title: "the email is tried before the phone number: an entry with one prospect's email and another's phone lands on the first",
    source,
    async run(context) {
      const [email, phoneNumber] = [freshEmail(), freshPhone()];
      const byEmail = await madeWith(context, { email });
      await madeWith(context, { phoneNumber });
      expectFound(await createLog(context, { phoneNumber, email }), byEmail, "holding the email");
    },
  },
  {
    id: "create.resolution-prospect-id-first",
    operation,
    class: "mock decision",
    title: "a prospectId wins over identifiers another prospect holds: the entry lands on that ID's prospect",
    source,
    async run(context) {
      const email = freshEmail();
      await madeWith(context, { email });
      const prospectId = freshProspectId();
      const exchange = await createLog(context, { prospectId, email });
      expectAccepted(exchange, 201);
      expectEqual(
        [exchange.answer.body.prospectId, exchange.answer.body.createdProspect],
        [prospectId, true],
        "the prospect of the ID sent, new",
        exchange,
      );
    },
  },
  {
    id: "create.resolution-never-overwritten",
    operation,
    class: "mock decision",
    title: "a prospect keeps the identifiers it has: an entry for it with another email does not give it that email",
    source,
    async run(context) {
      const prospectId = await madeWith(context, { email: freshEmail() });
      const other = freshEmail();
      expectFound(await createLog(context, { prospectId, email: other }), prospectId, "of the ID sent");
      expectNew(await createLog(context, { email: other }), prospectId, "the other email was never stored on it");
    },
  },
  {
    id: "create.resolution-gains-identifiers",
    operation,
    class: "mock decision",
    title: "a prospect gains the identifiers it lacks: an entry for it with a phone number makes that number find it",
    source,
    async run(context) {
      const prospectId = await madeWith(context, { email: freshEmail() });
      const phoneNumber = freshPhone();
      expectFound(await createLog(context, { prospectId, phoneNumber }), prospectId, "of the ID sent");
      expectFound(await createLog(context, { phoneNumber }), prospectId, "that gained the phone number");
    },
  },
  {
    id: "create.resolution-tenant-scope",
    operation,
    class: "mock decision",
    title: "prospects belong to their tenant: a prospectId one tenant uses is unknown to another, whose entry creates its own prospect with it",
    source: "docs/behaviour.md, Authentication and tenancy",
    needs: ["otherTenantKey"],
    async run(context) {
      const prospectId = await madeWith(context, {});
      const theirs = await createLog(context, { prospectId }, { key: "other-tenant" });
      expectAccepted(theirs, 201);
      expectEqual([theirs.answer.body.prospectId, theirs.answer.body.createdProspect], [prospectId, true], "a new prospect of that tenant", theirs);
    },
  },
  {
    id: "create.resolution-new-prospect",
    operation,
    class: "mock decision",
    title: "an entry without any identifier makes a new prospect each time; a name is not an identifier",
    source,
    async run(context) {
      const first = await createLog(context, {});
      expectAccepted(first, 201);
      expectNew(await createLog(context, {}), first.answer.body.prospectId, "no identifier");
      const name = freshName();
      const named = await createLog(context, { name });
      expectAccepted(named, 201);
      expectNew(await createLog(context, { name }), named.answer.body.prospectId, "names never match");
    },
  },
];
