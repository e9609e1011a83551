/**
 * The inputs a run is given, as the rules read them: the page (`--page`) and the subscription
 * (`--subscription`), each read once per run. The subscription's values are never trusted from a
 * write the rules have not proven: the rules set known values and read the others back through
 * the answers, and the restore puts back what the first read found and shows it (see
 * {@link restoreSubscription}).
 * @module
 */
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import type { OperationRow } from "../../src/operation-row.js";
import { OPERATION_TABLE } from "../../src/operation-table.js";
import type { Exchange, SendOptions, VerifyContext } from "./rule.js";
import { expectThat, RuleSkipped, shown } from "./rule.js";
import { pathOf } from "./rules/samples.js";

/** What a rule sets and reads back of a subscription. */
export interface SubscriptionValues {
  readonly url: string;
  /** `null`: every kind (a subscription made without a filter; no request can set it). */
  readonly events: readonly string[] | null;
  readonly active: boolean;
}

/** The operation of the table whose path takes exactly these parameters, with this method (the inputs' resources are found by what names them). */
const rowTaking = (method: OperationRow["method"], ...keys: string[]): OperationRow =>
  OPERATION_TABLE.find((row) => row.method === method && row.params.map((param) => param.key).join() === keys.join())!;

/** The path of a subscription: the update's, whose path takes a `subscriptionId`. */
export const subscriptionPath = (id: string): string => pathOf(rowTaking("PATCH", "subscriptionId"), () => id);

/** The path of a page: the read's, whose path takes a `pageGroupId` and a `pageId`. */
export const pagePath = (pageGroupId: string, pageId: string): string =>
  pathOf(rowTaking("GET", "pageGroupId", "pageId"), (key) => (key === "pageGroupId" ? pageGroupId : pageId));

/**
 * The page given with `--page`, read once per run (`GET`), for a rule that reads its fields.
 * @throws {RuleSkipped} when the deployment answers 404: the input is wrong (exit code 2)
 */
export async function readPage(context: VerifyContext): Promise<Exchange> {
  const { pageGroupId, pageId } = context.page!;
  const exchange = await context.once("page", () => context.send("GET", pagePath(pageGroupId, pageId)));
  if (exchange.answer.status === 404)
    throw new RuleSkipped(`the deployment does not know --page ${pageGroupId}/${pageId} with this key (GET answered 404)`, true);
  return exchange;
}

/** The url, events and active an answer shows, when its body has all three in their types. */
export function valuesOf(body: unknown): SubscriptionValues | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { url, events, active } = body as Record<string, unknown>;
  const eventsOk = events === null || (Array.isArray(events) && events.every((kind) => typeof kind === "string"));
  if (typeof url !== "string" || typeof active !== "boolean" || !eventsOk) return undefined;
  return { url, events: events as string[] | null, active };
}

const same = (a: SubscriptionValues | undefined, b: SubscriptionValues) =>
  a !== undefined && a.url === b.url && a.active === b.active && JSON.stringify(a.events) === JSON.stringify(b.events);

/** The first read of the given subscription (`PATCH {}`), once per run, and what it showed. */
export interface FirstRead {
  readonly exchange: Exchange;
  /** The values it showed; `undefined` when the answer holds none (a 404, a body without them). */
  readonly values?: SubscriptionValues;
}

/** Reads the given subscription with `PATCH {}`, once per run (before any rule changes it: `runVerify` asks first). */
export function firstRead(context: VerifyContext): Promise<FirstRead> {
  return context.once("subscription", async () => {
    const exchange = await context.send("PATCH", subscriptionPath(context.subscription!), { json: {} });
    const { status, body } = exchange.answer;
    // An answer that held a key was redacted: what it shows is not what the subscription holds, so it is never put back.
    const echoed = context.keyEchoes().includes(exchange);
    const values = status >= 200 && status < 300 && !echoed ? valuesOf(body) : undefined;
    return { exchange, ...(values && { values }) };
  });
}

/**
 * The given subscription's values as the first read found them, for a rule that changes it.
 * @throws {RuleSkipped} when the first read showed none: not found (an input problem, exit code 2), or an answer without them
 */
export async function givenSubscription(context: VerifyContext): Promise<SubscriptionValues> {
  const { exchange, values } = await firstRead(context);
  if (values !== undefined) return values;
  const { status } = exchange.answer;
  if (status === 404)
    throw new RuleSkipped(`the deployment does not know --subscription ${context.subscription} with this key (PATCH {} answered 404)`, true);
  if (context.keyEchoes().includes(exchange))
    throw new RuleSkipped(
      `--subscription ${context.subscription} could not be read: its answer held an API key, which verify never shows (nor puts back)`,
    );
  throw new RuleSkipped(`--subscription ${context.subscription} could not be read: PATCH {} answered ${status} without its url, events and active`);
}

/** For a rule that sets `events`: the first read showed a list (`null` cannot be sent back). */
export function requireEventsList(values: SubscriptionValues): void {
  if (values.events === null)
    throw new RuleSkipped(
      "the subscription's events read null (every kind), which no request can put back: give --subscription one with an events list",
    );
}

/** The URLs the rules set (the restore puts the original back). */
export const VERIFY_URLS = ["https://hooks.example.com/prospectkit-verify?check=1", "https://hooks.example.com/prospectkit-verify?check=2"] as const;

/** Two event lists the rules set (when the subscription has a list). */
export const VERIFY_EVENTS = [["form.submitted", "page.version.published"], ["form.enriched"]] as const;

/** Sends a PATCH of the given subscription. */
export const patchSubscription = (context: VerifyContext, json: unknown, options: SendOptions = {}): Promise<Exchange> =>
  context.send("PATCH", subscriptionPath(context.subscription!), { ...options, json });

/** The answer shows exactly these values. */
export function expectValues(exchange: Exchange, expected: SubscriptionValues, what: string): void {
  expectThat(exchange.answer.status === 200, `expected status 200 (${what}), got ${exchange.answer.status}`, exchange);
  const shownValues = valuesOf(exchange.answer.body);
  expectThat(same(shownValues, expected), `expected ${what}: ${shown(expected)}, got ${shown(shownValues ?? exchange.answer.body)}`, exchange);
}

/**
 * Sets values the rule knows (url, active, and events when the subscription has a list) with one
 * PATCH of all of them, and checks that the answer shows them: every later reading is compared
 * with values the run wrote, never with a reading it has not proven.
 * @returns the values set (events the first read's `null` when it had no list) and the answer
 */
export async function setKnown(
  context: VerifyContext,
  wanted: { url: string; active: boolean; events: readonly string[] },
): Promise<{ values: SubscriptionValues; exchange: Exchange }> {
  const found = await givenSubscription(context);
  const events = found.events === null ? null : wanted.events;
  const values: SubscriptionValues = { url: wanted.url, active: wanted.active, events };
  const exchange = await patchSubscription(context, { url: wanted.url, active: wanted.active, ...(events !== null && { events }) });
  expectValues(exchange, values, "the values just set");
  return { values, exchange };
}

/** What became of the given subscription. */
export interface RestoreOutcome {
  readonly subscription: string;
  /**
   * True only when a read-back (`PATCH {}`) answered the `url`, `events` and `active` the first
   * read found, or when no request reached the subscription at all.
   */
  readonly ok: boolean;
  readonly detail: string;
  /** What the last read-back answered, when it answered all three values (what the subscription holds now, as far as verify saw). */
  readonly readBack?: SubscriptionValues;
}

/**
 * The most requests a restore sends: a read-back, the write of the values found, a read-back, and
 * one more write and read-back when an answer was lost.
 */
export const RESTORE_REQUESTS = 5;

/**
 * Puts the subscription back to what the first read found, and shows it. Whatever the rules did
 * (a write whose answer was lost may have been applied), it reads the subscription back with
 * `PATCH {}`; when anything differs it writes `url`, `active` and (when it was a list) `events`
 * with one PATCH and reads back again. It is restored only when a read-back shows it: a
 * read-back is `PATCH {}` on the values the first read was made on, so a deployment that keeps
 * them now kept them then. A lost answer (network error, timeout, reset) is followed by another
 * read-back, and a write whose answer was lost by another write, within {@link RESTORE_REQUESTS}.
 * A subscription whose events read `null` cannot be shown once written: no request can set a
 * list and put `null` back, so a deployment whose `PATCH {}` resets `events` to `null` looks the same.
 * @param send - sends one request (outside the rules' budget, never interrupted)
 * @param subscription - the subscription's ID
 * @param found - the first read's values
 */
export async function restoreSubscription(
  send: (json: unknown) => Promise<Exchange>,
  subscription: string,
  found: SubscriptionValues,
): Promise<RestoreOutcome> {
  let requests = 0;
  let lost: Error | undefined;
  let readBack: SubscriptionValues | undefined;
  /** What the last write's answer showed (`undefined`: none written, or its answer was lost). */
  let written: Exchange | undefined;
  let wrote = false;
  const attempt = async (json: unknown): Promise<Exchange | undefined> => {
    requests += 1;
    try {
      const exchange = await send(json);
      lost = undefined;
      return exchange;
    } catch (error) {
      lost = error as Error;
      return undefined;
    }
  };
  const outcome = (ok: boolean, detail: string): RestoreOutcome => ({
    subscription,
    ok,
    detail: ok ? detail : `${detail}; put it back by hand to ${shown(found)}`,
    ...(readBack && { readBack }),
  });
  const answered = (exchange: Exchange) => `${exchange.answer.status} ${shown(valuesOf(exchange.answer.body) ?? exchange.answer.body)}`;
  while (requests < RESTORE_REQUESTS) {
    const read = await attempt({});
    if (read === undefined) continue;
    const values = read.answer.status < 300 ? valuesOf(read.answer.body) : undefined;
    readBack = values;
    if (same(values, found)) {
      if (!wrote) return outcome(true, "read back with PATCH {}: it holds the url, events and active the first read found");
      if (found.events === null)
        return outcome(
          false,
          "url and active restored, but its events read null (every kind) at the first read: no request can set null, so verify cannot show that the first read (PATCH {}) did not reset a list",
        );
      return outcome(true, "restored to its url, events and active (shown by the answers)");
    }
    if (values === undefined) return outcome(false, `reading it back with PATCH {} answered ${answered(read)}`);
    if (written !== undefined)
      return outcome(
        false,
        same(valuesOf(written.answer.body), found)
          ? `restored, but PATCH {} then answered ${answered(read)} (request ${read.answer.headers.get(REQUEST_ID_HEADER)}): PATCH {} changes it, so the first read may not have shown what it held`
          : `restoring answered ${answered(written)}, and PATCH {} then ${answered(read)}`,
      );
    if (requests >= RESTORE_REQUESTS) break;
    wrote = true;
    written = await attempt({ url: found.url, active: found.active, ...(found.events !== null && { events: found.events }) });
    if (written !== undefined && written.answer.status >= 300) return outcome(false, `restoring answered ${answered(written)}`);
  }
  return outcome(
    false,
    `no read-back showed it restored in ${RESTORE_REQUESTS} requests (last: ${lost === undefined ? `PATCH {} answered ${shown(readBack)}` : `restoring failed (${lost.message})`})`,
  );
}
