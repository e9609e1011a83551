/**
 * The fault matrix (issue 7.2): the SDK against the standalone mock server over real HTTP, one row
 * per fault (rows.ts). Each row runs in its own fresh server and asserts the exact outcome, the
 * attempts the server saw, the waits the SDK announced and the time that really passed between
 * attempts (from the SDK's onRequest hook and the server's request log), and that a retried
 * create never stored a second log. Rows run concurrently: the waits are real (up to 2 s), so the
 * suite takes about as long as its slowest row.
 */
import { describe, it, vi } from "vitest";
import type { APIPromise, ProspectKitClient, RequestOptions } from "../../src/index.js";
import { FAULT_ROWS, type OperationName } from "./rows.js";
import { SEEDED, startRig } from "./support/rig.js";

/** Clock granularity: the request log has whole milliseconds, timers fire on whole milliseconds. */
const TOLERANCE_MS = 5;
/** Not a performance bound: only catches a wait far longer than announced (e.g. a cap instead of Retry-After). */
const SLACK_MS = 3_000;

const CALLS: Record<OperationName, (client: ProspectKitClient, options?: RequestOptions) => APIPromise<unknown>> = {
  createProspectLog: (client, options) => client.createProspectLog({ source: "crm", payload: { plan: "pro" }, email: "row@example.com" }, options),
  getPage: (client, options) => client.getPage({ pageGroupId: SEEDED.pageGroupId, pageId: SEEDED.pageId }, options),
  updateWebhookSubscription: (client, options) => client.updateWebhookSubscription({ subscriptionId: SEEDED.subscriptionId, active: false }, options),
};

describe.concurrent("fault matrix: the SDK against the mock's fault injection over real HTTP", () => {
  it.for(FAULT_ROWS)("$name", async (row, { expect }) => {
    const rig = await startRig();
    try {
      await row.arm(rig);
      const settled = await CALLS[row.operation](rig.client, row.options)
        .withResponse()
        .then(
          (value) => ({ value, error: undefined }),
          (error: unknown) => ({ value: undefined, error }),
        );
      // The server may still be answering an attempt the SDK gave up on (the timeout rows).
      await vi.waitFor(() => expect(rig.attempts().length).toBeGreaterThanOrEqual(row.statuses.length), { timeout: 3_000 });
      const attempts = rig.attempts().sort((a, b) => a.at - b.at);

      // The exact outcome.
      if ("result" in row.outcome) {
        const { status, replayed, data } = row.outcome.result;
        expect(settled.error, `expected a result, got ${String(settled.error)}`).toBeUndefined();
        const { response, data: result } = settled.value!;
        expect(response.status).toBe(status);
        expect(response.headers.get("idempotent-replayed")).toBe(replayed ? "true" : null);
        if (data) expect(result).toMatchObject(data);
        if (row.operation === "createProspectLog") {
          expect((result as { prospectLogId: string }).prospectLogId).toBe(rig.server.api.state.prospectLogs.list()[0]?.id);
        }
      } else {
        const { error: errorClass, fields = {} } = row.outcome;
        expect(settled.value).toBeUndefined();
        expect(Object.getPrototypeOf(settled.error)).toBe(errorClass.prototype);
        expect(settled.error).toMatchObject(fields);
      }

      // The attempts, as the server saw them.
      expect(attempts.map((attempt) => attempt.status)).toEqual(row.statuses);
      expect(rig.retries.map((event) => event.attempt)).toEqual(row.statuses.slice(1).map((_, index) => index + 1));

      // The waits: announced as the policy says, and really waited, seen from both ends. The
      // server's gap is a lower bound only where an attempt ends with the server's answer (a
      // timed-out attempt ends at the client, which may be before the server even saw it).
      const attemptMs = row.options?.timeoutMs ?? 0;
      rig.retries.forEach(({ delayMs }, index) => {
        const [min, max] = row.waits[index]!;
        expect(delayMs).toBeGreaterThanOrEqual(min);
        expect(delayMs).toBeLessThanOrEqual(max);
        const sentGap = rig.sent[index + 1]! - rig.sent[index]!;
        expect(sentGap).toBeGreaterThanOrEqual(attemptMs + delayMs - TOLERANCE_MS);
        expect(sentGap).toBeLessThan(attemptMs + delayMs + SLACK_MS);
        if (attemptMs === 0) expect(attempts[index + 1]!.at - attempts[index]!.at).toBeGreaterThanOrEqual(delayMs - TOLERANCE_MS);
      });
      expect(rig.retries).toHaveLength(row.waits.length);

      // Never a second log, however often the create was sent.
      expect(rig.logs()).toBe(row.logs);
    } finally {
      await rig.close();
    }
  });
});
