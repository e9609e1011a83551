/**
 * One fault-matrix row's world: a fresh standalone mock server (`startMockServer`, real HTTP on
 * loopback) seeded with one published page and one subscription, a gateway in front of it for the
 * faults the mock does not inject, and an SDK client whose every retry is observed.
 */

import type { ControlFault } from "../../../mock/control/schemas.js";
import { type MockServer, startMockServer } from "../../../mock/server/index.js";
import { type ClientOptions, createClient, type ProspectKitClient, type RetryEvent } from "../../../src/index.js";
import { type Gateway, startGateway } from "./gateway.js";

/** The key the rig's server accepts. */
export const API_KEY = "pk_test_fault_matrix_3c1f9a";

/** The seeded data every row can call. */
export const SEEDED = { pageGroupId: "pagegroup_faults", pageId: "page_faults", subscriptionId: "whsub_faults" } as const;

/** A running row world. */
export interface Rig {
  readonly server: MockServer;
  readonly gateway: Gateway;
  /** The SDK, calling through the gateway (which passes everything on unless a rewrite is armed). */
  readonly client: ProspectKitClient;
  /** Every `onRetry` event, in order. */
  readonly retries: RetryEvent[];
  /** When the SDK sent each attempt (`onRequest`, ms since the epoch), in order. */
  readonly sent: number[];
  /** Arms a fault through the control API (`POST /__mock/faults`), as an integrator in any language would. */
  fault(fault: ControlFault): Promise<void>;
  /** The attempts the server saw: status (0 for a dropped connection) and arrival time (ms), oldest first. */
  attempts(): { status: number; at: number }[];
  /** How many prospect logs the server stores. */
  logs(): number;
  close(): Promise<void>;
}

/**
 * Starts a row world.
 * @param options - client options on top of the rig's (key, base URL, retry hook)
 */
export async function startRig(options: ClientOptions = {}): Promise<Rig> {
  const server = await startMockServer({
    port: 0,
    apiKeys: [API_KEY],
    seed: 7,
    fixtures(state) {
      state.pageGroups.create({ id: SEEDED.pageGroupId });
      state.pages.create({ id: SEEDED.pageId, pageGroupId: SEEDED.pageGroupId, computedName: "Pricing" });
      const version = state.pageVersions.create({ pageId: SEEDED.pageId });
      state.pageVersions.process(version.id, { computedName: "Pricing" });
      state.pageVersions.publish(version.id);
      state.webhookSubscriptions.create({ id: SEEDED.subscriptionId, url: "https://hooks.example.com/in", events: ["form.submitted"] });
    },
  });
  const gateway = await startGateway(server.url);
  const retries: RetryEvent[] = [];
  const sent: number[] = [];
  const client = createClient({
    apiKey: API_KEY,
    baseUrl: gateway.url,
    onRequest: () => void sent.push(Date.now()),
    onRetry: (event) => void retries.push(event),
    ...options,
  });
  return {
    server,
    gateway,
    client,
    retries,
    sent,
    async fault(fault) {
      const response = await fetch(`${server.url}/__mock/faults`, {
        method: "POST",
        headers: { "x-api-key": API_KEY, "content-type": "application/json" },
        body: JSON.stringify(fault),
      });
      if (response.status !== 201) throw new TypeError(`arming ${JSON.stringify(fault)} answered ${response.status}: ${await response.text()}`);
    },
    attempts: () =>
      server.api.requests
        .list()
        .filter((entry) => entry.operation !== null)
        .map((entry) => ({ status: entry.status, at: Date.parse(entry.receivedAt) })),
    logs: () => server.api.state.prospectLogs.list().length,
    async close() {
      await gateway.close();
      await server.close();
    },
  };
}
