/**
 * THE scenario of the runtime matrix: one file, run unchanged on every runtime (Node 20/22/24
 * through `import` and `require`, Bun, Deno, workerd, Chromium). It takes the packed package's
 * module from the runtime's own entry (so the entry decides how it is loaded: ESM import, CJS
 * require, or a bundle) and returns plain JSON that the harness compares across runtimes.
 *
 * Today it proves the shared schemas behave the same everywhere. It becomes "the SDK calls all
 * three operations against the standalone mock server at `context.baseUrl`" once `createClient`
 * and `prospectkit/mock/server` exist; the harness already passes a context for that.
 */
import type * as Prospectkit from "../../src/index.ts";

/** What the harness tells the scenario: which runtime runs it, and later the server's URL. */
export interface ScenarioContext {
  /** The id of the runtime running the scenario, echoed back to prove the right one ran. */
  readonly runtime: string;
}

/** A field error reduced to what the spec fixes (the detail text is free). */
interface FieldIssue {
  readonly pointer: string;
  readonly code: string;
}

/** What the scenario observed, as plain JSON. */
export interface ScenarioResult {
  readonly runtime: string;
  /** Which engine really ran the scenario, as it says itself (for example `node 22.23.3`). */
  readonly host: string;
  /** A valid create body after parsing: `type` defaulted, `payload` kept as sent. */
  readonly created: unknown;
  /** Whether the parsed payload is the very object that was sent (checked, never copied). */
  readonly payloadKept: boolean;
  /** Field errors of a create body with a typo, a missing field and a bad email. */
  readonly rejectedCreate: readonly FieldIssue[];
  /** Field errors of an update that lists no event kinds. */
  readonly rejectedUpdate: readonly FieldIssue[];
  /** Whether a subscription from a newer API (unknown field, unknown event kind) is accepted. */
  readonly forwardCompatible: boolean;
  readonly eventKinds: readonly string[];
}

/** Names the engine from its own globals; Bun and Deno also carry `process`, so they go first. */
function host(): string {
  const g = globalThis as {
    Bun?: { version: string };
    Deno?: { version: { deno: string } };
    process?: { versions?: { node?: string } };
    navigator?: { userAgent?: string };
  };
  const agent = g.navigator?.userAgent ?? "";
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (agent === "Cloudflare-Workers") return "workerd";
  if (g.process?.versions?.node) return `node ${g.process.versions.node}`;
  // Chrome's user agent carries only the major version (156.0.0.0).
  const chrome = /Chrome\/(\d+)\./.exec(agent);
  return chrome ? `chrome ${chrome[1]}` : `unknown (${agent})`;
}

function fieldIssues(sdk: typeof Prospectkit, issues: Parameters<typeof Prospectkit.toFieldErrors>[0], input: unknown): FieldIssue[] {
  return sdk.toFieldErrors(issues, input).map(({ pointer, code }) => ({ pointer, code }));
}

/**
 * Runs the scenario.
 *
 * @param sdk - the `prospectkit` module as the runtime loaded it from the packed tarball
 * @param context - what the harness passes in
 * @returns the observations, as plain JSON
 */
export async function scenario(sdk: typeof Prospectkit, context: ScenarioContext): Promise<ScenarioResult> {
  const payload = { event: "signup", nested: { list: [1, "two", null] } };
  const created = sdk.ProspectLogCreate.safeParse({ source: "crm", payload, email: "a@b.co" });

  const badCreate = { emial: "a@b.co", payload: {}, email: "not-an-email" };
  const rejectedCreate = sdk.ProspectLogCreate.safeParse(badCreate);

  const badUpdate = { events: [] };
  const rejectedUpdate = sdk.WebhookSubscriptionUpdate.safeParse(badUpdate);

  const fromNewerApi = sdk.WebhookSubscription.safeParse({
    id: "sub_1",
    url: "https://example.com/hook",
    events: ["page.version.published", "kind.from.the.future"],
    active: true,
    createdAt: "2024-02-29T12:00:00Z",
    updatedAt: "2024-02-29T12:00:00.123Z",
    fieldFromTheFuture: { any: "thing" },
  });

  return {
    runtime: context.runtime,
    host: host(),
    created: created.success ? created.data : created.error.issues,
    payloadKept: created.success && created.data.payload === payload,
    rejectedCreate: rejectedCreate.success ? [] : fieldIssues(sdk, rejectedCreate.error.issues, badCreate),
    rejectedUpdate: rejectedUpdate.success ? [] : fieldIssues(sdk, rejectedUpdate.error.issues, badUpdate),
    forwardCompatible: fromNewerApi.success,
    eventKinds: [...sdk.WEBHOOK_EVENT_KINDS],
  };
}
