/** Mutants of the create rules: its result, field rules and bounds, which prospect an entry lands on, idempotency. */
import { bodyOf, changed, KEYS, type Mutant, onAnswer, onCreateBody, operationOf, problem, withJson } from "../mutation.js";

const isCreated = (request: Request, response: Response) => operationOf(request) === "create" && response.status === 201;

/** A handler over creates that remembers what it saw (its own memory per run). */
function remembering<T>(handle: (body: any, memory: Map<string, T>, request: Request) => unknown): () => import("../deployment-server.js").Handle {
  return () => {
    const memory = new Map<string, T>();
    return onCreateBody((body, request) => handle(body, memory, request))();
  };
}

/** The ULID alphabet backwards: IDs mapped through it sort in the reverse order. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const reversed = (id: string) => id.replace(/[0-9a-z]{26}$/, (ulid) => Array.from(ulid, (char) => ALPHABET[31 - ALPHABET.indexOf(char)]).join(""));

export const CREATE_MUTANTS: readonly Mutant[] = [
  {
    name: "a create answers 200",
    rule: "create.result",
    make: onAnswer(isCreated, (response) => changed(response, { status: 200 })),
  },
  {
    name: "createdProspect is missing from the result",
    rule: "create.result",
    make: onAnswer(isCreated, (response) => changed(response, { body: ({ createdProspect: _, ...body }) => body })),
  },
  {
    name: "an omitted type is stored as event",
    rule: "create.type-default",
    make: onCreateBody((body) => (body.type === undefined ? { ...body, type: "event" } : undefined)),
  },
  {
    name: "payload is optional",
    rule: "create.required",
    make: onCreateBody((body) => (body.payload === undefined ? { ...body, payload: {} } : undefined)),
  },
  {
    name: "a payload with a __proto__ key is refused",
    rule: "create.payload-free",
    make: () => async (request, next) =>
      operationOf(request) === "create" && (await request.clone().text()).includes('"__proto__"')
        ? problem("invalid_request", "payload must not have the key __proto__.")
        : next(request),
  },
  {
    name: "a number is taken for a string",
    rule: "create.field-types",
    make: onCreateBody((body) => (typeof body.source === "number" ? { ...body, source: String(body.source) } : undefined)),
  },
  {
    name: "only the first failing field is reported",
    rule: "create.field-errors",
    make: onAnswer(
      (request, response) => operationOf(request) === "create" && response.status === 400,
      (response) => changed(response, { body: (body) => ({ ...body, ...(body.errors && { errors: body.errors.slice(0, 1) }) }) }),
    ),
  },
  {
    name: "a refused entry still creates its prospect",
    rule: "create.refused-changes-nothing",
    make: () => async (request, next) => {
      const response = await next(request.clone());
      const body = operationOf(request) === "create" && response.status === 400 ? await bodyOf(request) : undefined;
      if (typeof body?.prospectId === "string")
        await next(withJson(request, { source: "prospectkit-verify", payload: {}, prospectId: body.prospectId }));
      return response;
    },
  },
  {
    name: "prospectLogIds do not sort by time",
    rule: "create.ids",
    make: onAnswer(isCreated, (response) => changed(response, { body: (body) => ({ ...body, prospectLogId: reversed(body.prospectLogId) }) })),
  },
  {
    name: "createdProspect is always true",
    rule: "create.created-prospect",
    make: onAnswer(isCreated, (response) => changed(response, { body: (body) => ({ ...body, createdProspect: true }) })),
  },
  {
    name: "a 101-character source is accepted (cut to 100)",
    rule: "create.bounds.source",
    make: onCreateBody((body) => (body.source?.length === 101 ? { ...body, source: body.source.slice(0, 100) } : undefined)),
  },
  {
    name: "a 100-character source is refused (limit 99)",
    rule: "create.bounds.source",
    make: onCreateBody((body) => (body.source?.length === 100 ? { ...body, source: "" } : undefined)),
  },
  {
    name: "an empty type is taken as omitted",
    rule: "create.bounds.type",
    make: onCreateBody((body) => (body.type === "" ? { ...body, type: "webhook" } : undefined)),
  },
  {
    name: "a 256-character idempotencyKey is accepted (cut to 255)",
    rule: "create.bounds.idempotencyKey",
    make: onCreateBody((body) => (body.idempotencyKey?.length === 256 ? { ...body, idempotencyKey: body.idempotencyKey.slice(0, 255) } : undefined)),
  },
  {
    name: "a 255-character name is refused (limit 254)",
    rule: "create.bounds.name",
    make: onCreateBody((body) => (body.name?.length === 255 ? { ...body, name: "" } : undefined)),
  },
  {
    name: "a prospectId of 27 characters after the prefix is accepted (cut to 26)",
    rule: "create.bounds.prospectId",
    make: onCreateBody((body) => (body.prospectId?.length === 36 ? { ...body, prospectId: body.prospectId.slice(0, 35) } : undefined)),
  },
  {
    name: "an empty linkedinProfileUrl is taken as none",
    rule: "create.bounds.linkedinProfileUrl",
    make: onCreateBody((body) => (body.linkedinProfileUrl === "" ? (({ linkedinProfileUrl: _, ...rest }) => rest)(body) : undefined)),
  },
  {
    name: "a phone number of 16 digits is accepted (cut to 15)",
    rule: "create.bounds.phoneNumber",
    make: onCreateBody((body) => (/^\+\d{16}$/.test(body.phoneNumber ?? "") ? { ...body, phoneNumber: body.phoneNumber.slice(0, 16) } : undefined)),
  },
  {
    name: "an email the grammar refuses is ignored",
    rule: "create.email-format",
    make: onCreateBody((body) => (typeof body.email === "string" && body.email.includes("..") ? (({ email: _, ...rest }) => rest)(body) : undefined)),
  },
  {
    name: "an email is matched case-sensitively",
    rule: "create.resolution-email",
    make: remembering<string>((body, seen) => {
      if (typeof body.email !== "string") return undefined;
      if (body.prospectId !== undefined) return seen.set(body.email, body.email), undefined;
      const known = [...seen.keys()].some((email) => email !== body.email && email.toLowerCase() === body.email.toLowerCase());
      return known ? { ...body, email: `other.${crypto.randomUUID()}@example.com` } : undefined;
    }),
  },
  {
    name: "a phone number never finds a prospect",
    rule: "create.resolution-phone",
    make: onCreateBody((body) =>
      body.prospectId === undefined && body.phoneNumber !== undefined ? (({ phoneNumber: _, ...rest }) => rest)(body) : undefined,
    ),
  },
  {
    name: "a LinkedIn URL is matched only as written",
    rule: "create.resolution-linkedin",
    make: remembering<string>((body, seen) => {
      if (typeof body.linkedinProfileUrl !== "string") return undefined;
      if (body.prospectId !== undefined) return seen.set(body.linkedinProfileUrl, ""), undefined;
      return seen.has(body.linkedinProfileUrl) ? undefined : { ...body, linkedinProfileUrl: `https://linkedin.com/in/${crypto.randomUUID()}` };
    }),
  },
  {
    name: "the phone number is tried before the email",
    rule: "create.resolution-order",
    make: onCreateBody((body) =>
      body.prospectId === undefined && body.email !== undefined && body.phoneNumber !== undefined
        ? (({ email: _, ...rest }) => rest)(body)
        : undefined,
    ),
  },
  {
    name: "an email held by a prospect wins over the prospectId sent",
    rule: "create.resolution-prospect-id-first",
    make: () => {
      const holders = new Map<string, string>();
      return async (request, next) => {
        if (operationOf(request) !== "create") return next(request);
        const body = await bodyOf(request);
        const holder = body?.email === undefined ? undefined : holders.get(body.email);
        const response = await next(
          holder !== undefined && body.prospectId !== holder ? withJson(request, { ...body, prospectId: holder }) : request,
        );
        if (response.status === 201 && body?.email !== undefined && !holders.has(body.email))
          holders.set(body.email, (await response.clone().json()).prospectId);
        return response;
      };
    },
  },
  {
    name: "a prospect's email is overwritten by a later entry for it",
    rule: "create.resolution-never-overwritten",
    make: remembering<string>((body, owners) => {
      if (typeof body.email !== "string") return undefined;
      if (body.prospectId !== undefined) return owners.set(body.email, body.prospectId), undefined;
      const owner = owners.get(body.email);
      return owner === undefined ? undefined : { ...body, prospectId: owner };
    }),
  },
  {
    name: "a prospect never gains a phone number it lacks",
    rule: "create.resolution-gains-identifiers",
    make: onCreateBody((body) =>
      body.prospectId !== undefined && body.email === undefined && body.phoneNumber !== undefined
        ? (({ phoneNumber: _, ...rest }) => rest)(body)
        : undefined,
    ),
  },
  {
    name: "prospects are shared by every tenant",
    rule: "create.resolution-tenant-scope",
    make: () => {
      const made = new Set<string>();
      return async (request, next) => {
        const response = await next(request.clone());
        if (!isCreated(request, response)) return response;
        const { prospectId } = await response.clone().json();
        if (request.headers.get("x-api-key") === KEYS.a) made.add(prospectId);
        else if (made.has(prospectId)) return changed(response, { body: (body) => ({ ...body, createdProspect: false }) });
        return response;
      };
    },
  },
  {
    name: "entries without an identifier share one prospect",
    rule: "create.resolution-new-prospect",
    make: () => {
      let shared: string | undefined;
      return async (request, next) => {
        if (operationOf(request) !== "create") return next(request);
        const body = await bodyOf(request);
        const anonymous =
          body !== undefined && ["prospectId", "email", "phoneNumber", "linkedinProfileUrl"].every((field) => body[field] === undefined);
        const response = await next(anonymous && shared !== undefined ? withJson(request, { ...body, prospectId: shared }) : request);
        if (anonymous && response.status === 201) shared ??= (await response.clone().json()).prospectId;
        return response;
      };
    },
  },
  {
    name: "a replay lacks idempotent-replayed",
    rule: "create.idempotent-replay",
    make: onAnswer(isCreated, (response) => changed(response, { headers: { "idempotent-replayed": null } })),
  },
  {
    name: 'type "webhook" sent and type omitted are different requests',
    rule: "create.idempotency-same-body",
    make: onCreateBody((body) =>
      body.type === "webhook" && body.idempotencyKey !== undefined ? { ...body, idempotencyKey: `${body.idempotencyKey}-typed` } : undefined,
    ),
  },
  {
    name: "a reused key with another body replays the first entry",
    rule: "create.idempotency-key-reused",
    make: remembering<unknown>((body, first) => {
      if (typeof body.idempotencyKey !== "string") return undefined;
      if (!first.has(body.idempotencyKey)) return first.set(body.idempotencyKey, body), undefined;
      return first.get(body.idempotencyKey);
    }),
  },
  {
    name: "a request refused by validation uses up its key",
    rule: "create.idempotency-refused-request",
    make: () => {
      const used = new Set<string>();
      return async (request, next) => {
        const key = operationOf(request) === "create" ? (await bodyOf(request))?.idempotencyKey : undefined;
        if (typeof key === "string" && used.has(key)) return problem("idempotency_key_reused", "This key was used for another request.");
        const response = await next(request);
        if (typeof key === "string" && response.status === 400) used.add(key);
        return response;
      };
    },
  },
  {
    name: "idempotency keys are shared by every tenant",
    rule: "create.idempotency-tenant-scope",
    make: () => {
      const owners = new Map<string, string | null>();
      return async (request, next) => {
        const key = operationOf(request) === "create" ? (await bodyOf(request))?.idempotencyKey : undefined;
        const tenant = request.headers.get("x-api-key");
        if (typeof key === "string" && owners.has(key) && owners.get(key) !== tenant && tenant === KEYS.b)
          return problem("idempotency_key_reused", "This key was used for another request.");
        if (typeof key === "string") owners.set(key, tenant);
        return next(request);
      };
    },
  },
];
