/**
 * What the test matchers read: the requests and the armed faults of a mock (`api`), of one tenant
 * (`api.isolate()`, `api.tenant(id)`), or of the standalone server seen through one key
 * (`mockServer(url, apiKey)`). Each is read the same way, in process at once or over HTTP.
 * @module
 */
import { createRedactor } from "../../src/redact.js";
import type { FaultTarget, PendingFault } from "../faults/faults.js";
import type { LoggedRequest } from "../observe/request-log.js";

/**
 * The symbol a request source other than a mock or a tenant carries (the server client): a
 * `Symbol.for`, so the ES module and CommonJS copies of the package agree on it. Typed `symbol`
 * and set as `[REQUEST_SOURCE as never]`, so no public declaration names it (a `unique symbol`
 * there is a private type users' own declaration emit cannot name).
 */
export const REQUEST_SOURCE: symbol = Symbol.for("prospectkit.requestSource");

/** A pending fault as the matchers read it (the control API spells an unlimited one `remaining: null`). */
export type SourceFault = Omit<PendingFault, "remaining" | "operation"> & { readonly operation: FaultTarget | string; readonly remaining: number };

/** What a source hands the matchers: its requests, its faults, and how to keep its key out of a message. */
export interface SourceReader {
  /** How a failure message names it: `api`, `tenant` or `server`. */
  readonly name: string;
  /** Its requests, oldest first. */
  requests(): readonly LoggedRequest[] | Promise<readonly LoggedRequest[]>;
  /** Its armed faults. */
  faults(): readonly SourceFault[] | Promise<readonly SourceFault[]>;
  /** A message with the source's key (when it has one) replaced by `[redacted]`. */
  redact(text: string): string;
}

/**
 * Something read over HTTP (the server client): its requests come as a promise, so the matchers
 * that read it return one too. It carries its own reader under a symbol no declaration names.
 */
export interface RequestSource {
  /** The requests, oldest first, read over HTTP. */
  requests(): Promise<readonly LoggedRequest[]>;
}

const same = (text: string) => text;

const isObject = (value: unknown): value is Record<PropertyKey, unknown> =>
  (typeof value === "object" || typeof value === "function") && value !== null;

/**
 * The reader of a value given to `expect(...)`: a mock, a tenant or a server client.
 * @throws {TypeError} for anything else (the message names what is accepted)
 */
export function readerOf(received: unknown): SourceReader {
  if (isObject(received)) {
    const own = received[REQUEST_SOURCE];
    if (isObject(own) && typeof own.requests === "function") return own as unknown as SourceReader;
    const faults = received.faults as { pending?: () => PendingFault[] } | undefined;
    const requests = received.requests as { list?: () => LoggedRequest[] } | (() => LoggedRequest[]) | undefined;
    if (typeof faults?.pending === "function") {
      if (typeof requests === "function" && typeof received.tenantId === "string") {
        const key = typeof received.apiKey === "string" ? createRedactor(received.apiKey).text : same;
        return { name: "tenant", requests: () => requests.call(received), faults: () => faults.pending!(), redact: key };
      }
      if (isObject(requests) && typeof requests.list === "function") {
        return { name: "api", requests: () => requests.list!(), faults: () => faults.pending!(), redact: same };
      }
    }
  }
  throw new TypeError(
    "expect(received): received must be a mock (createMockApi()), a tenant (api.isolate(), api.tenant(id)) or a server client (mockServer(url, apiKey))",
  );
}
