/**
 * The client without operations: the configuration and the transport, with the API key held out
 * of sight. Every operation (a standalone function or a client's method) runs with the settings
 * of the client it is given.
 * @module
 */
import { type ClientOptions, resolveSettings, type Settings } from "./options.js";

/**
 * A configured connection to the API without operations: pass it to the standalone operation
 * functions ({@link createProspectLog}, {@link getPage}, {@link updateWebhookSubscription}) so
 * that a bundle carries only the operations it uses. The API key is held out of sight: it is
 * not a property, so logging the client never shows it.
 */
export interface BaseClient {
  /** The API's host root the client calls (without `/v0`). */
  readonly baseUrl: string;
}

const settingsOf = /* @__PURE__ */ new WeakMap<BaseClient, Settings>();

/**
 * The settings of a client (`undefined` for an object that is no client).
 * @internal
 */
export function clientSettings(client: BaseClient): Settings | undefined {
  return settingsOf.get(client);
}

/**
 * Creates a {@link BaseClient}: the configuration and transport, without operations.
 * @param options - as for {@link createClient}
 * @returns the base client
 * @throws {ConfigurationError} as {@link createClient}
 * @example
 * ```ts
 * import { createBaseClient, getPage } from "prospectkit";
 *
 * const client = createBaseClient({ apiKey: process.env.PROSPECTKIT_API_KEY, baseUrl: "https://api.example.com" });
 * const page = await getPage(client, { pageGroupId: "pagegroup_1", pageId: "page_1" });
 * ```
 */
export function createBaseClient(options: ClientOptions = {}): BaseClient {
  const settings = resolveSettings(options);
  const client = { baseUrl: settings.baseUrl };
  settingsOf.set(client, settings);
  return client;
}
