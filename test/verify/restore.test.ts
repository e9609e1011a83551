/**
 * A write whose answer is lost may have been applied: the subscription ends exactly as it began
 * whichever PATCH the network cuts after the deployment applied it (a change of `url`, `events`,
 * `active`, all three at once, or the restore's own write), and the report says "restored"
 * (`restore.ok`) only when a read-back showed it. A node:http server in front of the mock forwards
 * each request and, for the PATCH of the row, resets the connection once the mock has answered.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runVerify } from "../../mock/verify/index.js";
import { type DeploymentServer, startDeployment } from "./support/deployment-server.js";
import { deploymentMock, INPUTS, KEYS, ORIGINAL } from "./support/deployments.js";

/** A PATCH of the subscription the mock accepted: its body and what the mock answered. */
interface Patch {
  readonly body: Record<string, unknown>;
  /** The answer's url, events and active, when the answer reached verify. */
  readonly delivered?: { url: unknown; events: unknown; active: unknown };
  readonly cut: boolean;
}

/** A JSON object body, or `undefined` (verify also sends bodies that are not JSON, or not objects). */
function objectOf(text: string): Record<string, unknown> | undefined {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const keysOf = (body: Record<string, unknown>) => Object.keys(body).sort().join();

/** The rows: which accepted PATCH of the subscription the network cuts (the first that matches; `every`: that one and all after it). */
const ROWS: readonly { name: string; cuts: (body: Record<string, unknown>) => boolean; inRestore?: true }[] = [
  // The case: the first change of a run sets all three; its answer lost, today's verify said "never changed".
  { name: "url, events and active at once (the run's first change)", cuts: (body) => keysOf(body) === "active,events,url" },
  { name: "url alone", cuts: (body) => keysOf(body) === "url" },
  { name: "events alone", cuts: (body) => keysOf(body) === "events" },
  { name: "active alone", cuts: (body) => keysOf(body) === "active" },
  { name: "the restore's own write", cuts: (body) => body.url === ORIGINAL.url && Object.keys(body).length === 3, inRestore: true },
];

let deployment: DeploymentServer | undefined;
afterEach(async () => {
  await deployment?.close();
  deployment = undefined;
});

async function runCutting(cuts: (body: Record<string, unknown>) => boolean, every = false) {
  const api = deploymentMock();
  const subscriptionPath = `/v0/webhook_subscriptions/${INPUTS.subscription}`;
  const patches: Patch[] = [];
  let cutting = false;
  deployment = await startDeployment(api, async (request, next) => {
    const ofSubscription =
      request.method === "PATCH" && new URL(request.url).pathname === subscriptionPath && request.headers.get("x-api-key") === KEYS.a;
    const body = ofSubscription ? objectOf(await request.clone().text()) : undefined;
    const response = await next(request);
    if (body === undefined) return response;
    const cut = cutting || (response.status === 200 && patches.every((patch) => !patch.cut) && Object.keys(body).length > 0 && cuts(body));
    if (cut && every) cutting = true;
    if (cut) {
      patches.push({ body, cut });
      return "reset";
    }
    const { url, events, active } = (await response.clone().json()) as Record<string, unknown>;
    patches.push({ body, cut, delivered: { url, events, active } });
    return response;
  });
  const report = await runVerify({ baseUrl: deployment.url, apiKey: KEYS.a, otherTenantKey: KEYS.b, ...INPUTS, rate: 1000 });
  const { url, events, active } = api.state.webhookSubscriptions.get(INPUTS.subscription, { tenantId: "tenant_a" })!;
  return { report, patches, subscription: { url, events, active } };
}

describe("a PATCH whose answer the network cut after the deployment applied it", () => {
  it.each(ROWS)(
    "$name: the subscription ends as it began, restore.ok shown by a read-back",
    async ({ cuts, inRestore }) => {
      const { report, patches, subscription } = await runCutting(cuts);
      // The row's PATCH was forwarded, applied and cut.
      expect(patches.filter((patch) => patch.cut)).toHaveLength(1);
      expect(subscription).toEqual(ORIGINAL);
      expect(report.restore).toMatchObject({ ok: true, readBack: ORIGINAL });
      // The last request of the subscription is a read-back (PATCH {}) whose answer reached verify showing the original.
      expect(patches.at(-1)).toEqual({ body: {}, cut: false, delivered: ORIGINAL });
      // A cut inside the rules stops the run (exit code 2); a cut restore write, read back, leaves a whole passing run.
      expect(report.exitCode).toBe(inRestore ? 0 : 2);
      if (!inRestore) expect(report.stopped).toMatch(/failed/);
    },
    60_000,
  );

  it("the restore's write and every request after it cut: no read-back shows it, so never restore.ok (exit code 2)", async () => {
    const { report, patches } = await runCutting(ROWS.at(-1)!.cuts, true);
    expect(patches.filter((patch) => patch.cut).length).toBeGreaterThan(1);
    expect(report.restore).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^no read-back showed it restored in 5 requests .*put it back by hand/),
    });
    expect(report.exitCode).toBe(2);
  }, 60_000);
});
