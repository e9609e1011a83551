/**
 * `GET /__mock`: the index of what the mock serves besides the API, read from the route table
 * that answered it: the control routes, the OpenAPI documents, and the console where one is
 * served (the standalone server), each with its method, path and summary. No key: it shows only
 * what the public documents already describe, so a client (or a person with curl) can start here.
 * @module
 */
import * as z from "zod/mini";
import { VERSION } from "../../src/version.js";
import type { Route } from "../pipeline/route.js";
import type { ControlRoute } from "./route.js";

/** One route in the index. */
const IndexedRoute = z.object({
  method: z.string(),
  path: z.string(),
  summary: z.string(),
  /** True when the route takes no API key. */
  public: z.boolean(),
});

/** What `GET /__mock` answers. */
export const ControlIndexSchema = z.object({
  name: z.literal("prospectkit-mock"),
  version: z.string(),
  /** How to call the routes that are not public. */
  auth: z.string(),
  /** The OpenAPI documents: the API's and the control API's. */
  documents: z.array(IndexedRoute),
  /** The console's page and live feed (empty where no console is served: `api.fetch`, MSW). */
  console: z.array(IndexedRoute),
  /** Every control route, this one included. */
  control: z.array(IndexedRoute),
});

/** The routes of one area of the table that say what they do, as the index lists them. */
const listed = (routes: readonly Route[], area: Route["area"]) =>
  routes
    .filter((route) => route.area === area && route.summary !== undefined)
    .map(({ method, path, summary, public: open }) => ({ method, path, summary: summary!, public: open === true }));

/** The index route, an entry of the control API's table. */
export const INDEX_ROUTE: ControlRoute = {
  method: "GET",
  path: "/__mock",
  operationId: "getControlIndex",
  summary: "What the mock serves here: the control routes, the OpenAPI documents and the console, each with its method, path and summary (no key)",
  description:
    "The index of the control API, where to start: the two OpenAPI documents, the console's page and live feed (on the standalone server only), and every control route, this one included, each as its method, path, summary and whether it needs a key. Public: it shows only what the public documents describe.",
  public: true,
  response: ControlIndexSchema,
  run: ({ routes }) => ({
    name: "prospectkit-mock",
    version: VERSION,
    auth: "Send your API key in the x-api-key header, as to the API; a route marked public takes none.",
    documents: listed(routes, "document"),
    console: listed(routes, "console"),
    control: listed(routes, "control"),
  }),
};
