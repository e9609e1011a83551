/**
 * What the CLI prints: the start banner (base URL, API key, demo IDs, a copy-paste `curl` for
 * each operation, from its row and its own file's example) and one line per request (method, path, status, time; never a header, so
 * never the API key).
 * @module
 */

import { fillPath, type OperationRow } from "../../../src/operation-row.js";
import { CONSOLE_PATH } from "../../console/handler.js";
import { CONTROL_PATH_PREFIX } from "../../control/route.js";
import { CONTROL_ROUTES } from "../../control/routes.js";
import { OPENAPI_PATH } from "../../openapi/routes.js";
import { MOCK_OPERATIONS, type MockOperation } from "../../operations/index.js";
import type { Delivery, DeliveryAttempt } from "../../webhooks/index.js";
import type { AnsweredRequest } from "../answered.js";

/** What the banner shows. */
export interface BannerInput {
  readonly version: string;
  readonly url: string;
  /** The key the printed commands use (the first `--api-key`), how many more are accepted, whether it is the documented development key. */
  readonly apiKey: string;
  readonly otherKeys: number;
  readonly developmentKey: boolean;
  /** The environment variable the key was read from: the banner names it and its commands use it, and never print the key. */
  readonly keyVariable?: string | undefined;
  /** The first page (and its published version, if any) and webhook subscription, if any. */
  readonly page: { readonly pageGroupId: string; readonly pageId: string; readonly publishedVersionId?: string | null } | undefined;
  readonly subscriptionId: string | undefined;
  /** More IDs the operations' paths may take, by parameter key (`prospectId`): the first of each kind the server holds. */
  readonly ids?: Readonly<Record<string, string | undefined>>;
  readonly quiet: boolean;
  /** What `--allowed-host` and `--cors-origin` added (none: loopback only). */
  readonly allowedHosts?: readonly string[];
  readonly corsOrigins?: readonly string[];
  /** The validating proxy's target, recording file and fallback (`--proxy-to`, `--record`, `--fallback`). */
  readonly proxy?: { readonly target: string; readonly recordFile: string | undefined; readonly fallback: boolean };
  /** How webhooks are delivered, and the URL of the inbox the first subscription delivers to (if it is the server's own). */
  readonly webhooks?: { readonly deliver: boolean; readonly timeScale: number; readonly inboxUrl: string | undefined };
  /** The operations the server serves, each shown with its example (default: every operation of the API). */
  readonly operations?: readonly MockOperation[];
}

function webhookLine(webhooks: NonNullable<BannerInput["webhooks"]>): string {
  if (!webhooks.deliver) return "recorded, not sent (--no-webhooks)";
  const schedule = webhooks.timeScale === 1 ? "the real retry schedule" : `the retry schedule ${webhooks.timeScale}x faster`;
  return `sent to each subscription's URL, on ${schedule}`;
}

/** What the banner says when `--allowed-host` or `--cors-origin` widened who may reach the server (nothing by default). */
function exposureLines(hosts: readonly string[], origins: readonly string[]): string[] {
  const lines: string[] = [];
  if (hosts.includes("*"))
    lines.push("  Hosts         EVERY host name is answered (--allowed-host '*'): a page that rebinds its name to this server can reach it");
  else if (hosts.length > 0) lines.push(`  Hosts         also answers ${hosts.join(", ")} (--allowed-host), besides loopback names and IP addresses`);
  if (origins.includes("*")) lines.push("  Origins       EVERY web page may drive the control API and read secrets (--cors-origin '*')");
  else if (origins.length > 0) lines.push(`  Origins       pages from ${origins.join(", ")} may also call the control API (--cors-origin)`);
  return lines;
}

/** The control route that publishes a page version, whose path the banner fills in. */
const PUBLISH_ROUTE = CONTROL_ROUTES.find((route) => route.operationId === "publishPageVersion")!;

/** Quotes a word for a POSIX shell (single quotes; a `'` inside is closed, escaped and reopened). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The `-H` word of the printed commands: the key itself, or the shell variable it was read from. */
function keyHeader({ apiKey, keyVariable }: Pick<BannerInput, "apiKey" | "keyVariable">): string {
  return keyVariable === undefined ? shellQuote(`x-api-key: ${apiKey}`) : `"x-api-key: $${keyVariable}"`;
}

function curl(method: string, url: string, header: string, body?: unknown): string {
  const words = ["curl", "-sS"];
  if (method !== "GET") words.push("-X", method);
  words.push(shellQuote(url), "-H", header);
  if (body !== undefined) words.push("-H", shellQuote("content-type: application/json"), "-d", shellQuote(JSON.stringify(body)));
  return `  ${words.join(" ")}`;
}

/** Publishing the page's version again: one `page.version.published` event, which the server delivers at once. */
function publishStep(url: string, header: string, versionId: string): string[] {
  return [
    "Publish the page's version again (control API): a page.version.published webhook to the subscription:",
    curl(PUBLISH_ROUTE.method, url + PUBLISH_ROUTE.path.replace("{versionId}", encodeURIComponent(versionId)), header),
  ];
}

/**
 * The start banner.
 * @param input - the server's URL, key and demo IDs
 * @returns the text, ending with a newline
 */
export function banner(input: BannerInput): string {
  const { url, page, subscriptionId } = input;
  const header = keyHeader(input);
  const keyNote = input.developmentKey
    ? " (the development key; choose your own with --api-key)"
    : input.otherKeys > 0
      ? ` (and ${input.otherKeys} more)`
      : "";
  // A known ID is filled in URL-encoded; an unknown one is a <placeholder> named as in the spec.
  const ids: Readonly<Record<string, string | undefined>> = { ...input.ids, pageGroupId: page?.pageGroupId, pageId: page?.pageId, subscriptionId };
  const examplePath = (row: OperationRow) =>
    fillPath(row, (param) => (ids[param.key] === undefined ? `<${param.name}>` : encodeURIComponent(ids[param.key]!)));
  // With a subscription delivering to the server's own inbox, the steps end on a delivery in it:
  // publishing the page's version again sends one, the inbox then shows it.
  const inboxUrl = input.webhooks?.inboxUrl;
  const publishes = inboxUrl !== undefined && input.webhooks?.deliver === true && typeof page?.publishedVersionId === "string";
  return [
    `prospectkit-mock ${input.version} listening on ${url}`,
    "",
    `  API key       ${input.keyVariable === undefined ? input.apiKey : `from $${input.keyVariable} (not printed)`}${keyNote}`,
    `  Page          ${page ? `${page.pageGroupId} / ${page.pageId}` : "none yet (load some with --data, or POST /__mock/pages)"}`,
    `  Subscription  ${subscriptionId ?? "none yet (load one with --data, or POST /__mock/webhook_subscriptions)"}`,
    `  OpenAPI       ${url}${OPENAPI_PATH}`,
    `  Control API   ${url}${CONTROL_PATH_PREFIX} (its index; the routes take the same x-api-key)`,
    `  Console       ${url}${CONSOLE_PATH} (open it in a browser)`,
    ...(input.webhooks ? [`  Webhooks      ${webhookLine(input.webhooks)}`] : []),
    ...exposureLines(input.allowedHosts ?? [], input.corsOrigins ?? []),
    ...(input.proxy
      ? [
          `  Proxy         /v0 operations go to ${input.proxy.target}, each request and answer checked against the API's schemas`,
          ...(input.proxy.recordFile ? [`  Recording     what the target answers, to ${input.proxy.recordFile} (load it with --data)`] : []),
          ...(input.proxy.fallback ? ["  Fallback      the mock answers what the target does not"] : []),
        ]
      : []),
    "",
    // Each operation: its summary (its row's documentation), then a curl with its example.
    ...(input.operations ?? MOCK_OPERATIONS).flatMap(({ row, example }) => [
      `${row.docs.summary}${example?.note === undefined ? "" : ` (${example.note})`}:`,
      curl(row.method, url + examplePath(row), header, example?.body),
    ]),
    ...(publishes ? publishStep(url, header, page!.publishedVersionId!) : []),
    "List the stored prospect log entries (control API):",
    curl("GET", `${url}${CONTROL_PATH_PREFIX}/prospect_logs`, header),
    ...(inboxUrl === undefined
      ? []
      : [
          `See the webhooks delivered to the built-in inbox, verified (${
            publishes
              ? "the publish above added one"
              : input.webhooks?.deliver
                ? "publish a page version to add one"
                : "none: --no-webhooks sends none"
          }):`,
          curl("GET", inboxUrl, header),
        ]),
    "",
    input.quiet
      ? "Quiet: requests and webhook attempts are not printed. Ctrl+C stops."
      : "One line per request and per webhook attempt follows. Ctrl+C stops.",
    "",
  ].join("\n");
}

/** Local time as `12:00:01.234`. */
const clockTime = (at: Date) => `${at.toTimeString().slice(0, 8)}.${String(at.getMilliseconds()).padStart(3, "0")}`;

/**
 * One webhook attempt as the CLI prints it, beside the request lines:
 * `12:00:01.240 webhook page.version.published http://127.0.0.1:4010/__mock/inbox/demo 200 3.1 ms`;
 * a failure shows its reason (`refused`, `timeout`, `redirect 302`, `500`), a retry its number.
 * @param attempt - the attempt
 * @param delivery - the delivery it belongs to (event kind, URL)
 * @param at - when it ended
 */
export function deliveryLine(attempt: DeliveryAttempt, delivery: Pick<Delivery, "type" | "url">, at: Date = new Date()): string {
  const outcome =
    attempt.status !== null ? (attempt.reason === "redirect" ? `redirect ${attempt.status}` : String(attempt.status)) : (attempt.reason ?? "failed");
  const note = attempt.redelivery ? " (redelivery)" : attempt.attempt > 1 ? ` (attempt ${attempt.attempt})` : "";
  return `${clockTime(at)} webhook ${delivery.type} ${delivery.url} ${outcome} ${attempt.durationMs.toFixed(1)} ms${note}\n`;
}

/**
 * One request as the CLI prints it: `12:00:01.234 POST /v0/prospect_logs 201 0.9 ms`.
 * @param request - the answered request
 * @param at - when it was answered
 */
export function requestLine(request: AnsweredRequest, at: Date = new Date()): string {
  const status = request.status === 0 ? "dropped" : String(request.status);
  const by = request.answeredBy === "mock" ? " (answered by the mock: --fallback)" : "";
  const violations = request.violations?.length ? ` VIOLATES: ${request.violations.join("; ")}` : "";
  return `${clockTime(at)} ${request.method} ${request.path} ${status} ${request.durationMs.toFixed(1)} ms${by}${violations}\n`;
}
