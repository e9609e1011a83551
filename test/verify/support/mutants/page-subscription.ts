/** Mutants of the get-page rules and of the subscription update rules (its semantics and its values). */
import { WEBHOOK_EVENT_KINDS } from "../../../../src/schemas/events.js";
import type { Handle } from "../deployment-server.js";
import {
  bodyOf,
  changed,
  INPUTS,
  KEYS,
  type Mutant,
  onAnswer,
  onRequest,
  onUpdateBody,
  operationOf,
  PATHS,
  pathOf,
  problem,
  withJson,
} from "../mutation.js";

const isPage = (request: Request, response: Response) => operationOf(request) === "page" && response.status === 200;
const isUpdated = (request: Request, response: Response) => operationOf(request) === "update" && response.status === 200;
const isEmpty = (body: unknown) => typeof body === "object" && body !== null && Object.keys(body).length === 0;

/** The request for another page path. */
const toPath = (request: Request, path: string) => new Request(new URL(path, request.url), request);

/** A 404 problem with another code (its type follows). */
const recoded = (code: string) => (body: any) => ({ ...body, code, type: `urn:prospectkit:problem:${code}` });

/** Another tenant's resource is 403 forbidden instead of 404. */
const forbiddenForOthers =
  (operation: "page" | "update"): (() => Handle) =>
  () =>
  async (request, next) => {
    const response = await next(request);
    if (operationOf(request) !== operation || response.status !== 404 || request.headers.get("x-api-key") !== KEYS.b) return response;
    return changed(response, { status: 403, body: (body) => ({ ...recoded("forbidden")(body), status: 403, title: "Forbidden" }) });
  };

/** Only the request's own url, events and active (without unknown fields). */
const known = (body: any) => Object.fromEntries(Object.entries(body).filter(([field]) => ["url", "events", "active"].includes(field)));

export const PAGE_SUBSCRIPTION_MUTANTS: readonly Mutant[] = [
  {
    name: "a page has no tenantId",
    rule: "page.result",
    make: onAnswer(isPage, (response) => changed(response, { body: ({ tenantId: _, ...body }) => body })),
  },
  {
    name: "effectiveName is always the computed name",
    rule: "page.effective-name",
    make: onAnswer(isPage, (response) => changed(response, { body: (body) => ({ ...body, effectiveName: body.computedName }) })),
  },
  {
    name: "versionNumber counts from 0",
    rule: "page.published-version",
    make: onAnswer(isPage, (response) =>
      changed(response, {
        body: (body) => ({ ...body, publishedVersion: { ...body.publishedVersion, versionNumber: body.publishedVersion.versionNumber - 1 } }),
      }),
    ),
  },
  {
    name: "an unknown page is 404 page_not_found",
    rule: "page.missing",
    make: onAnswer(
      (request, response) => operationOf(request) === "page" && response.status === 404,
      (response) => changed(response, { body: recoded("page_not_found") }),
    ),
  },
  {
    name: "a page is found under any group",
    rule: "page.other-group",
    make: onRequest(
      (request) => operationOf(request) === "page" && pathOf(request).endsWith(`/pages/${INPUTS.page.pageId}`),
      (request) => toPath(request, `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/${INPUTS.page.pageId}`),
    ),
  },
  {
    name: "page IDs are compared without regard to case",
    rule: "page.ids-exact",
    make: onRequest(
      (request) => operationOf(request) === "page",
      (request) => toPath(request, pathOf(request).toLowerCase()),
    ),
  },
  {
    name: "another tenant's page is 403",
    rule: "page.other-tenant",
    make: forbiddenForOthers("page"),
  },
  {
    name: "a PATCH answers 201 (from the first read on)",
    rule: "subscription.result",
    make: onAnswer(isUpdated, (response) => changed(response, { status: 201 })),
  },
  {
    name: "an update's answer has no updatedAt",
    rule: "subscription.result",
    make: onAnswer(isUpdated, (response) => changed(response, { body: ({ updatedAt: _, ...body }) => body })),
  },
  {
    name: "{} activates the subscription",
    rule: "subscription.noop",
    make: onUpdateBody((body) => (isEmpty(body) ? { active: true } : undefined)),
  },
  {
    name: "a PATCH that omits active sets it true",
    rule: "subscription.partial",
    make: onUpdateBody((body) => (!isEmpty(body) && body.active === undefined ? { ...body, active: true } : undefined)),
  },
  {
    name: "a PATCH that omits url puts back the url the subscription was made with",
    rule: "subscription.partial",
    make: onUpdateBody((body) => (!isEmpty(body) && body.url === undefined ? { ...body, url: "https://hooks.example.com/original" } : undefined)),
  },
  {
    name: "updatedAt moves on every write, changed or not",
    rule: "subscription.updated-at",
    make: onAnswer(isUpdated, async (response, request) =>
      isEmpty(await bodyOf(request)) ? response : changed(response, { body: (body) => ({ ...body, updatedAt: new Date().toISOString() }) }),
    ),
  },
  {
    name: "updatedAt never moves",
    rule: "subscription.updated-at",
    make: onAnswer(isUpdated, (response) => changed(response, { body: (body) => ({ ...body, updatedAt: body.createdAt }) })),
  },
  {
    name: "a refused update still applies its valid active",
    rule: "subscription.refused-changes-nothing",
    make: () => async (request, next) => {
      const response = await next(request.clone());
      const body = operationOf(request) === "update" ? await bodyOf(request) : undefined;
      if (response.status === 400 && typeof body?.active === "boolean") await next(withJson(request, { active: body.active }));
      return response;
    },
  },
  {
    name: "unknown fields in a PATCH are ignored",
    rule: "subscription.unknown-fields",
    make: onUpdateBody((body) => (typeof body === "object" && body !== null && !Array.isArray(body) ? known(body) : undefined)),
  },
  {
    name: "the signing secret is in the subscription",
    rule: "subscription.no-secret",
    make: onAnswer(isUpdated, (response) => changed(response, { body: (body) => ({ ...body, secret: "whsec_cHJvc3BlY3RraXQ=" }) })),
  },
  {
    name: "an unknown subscription is 404 subscription_not_found",
    rule: "subscription.missing",
    make: onAnswer(
      (request, response) => operationOf(request) === "update" && response.status === 404,
      (response) => changed(response, { body: recoded("subscription_not_found") }),
    ),
  },
  {
    name: "another tenant's subscription is 403",
    rule: "subscription.other-tenant",
    make: forbiddenForOthers("update"),
  },
  {
    name: "a url is normalized (lower-case scheme and host, default port and dot segments dropped)",
    rule: "subscription.url-exact",
    make: onUpdateBody((body) => (typeof body.url === "string" && URL.canParse(body.url) ? { ...body, url: new URL(body.url).href } : undefined)),
  },
  {
    name: "a url is trimmed",
    rule: "subscription.url-invalid",
    make: onUpdateBody((body) => (typeof body.url === "string" && body.url.trim() !== body.url ? { ...body, url: body.url.trim() } : undefined)),
  },
  {
    name: "a url with a user name is accepted (the user name dropped)",
    rule: "subscription.url-invalid",
    make: onUpdateBody((body) =>
      typeof body.url === "string" && body.url.includes("@") ? { ...body, url: body.url.replace(/\/\/[^/@]*@/, "//") } : undefined,
    ),
  },
  {
    name: "a url past 2048 characters is accepted (cut)",
    rule: "subscription.url-invalid",
    make: onUpdateBody((body) => (typeof body.url === "string" && body.url.length > 2048 ? { ...body, url: body.url.slice(0, 2048) } : undefined)),
  },
  {
    name: "a url that is not a string is ignored",
    rule: "subscription.url-type",
    make: onUpdateBody((body) => (body.url !== undefined && typeof body.url !== "string" ? (({ url: _, ...rest }) => rest)(body) : undefined)),
  },
  {
    name: 'active "true" is read as true',
    rule: "subscription.active-type",
    make: onUpdateBody((body) => (typeof body.active === "string" ? { ...body, active: body.active === "true" } : undefined)),
  },
  {
    name: "unknown event kinds are dropped (form.submitted when none is left)",
    rule: "subscription.events-closed-list",
    make: onUpdateBody((body) => {
      if (!Array.isArray(body.events)) return undefined;
      const kinds = body.events.filter((kind: string) => (WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind));
      return kinds.length === body.events.length ? undefined : { ...body, events: kinds.length > 0 ? kinds : ["form.submitted"] };
    }),
  },
  {
    name: "form.enrichment_failed is refused",
    rule: "subscription.events-members",
    make: () => async (request, next) =>
      operationOf(request) === "update" && JSON.stringify((await bodyOf(request))?.events ?? []).includes("form.enrichment_failed")
        ? problem("invalid_request", "events/5 must be one of the kinds.")
        : next(request),
  },
  {
    name: "events: [] is accepted (stored as [])",
    rule: "subscription.events-empty",
    make: () => async (request, next) => {
      const body = operationOf(request) === "update" ? await bodyOf(request) : undefined;
      if (!Array.isArray(body?.events) || body.events.length > 0) return next(request);
      const { events: _, ...rest } = body;
      return changed(await next(withJson(request, rest)), { body: (answer) => ({ ...answer, events: [] }) });
    },
  },
  {
    name: "events: null is accepted (every kind)",
    rule: "subscription.events-null",
    make: onUpdateBody((body) => (body.events === null ? (({ events: _, ...rest }) => rest)(body) : undefined)),
  },
  {
    name: "duplicate event kinds are kept",
    rule: "subscription.events-deduplicated",
    make: () => async (request, next) => {
      const body = operationOf(request) === "update" ? await bodyOf(request) : undefined;
      const response = await next(request);
      return response.status === 200 && Array.isArray(body?.events)
        ? changed(response, { body: (answer) => ({ ...answer, events: body.events }) })
        : response;
    },
  },
  {
    name: "{} resets events to null (every kind), from the first read on",
    refuses: "restored",
    make: () => {
      let nulled = false;
      return async (request, next) => {
        if (operationOf(request) !== "update" || !PATHS.subscription.test(pathOf(request)) || request.headers.get("x-api-key") !== KEYS.a)
          return next(request);
        const body = await bodyOf(request);
        const response = await next(request);
        if (response.status !== 200) return response;
        if (isEmpty(body)) nulled = true;
        else if (body?.events !== undefined) nulled = false;
        return nulled ? changed(response, { body: (answer) => ({ ...answer, events: null }) }) : response;
      };
    },
  },
];
