/**
 * THE scenario of the runtime matrix: one file, run unchanged on every runtime (Node 20/22/24
 * through `import` and `require`, Bun, Deno, workerd, Chromium). It takes the packed package's
 * module from the runtime's own entry (so the entry decides how it is loaded: ESM import, CJS
 * require, or a bundle) and returns plain JSON that the harness compares with the spec.
 *
 * Its only runtime import is ./host.ts, which the harness bundles in. It does two things: the
 * shared schemas parse, default and reject as the spec says (no network), and the SDK calls all
 * three operations, plus a 404 and a locally rejected body, against the mock server whose URL,
 * key and seeded IDs the harness passes in.
 */
import type * as Prospectkit from "../../src/index.ts";
import { host } from "./host.ts";
import type { ServerContext } from "./server.ts";

/** What the harness tells the scenario. */
export interface ScenarioContext {
  /** The name of the case running the scenario, echoed back to prove the right one ran. */
  readonly runtime: string;
  /** The mock server to call: base URL, API key and the IDs it seeded. */
  readonly server: ServerContext;
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
  readonly schemas: {
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
  };
  readonly sdk: {
    readonly created: { readonly source: string; readonly type: string; readonly createdProspect: boolean; readonly idsMatchTheSpec: boolean };
    readonly page: {
      readonly isTheSeededPage: boolean;
      readonly effectiveName: string;
      readonly customName: string | null;
      readonly versionNumber: unknown;
    };
    readonly updated: { readonly isTheSeededSubscription: boolean; readonly active: boolean; readonly events: readonly string[] | null };
    readonly withResponse: { readonly status: number; readonly requestIdFromHeader: boolean };
    readonly notFound: { readonly isNotFoundError: boolean; readonly status: unknown; readonly code: unknown };
    readonly invalidBody: { readonly isRequestValidationError: boolean };
  };
}

/** The field errors the SDK's request validation reports for `call` (nothing is sent), as `{ pointer, code }`. */
async function fieldIssues(sdk: typeof Prospectkit, call: (client: Prospectkit.ProspectKitClient) => Promise<unknown>): Promise<FieldIssue[]> {
  const offline = sdk.createClient({
    apiKey: "k_offline",
    baseUrl: "https://offline.test",
    fetch: () => Promise.reject(new TypeError("never sent")),
  });
  const error = await call(offline).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return error instanceof sdk.RequestValidationError ? error.errors.map(({ pointer, code }) => ({ pointer, code })) : [];
}

async function schemas(sdk: typeof Prospectkit): Promise<ScenarioResult["schemas"]> {
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
    created: created.success ? created.data : created.error.issues,
    payloadKept: created.success && created.data.payload === payload,
    rejectedCreate: rejectedCreate.success ? [] : await fieldIssues(sdk, (client) => client.createProspectLog(badCreate as never)),
    rejectedUpdate: rejectedUpdate.success
      ? []
      : await fieldIssues(sdk, (client) => client.updateWebhookSubscription({ subscriptionId: "s", ...badUpdate } as never)),
    forwardCompatible: fromNewerApi.success,
    eventKinds: [...sdk.WEBHOOK_EVENT_KINDS],
  };
}

async function calls(sdk: typeof Prospectkit, context: ScenarioContext): Promise<ScenarioResult["sdk"]> {
  const { server } = context;
  const client = sdk.createClient({ apiKey: server.apiKey, baseUrl: server.baseUrl });
  // One new prospect per case: the cases share one server.
  const email = `${context.runtime.replace(/[^a-z0-9]+/gi, "-")}@example.com`;
  const created = await client.createProspectLog({ source: "crm", payload: { plan: "pro" }, email });
  const page = await client.getPage({ pageGroupId: server.pageGroupId, pageId: server.pageId });
  const updated = await client.updateWebhookSubscription({ subscriptionId: server.subscriptionId, active: false });
  const { response, requestId } = await client.getPage({ pageGroupId: server.pageGroupId, pageId: server.pageId }).withResponse();
  const notFound = await client.getPage({ pageGroupId: server.pageGroupId, pageId: "no/such?page#" }).then(
    () => undefined,
    (error: unknown) => error,
  );
  const invalid = await client.createProspectLog({ source: "", payload: {} }).then(
    () => undefined,
    (error: unknown) => error,
  );
  return {
    created: {
      source: created.source,
      type: created.type,
      createdProspect: created.createdProspect,
      idsMatchTheSpec: sdk.PROSPECT_ID_PATTERN.test(created.prospectId) && sdk.PROSPECT_LOG_ID_PATTERN.test(created.prospectLogId),
    },
    page: {
      isTheSeededPage: page.pageId === server.pageId && page.pageGroupId === server.pageGroupId,
      effectiveName: page.effectiveName,
      customName: page.customName,
      versionNumber: page.publishedVersion.versionNumber,
    },
    updated: { isTheSeededSubscription: updated.id === server.subscriptionId, active: updated.active, events: updated.events },
    withResponse: { status: response.status, requestIdFromHeader: requestId !== undefined && requestId === response.headers.get("x-request-id") },
    notFound: {
      isNotFoundError: notFound instanceof sdk.NotFoundError,
      status: notFound instanceof sdk.APIError ? notFound.status : String(notFound),
      code: notFound instanceof sdk.APIError ? notFound.code : undefined,
    },
    invalidBody: { isRequestValidationError: invalid instanceof sdk.RequestValidationError },
  };
}

/**
 * Runs the scenario.
 *
 * @param sdk - the `prospectkit` module as the runtime loaded it from the packed tarball
 * @param context - the case's name and the mock server to call
 * @returns the observations, as plain JSON
 */
export async function scenario(sdk: typeof Prospectkit, context: ScenarioContext): Promise<ScenarioResult> {
  return { runtime: context.runtime, host: host(), schemas: await schemas(sdk), sdk: await calls(sdk, context) };
}
