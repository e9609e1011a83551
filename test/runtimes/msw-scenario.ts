/**
 * The mock matrix's scenario: the mock's MSW handlers (`prospectkit/mock`) served through
 * `setupServer` on one Node version with one msw major, answering one real `fetch`. The entry
 * passes in the packed `prospectkit`, `prospectkit/mock` and the project's own `msw/node`, so
 * the handlers run against the msw the consumer installed, never the repository's.
 */
import type * as MockMsw from "../../mock/index.ts";
import type * as Prospectkit from "../../src/index.ts";
import { host } from "./host.ts";

/**
 * The part of `msw/node` this scenario uses. msw 2 names the unhandled-request option
 * `onUnhandledRequest`, msw 3 `onUnhandledFrame`; each ignores the other's.
 */
interface MswNode {
  setupServer(...handlers: unknown[]): {
    listen(options: { onUnhandledRequest: "error"; onUnhandledFrame: "error" }): void;
    close(): void;
  };
}

/** What the harness passes in. */
export interface MswContext {
  readonly runtime: string;
  /** The base URL the mock answers on; MSW intercepts it, nothing listens there. */
  readonly baseUrl: string;
  readonly apiKey: string;
}

/** What the scenario observed, as plain JSON. */
export interface MswResult {
  readonly runtime: string;
  readonly host: string;
  readonly status: number;
  readonly hasRequestId: boolean;
  /** Whether the body is a valid ProspectLog by the shared (response) schema. */
  readonly validLog: boolean;
  readonly type: unknown;
  readonly createdProspect: unknown;
}

/**
 * Runs the scenario: one create request through `setupServer(...api.handlers)`.
 *
 * @param sdk - the packed `prospectkit`
 * @param mock - the packed `prospectkit/mock`
 * @param mswNode - the consumer's `msw/node`
 * @param context - the runtime's name, the base URL and the API key
 * @returns the observations, as plain JSON
 */
export async function scenario(sdk: typeof Prospectkit, mock: typeof MockMsw, mswNode: MswNode, context: MswContext): Promise<MswResult> {
  const api = mock.createMockApi({ apiKeys: [context.apiKey], seed: 1, baseUrl: context.baseUrl });
  const server = mswNode.setupServer(...api.handlers);
  server.listen({ onUnhandledRequest: "error", onUnhandledFrame: "error" });
  try {
    const response = await fetch(new URL("/v0/prospect_logs", context.baseUrl), {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": context.apiKey },
      body: JSON.stringify({ source: "crm", payload: { plan: "pro" }, email: "a@b.co" }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    return {
      runtime: context.runtime,
      host: host(),
      status: response.status,
      hasRequestId: response.headers.has("x-request-id"),
      validLog: sdk.ProspectLog.safeParse(body).success,
      type: body["type"],
      createdProspect: body["createdProspect"],
    };
  } finally {
    server.close();
  }
}
