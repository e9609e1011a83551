/**
 * Issue 32's benchmark, on the BUILT package: what 100,000 tenants cost the requests of one, and
 * what the validating proxy keeps of large answers. Each side is a fresh server process
 * (`startMockServer` from dist/) holding one measured tenant, and either no other tenant or
 * 100,000 tenants made by `api.isolate()`, each with a subscription pointing at an inbox name of
 * its own, a logged request and its key. Measured over HTTP from this process, sequentially,
 * medians of many requests:
 * (a) an inbox receive (an unsigned request to a name the measured tenant points at);
 * (b) GET page while 4 keyless clients post to an inbox name nobody points at (the case);
 * (c) `GET /__mock/requests` of the measured tenant (12 entries);
 * each with 100k tenants against none in paired rounds (both servers running, the order
 * alternating), the median of the rounds' ratios, target <= 1.2. (d) the proxy's RSS after 20 answers of 50 MiB
 * against its RSS idle (after full GCs; the proxy alone in its process), target <= 1.2.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { atMost, type Benchmark, info, median } from "./report.ts";

const DIST = new URL("../../dist/mock/server/index.js", import.meta.url).href;
const KEY = "pk_bench_tenants";
const TENANTS = 100_000;
const SAMPLES = 200;

/** A server with the measured tenant and `tenants` others; prints `listening on URL` once they are made. */
const SERVER_CHILD = `
const [dist, key, count] = process.argv.slice(1);
const { startMockServer } = await import(dist);
const server = await startMockServer({
  port: 0,
  apiKeys: [key],
  maxTenants: Number(count) + 1,
  webhooks: { deliver: false },
  fixtures(state, { url }) {
    state.pageGroups.create({ id: "pagegroup_bench" });
    state.pages.create({ id: "page_bench", pageGroupId: "pagegroup_bench", customName: "Bench" });
    state.webhookSubscriptions.create({ id: "webhooksubscription_bench", url: url + "/__mock/inbox/measured" });
  },
});
const { api } = server;
for (let i = 0; i < Number(count); i++) {
  const tenant = api.isolate();
  api.state.webhookSubscriptions.create({ id: "webhooksubscription_bench", url: server.url + "/__mock/inbox/t" + i, tenantId: tenant.tenantId });
  await api.fetch(server.url + "/v0/page_groups/pagegroup_bench/pages/page_bench", { headers: { "x-api-key": tenant.apiKey } });
}
for (let i = 0; i < 12; i++) await api.fetch(server.url + "/v0/page_groups/pagegroup_bench/pages/page_bench", { headers: { "x-api-key": key } });
console.log("listening on " + server.url);
`;

/**
 * The proxy alone in its process, in front of `target`: it prints its URL, then its RSS after
 * full GCs each time a line arrives on stdin (idle, then after the answers this bench fetched).
 */
const PROXY_CHILD = `
const [dist, key, target] = process.argv.slice(1);
const { startMockServer } = await import(dist);
const proxy = await startMockServer({ port: 0, apiKeys: [key], webhooks: { deliver: false }, proxy: { target } });
const settle = async () => {
  for (let i = 0; i < 4; i++) { globalThis.gc(); await new Promise((done) => setTimeout(done, 100)); }
  return process.memoryUsage();
};
process.stdin.setEncoding("utf8").on("data", async () => {
  const { rss, heapUsed } = await settle();
  console.log(JSON.stringify({ rss, heapUsed, logged: proxy.api.requests.size }));
});
console.log("listening on " + proxy.url);
`;

/** A page whose custom name is 50 MiB: an answer as large as the issue's. */
const BIG_PAGE = Buffer.from(
  JSON.stringify({
    pageId: "page_big",
    pageGroupId: "pagegroup_big",
    tenantId: "tenant_big",
    createdAt: "2024-02-29T12:00:00.000Z",
    effectiveName: "n",
    customName: "x".repeat(50 * 1024 * 1024),
    computedName: "n",
    supplementaryContext: null,
    publishedVersion: { versionId: null, versionNumber: null, publishedAt: null },
  }),
);

/** Starts a server child and waits for its URL. */
function serverWith(tenants: number): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", SERVER_CHILD, DIST, KEY, String(tenants)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1]!, stop: () => child.kill("SIGTERM") });
    });
    child.once("exit", (code) => reject(new TypeError(`the server child exited with ${code} before listening`)));
  });
}

/** Milliseconds of each of `count` sequential calls of `send`, after a warm-up. */
async function timings(count: number, send: () => Promise<Response>): Promise<number[]> {
  for (let i = 0; i < 50; i++) await (await send()).arrayBuffer();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await (await send()).arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

/** The three request figures of one side: p50 ms of an inbox receive, of GET page under keyless inbox load, of GET /__mock/requests. */
/** The request figures of one side, p50 in milliseconds. */
interface Figures {
  readonly receive: number;
  readonly page: number;
  readonly requests: number;
}

async function measure(url: string): Promise<Figures> {
  const unsigned = (name: string) =>
    fetch(`${url}/__mock/inbox/${name}`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"id":"forged"}' });
  const receive = median(await timings(SAMPLES, () => unsigned("measured")));
  let loading = true;
  const load = Array.from({ length: 4 }, async () => {
    while (loading) await (await unsigned("nobody-points-here")).arrayBuffer();
  });
  const page = median(
    await timings(SAMPLES, () => fetch(`${url}/v0/page_groups/pagegroup_bench/pages/page_bench`, { headers: { "x-api-key": KEY } })),
  );
  loading = false;
  await Promise.all(load);
  // The measured tenant's log back to 12 entries: its own reset, then 12 reads of its page.
  await (await fetch(`${url}/__mock/reset`, { method: "POST", headers: { "x-api-key": KEY } })).arrayBuffer();
  for (let i = 0; i < 12; i++)
    await (await fetch(`${url}/v0/page_groups/pagegroup_bench/pages/page_bench`, { headers: { "x-api-key": KEY } })).arrayBuffer();
  const requests = median(await timings(SAMPLES, () => fetch(`${url}/__mock/requests`, { headers: { "x-api-key": KEY } })));
  return { receive, page, requests };
}

/** The proxy's RSS idle and after 20 answers of 50 MiB (the target and the client in this process, the proxy alone in its own). */
async function proxyMemory(): Promise<{ idle: number; after: number; heapIdle: number; heapAfter: number }> {
  const target = createServer((request, response) => {
    request.resume().on("end", () => {
      response.writeHead(200, { "content-type": "application/json", "x-request-id": "req_target", "content-length": BIG_PAGE.length });
      response.end(BIG_PAGE);
    });
  });
  await once(target.listen(0, "127.0.0.1"), "listening");
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--input-type=module", "-e", PROXY_CHILD, DIST, KEY, `http://127.0.0.1:${(target.address() as AddressInfo).port}`],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    for (const line of chunk.split("\n").filter(Boolean)) {
      if (waiting === undefined) lines.push(line);
      else {
        waiting(line);
        waiting = undefined;
      }
    }
  });
  const next = () => (lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise<string>((resolve) => (waiting = resolve)));
  const rss = async () => {
    child.stdin.write("rss\n");
    return JSON.parse(await next()) as { rss: number; heapUsed: number; logged: number };
  };
  try {
    const url = /listening on (\S+)/.exec(await next())![1]!;
    const page = `${url}/v0/page_groups/pagegroup_big/pages/page_big`;
    await (await fetch(page, { headers: { "x-api-key": KEY } })).arrayBuffer(); // the same code loaded on both sides
    const idle = await rss();
    for (let i = 0; i < 20; i++) {
      const answer = await (await fetch(page, { headers: { "x-api-key": KEY } })).arrayBuffer();
      if (answer.byteLength !== BIG_PAGE.length) throw new TypeError("the proxy cut the answer");
    }
    const after = await rss();
    if (after.logged !== 21) throw new TypeError(`the proxy logged ${after.logged} answers, not 21`);
    return { idle: idle.rss, after: after.rss, heapIdle: idle.heapUsed, heapAfter: after.heapUsed };
  } finally {
    child.kill("SIGTERM");
    target.close();
  }
}

const ms = (value: number) => `${value.toFixed(3)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** Paired rounds: each figure is measured on both servers in turn (order alternating), per round. */
const ROUNDS = 5;

const benchmark: Benchmark = {
  name: "tenants",
  async run() {
    const started = performance.now();
    const many = await serverWith(TENANTS);
    const made = performance.now() - started;
    const none = await serverWith(0);
    const sides: { none: Figures[]; many: Figures[] } = { none: [], many: [] };
    try {
      await measure(none.url); // warms this process's client, so neither side pays for it
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of round % 2 === 0 ? (["none", "many"] as const) : (["many", "none"] as const)) {
          sides[side].push(await measure(side === "none" ? none.url : many.url));
        }
      }
    } finally {
      none.stop();
      many.stop();
    }
    const memory = await proxyMemory();
    const with100k = `with ${TENANTS.toLocaleString("en-US")} tenants vs none`;
    /** A figure's row: medians of each side, and the median of the rounds' ratios with their spread. */
    const row = (figure: keyof Figures, label: string) => {
      const ratios = sides.many.map((many, i) => many[figure] / sides.none[i]![figure]);
      const spread = `rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`;
      const value = (side: Figures[]) => median(side.map((figures) => figures[figure]));
      return atMost(`${label}, ${with100k} (${spread})`, ms(value(sides.many)), ms(value(sides.none)), median(ratios), 1.2);
    };
    return [
      row("receive", "(a) inbox receive p50, unsigned"),
      row("page", "(b) GET page p50 while 4 keyless clients post to an unused inbox name"),
      row("requests", "(c) GET /__mock/requests p50 (12 own entries)"),
      atMost(
        `(d) proxy RSS after 20 answers of 50 MiB vs idle (after full GCs; heap used ${mib(memory.heapAfter)} vs ${mib(memory.heapIdle)})`,
        mib(memory.after),
        mib(memory.idle),
        memory.after / memory.idle,
        1.2,
      ),
      info(
        "load",
        `${ROUNDS} paired rounds of ${SAMPLES} sequential requests per figure over HTTP (after 50 warm-up ones), medians; ${TENANTS.toLocaleString("en-US")} tenants made with api.isolate() in ${(made / 1000).toFixed(1)} s, each with a subscription to its own inbox name, a key and a logged request`,
      ),
    ];
  },
};

export default benchmark;
