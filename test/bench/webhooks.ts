/**
 * Issue 12's benchmark: the API's request rate while webhook delivery is at its worst (a
 * receiver that never answers, 1,000 deliveries pending, the concurrency limit's attempts
 * hanging) against the same server with `--no-webhooks` holding the same 1,000 events, in the
 * same run with paired rounds. Target: >= 0.9 (deliveries never slow the API).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { judged, launch, paired, rps, withIqr } from "./http-pairs.ts";
import { atLeast, type Benchmark, info } from "./report.ts";
import { CLI, GET, KEY, PAGE_PATH } from "./server.ts";

const PENDING = 1_000;

/** Points a subscription at `url` and emits PENDING form events through the control API. */
async function fill(server: string, url: string): Promise<void> {
  const headers = { "x-api-key": KEY, "content-type": "application/json" };
  const created = await fetch(`${server}/__mock/webhook_subscriptions`, {
    method: "POST",
    headers,
    body: JSON.stringify({ url, events: ["form.submitted"] }),
  });
  if (created.status !== 201) throw new TypeError(`subscription: ${created.status}`);
  for (let i = 0; i < PENDING; i++) {
    const emitted = await fetch(`${server}/__mock/webhook_events`, {
      method: "POST",
      headers,
      body: JSON.stringify({ kind: "form.submitted", data: { i } }),
    });
    if (emitted.status !== 201) throw new TypeError(`event: ${emitted.status}`);
  }
}

const benchmark: Benchmark = {
  name: "webhooks",
  async run() {
    const hanging = createServer(() => undefined); // reads nothing, answers nothing
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const sink = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/never`;
    const on = await launch([CLI, "--port", "0", "--quiet", "--api-key", KEY]);
    const off = await launch([CLI, "--port", "0", "--quiet", "--api-key", KEY, "--no-webhooks"]);
    try {
      await fill(on.url, sink);
      await fill(off.url, sink);
      const pending = await fetch(`${on.url}/__mock/webhook_deliveries?status=pending`, { headers: { "x-api-key": KEY } });
      const count = ((await pending.json()) as { data: unknown[] }).data.length;
      const get = await paired(`${off.url}${PAGE_PATH}`, `${on.url}${PAGE_PATH}`, GET);
      return [
        ...(await judged([
          withIqr(
            atLeast(
              `GET page with a never-answering receiver and ${PENDING} deliveries pending vs --no-webhooks, req/s`,
              rps(get.server),
              rps(get.bare),
              get.ratio.median,
              0.9,
            ),
            get.ratio,
          ),
        ])),
        info("deliveries pending on the delivering server when the load started", String(count)),
      ];
    } finally {
      for (const running of [on, off]) running.child.kill("SIGTERM");
      hanging.closeAllConnections();
      hanging.close();
    }
  },
};

export default benchmark;
