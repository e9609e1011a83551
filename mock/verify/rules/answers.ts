/**
 * Contract rules about every answer of the run (docs/behaviour.md "Errors", "Identifiers and
 * timestamps", "Authentication and tenancy"): problem bodies, request IDs, no 5xx, the timestamp
 * form, no key echoed. They run last and read every exchange the run made, after a few requests
 * of their own (so each also holds when run alone).
 * @module
 */
import { REQUEST_ID_HEADER } from "../../../src/headers.js";
import { isExactTimestamp, problemViolations } from "../expect.js";
import { READ_SAMPLE, WRITE_SAMPLE } from "../operations/index.js";
import { type ContractRule, type Exchange, expectThat, type SendOptions, type VerifyContext } from "../rule.js";

/** The write every run can send (a POST with a body: operations/index.ts), with its valid body and these fields added. */
const write = (context: VerifyContext, fields: Readonly<Record<string, unknown>>, options: SendOptions = {}) =>
  context.send(WRITE_SAMPLE.route.method, WRITE_SAMPLE.path(context), { ...options, json: { ...WRITE_SAMPLE.body, ...fields } });

/**
 * A few requests every deployment refuses, of different kinds (a field problem, an unknown key, a
 * missing resource, a media type), so that the rule has answers to read when it runs alone. Whether each
 * is refused is other rules' business: this rule reads what came back.
 */
async function someRefusals(context: VerifyContext): Promise<void> {
  await write(context, { prospectkit_verify_unknown: true });
  await write(context, {}, { key: "unknown" });
  await context.send(READ_SAMPLE.route.method, READ_SAMPLE.missingPath(context));
  await context.send(WRITE_SAMPLE.route.method, WRITE_SAMPLE.path(context), { raw: "x", contentType: "text/plain" });
}

/** The timestamps of a success body (spec 2.2, 2.3, 2.4), by name. */
function timestampsOf(body: unknown): [string, unknown][] {
  if (typeof body !== "object" || body === null) return [];
  const record = body as Record<string, unknown>;
  const found: [string, unknown][] = [];
  for (const name of ["createdAt", "updatedAt"]) if (name in record) found.push([name, record[name]]);
  const published = record.publishedVersion as Record<string, unknown> | undefined;
  if (typeof published === "object" && published !== null && published.publishedAt !== null)
    found.push(["publishedVersion.publishedAt", published.publishedAt]);
  return found;
}

/** The first exchange that breaks `check` (a message), if any. */
function firstBreaking(exchanges: readonly Exchange[], check: (exchange: Exchange) => string | undefined): void {
  for (const exchange of exchanges) {
    const broken = check(exchange);
    expectThat(broken === undefined, broken!, exchange);
  }
}

/** The rules. */
export const answerRules: readonly ContractRule[] = [
  {
    id: "errors.problem-body",
    operation: null,
    class: "mock decision",
    title:
      "every error answer of the run is an RFC 9457 problem as decided: application/problem+json with type (the code's URN), title, status, detail, code, requestId and, for field problems, errors",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      await someRefusals(context);
      firstBreaking(
        context.exchanges().filter((exchange) => exchange.answer.status >= 400 && exchange.request.method !== "HEAD"),
        (exchange) => {
          const found = problemViolations(exchange);
          return found.length === 0 ? undefined : `expected an RFC 9457 problem body: ${found.join("; ")}`;
        },
      );
    },
  },
  {
    id: "errors.request-id",
    operation: null,
    class: "mock decision",
    title: "every answer of the run carries x-request-id: req_ and a lower-case ULID, a new one for each request",
    source: "docs/behaviour.md, Errors; Identifiers and timestamps",
    async run(context) {
      await write(context, {});
      await someRefusals(context);
      const seen = new Set<string>();
      firstBreaking(context.exchanges(), (exchange) => {
        const id = exchange.answer.headers.get(REQUEST_ID_HEADER);
        if (id === null || !/^req_[0-9a-z]{26}$/.test(id))
          return `expected ${REQUEST_ID_HEADER} req_ and 26 lower-case letters or digits, got ${id ?? "none"}`;
        if (seen.has(id)) return `expected a new ${REQUEST_ID_HEADER} for each request, got ${id} again`;
        seen.add(id);
        return undefined;
      });
    },
  },
  {
    id: "errors.never-5xx",
    operation: null,
    class: "mock decision",
    title: "bad input of any kind gets a 4xx: no answer of the run is a 5xx",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      await someRefusals(context);
      // A hostile body: a lone surrogate, a prototype key in the payload, an unknown field named constructor.
      const raw = '{"source":"\\ud800","payload":{"__proto__":{"polluted":1}},"constructor":{"prototype":{"polluted":1}}}';
      await context.send(WRITE_SAMPLE.route.method, WRITE_SAMPLE.path(context), { raw });
      firstBreaking(context.exchanges(), (exchange) =>
        exchange.answer.status >= 500 ? `expected no 5xx, got ${exchange.answer.status}` : undefined,
      );
    },
  },
  {
    id: "timestamps.exact-form",
    operation: null,
    class: "mock decision",
    title: "every timestamp of the run's answers (createdAt, updatedAt, publishedAt) is YYYY-MM-DDTHH:mm:ss.sssZ: UTC, milliseconds, a real date",
    source: "docs/behaviour.md, Identifiers and timestamps",
    async run(context) {
      await write(context, {});
      firstBreaking(
        context.exchanges().filter((exchange) => exchange.answer.status >= 200 && exchange.answer.status < 300),
        (exchange) => {
          const wrong = timestampsOf(exchange.answer.body).find(([, value]) => !isExactTimestamp(value));
          return wrong === undefined ? undefined : `expected ${wrong[0]} as YYYY-MM-DDTHH:mm:ss.sssZ, got ${JSON.stringify(wrong[1])}`;
        },
      );
    },
  },
  {
    id: "secrets.key-never-echoed",
    operation: null,
    class: "mock decision",
    title: "no answer carries an API key it was sent (an error detail, a body, a header)",
    source: "docs/behaviour.md, Authentication and tenancy",
    async run(context) {
      await someRefusals(context);
      const echoes = context.keyEchoes();
      expectThat(echoes.length === 0, `${echoes.length} answer(s) carried the API key sent (shown here as [redacted])`, echoes[0]);
    },
  },
];
