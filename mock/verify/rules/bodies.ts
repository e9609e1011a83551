/**
 * Contract rules of request bodies, for every operation that takes one (docs/behaviour.md,
 * "Errors"): the media type, the content coding, the size, JSON syntax, a body that is not an
 * object, the JSON limits, and the order of those checks. A PATCH goes to the given subscription,
 * or to one no deployment holds (the body is checked before the resource): refused either way.
 * @module
 */
import { MAX_JSON_DEPTH, MAX_JSON_LIMIT_ISSUES } from "../../../src/schemas/json-limits.js";
import { expectAccepted, expectEqual, expectFieldErrors, expectProblem } from "../expect.js";
import { BODY_SAMPLES, OPEN_SAMPLE, RESOURCE_WRITE_SAMPLE, WRITE_SAMPLE } from "../operations/index.js";
import type { ContractRule, Exchange, SendOptions, VerifyContext } from "../rule.js";
import { oversizedBody, type Sample } from "./samples.js";

/** The write every run can send, and the one whose open field takes the JSON limits. */
const [create, open] = [WRITE_SAMPLE, OPEN_SAMPLE];
const send = (context: VerifyContext, sample: Sample, options: SendOptions): Promise<Exchange> =>
  context.send(sample.route.method, sample.path(context), options);

/** A 400 `invalid_request` without field errors: the body is not JSON at all. */
function expectNotJson(exchange: Exchange): void {
  expectProblem(exchange, 400, "invalid_request");
  expectEqual(exchange.answer.body.errors, undefined, "no field errors", exchange);
}

/** The open sample's body with `value` (JSON text) in its open field: a field at the body's top level. */
function withOpen(value: string): string {
  const text = JSON.stringify({ ...open.body, [open.openField!.slice(1)]: 0 });
  return text.replace(`${JSON.stringify(open.openField!.slice(1))}:0`, `${JSON.stringify(open.openField!.slice(1))}:${value}`);
}

/** The open field's value nested `levels` deep counted from the body (the body is level 1, the field level 2). */
function nested(levels: number): string {
  return withOpen(`${'{"a":'.repeat(levels - 2)}{}${"}".repeat(levels - 2)}`);
}

/** The rules. */
export const bodyRules: readonly ContractRule[] = [
  {
    id: "body.media-type",
    operation: null,
    class: "mock decision",
    title: "a POST or PATCH body without Content-Type, or as text/plain or a form, is 415 unsupported_media_type",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      for (const sample of BODY_SAMPLES) {
        const raw = JSON.stringify(sample.body);
        for (const contentType of [null, "text/plain", "application/x-www-form-urlencoded"])
          expectProblem(await send(context, sample, { raw, contentType }), 415, "unsupported_media_type");
      }
    },
  },
  {
    id: "body.json-media-types",
    operation: null,
    class: "mock decision",
    title: "a JSON body is application/json or a +json type (application/vnd.prospectkit+json), in any case, with any parameters: each is accepted",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      const raw = JSON.stringify(create.body);
      for (const contentType of ["application/json; charset=utf-8", "Application/JSON", "application/vnd.prospectkit+json"])
        expectAccepted(await send(context, create, { raw, contentType }), create.route.success);
    },
  },
  {
    id: "body.content-encoding",
    operation: null,
    class: "mock decision",
    title: "a body with a Content-Encoding other than identity (gzip) is 415 unsupported_media_type",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      for (const sample of BODY_SAMPLES)
        expectProblem(await send(context, sample, { json: sample.body, headers: { "content-encoding": "gzip" } }), 415, "unsupported_media_type");
    },
  },
  {
    id: "body.too-large",
    operation: null,
    class: "mock decision",
    title: "a body over 1 MiB is 413 payload_too_large; exactly 1 MiB is read (here a 400 for its unknown padding field)",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      for (const sample of BODY_SAMPLES) expectProblem(await send(context, sample, { raw: oversizedBody(1) }), 413, "payload_too_large");
      expectFieldErrors(await send(context, create, { raw: oversizedBody(0, create.body) }), [["/prospectkit_verify_padding", "unknown_field"]]);
    },
  },
  {
    id: "body.malformed",
    operation: null,
    class: "mock decision",
    title: "a body that is not JSON (empty, unfinished, not UTF-8) is 400 invalid_request without field errors",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      for (const raw of ["", '{"source":', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])])
        expectNotJson(await send(context, create, { raw }));
      for (const sample of BODY_SAMPLES.filter((entry) => entry !== create)) expectNotJson(await send(context, sample, { raw: "{" }));
    },
  },
  {
    id: "body.not-object",
    operation: null,
    class: "mock decision",
    title: 'a JSON body that is not an object ([], null, a string) is 400 with one field error at the pointer "" (invalid_type)',
    source: "docs/behaviour.md, Errors",
    async run(context) {
      for (const sample of BODY_SAMPLES)
        for (const raw of ["[]", "null", '"prospectkit-verify"']) expectFieldErrors(await send(context, sample, { raw }), [["", "invalid_type"]]);
    },
  },
  {
    id: "body.json-limits",
    operation: null,
    class: "mock decision",
    title: `a number that overflows (1e400) is 400 not_finite at its pointer; nesting past ${MAX_JSON_DEPTH} levels is 400 too_deep at the first pointer past it; at most ${MAX_JSON_LIMIT_ISSUES} such errors are listed`,
    source: "docs/behaviour.md, Errors",
    async run(context) {
      expectFieldErrors(await send(context, open, { raw: withOpen('{"n":1e400}') }), [[`${open.openField}/n`, "not_finite"]]);
      const deepest = `${open.openField}${"/a".repeat(MAX_JSON_DEPTH - 2)}`;
      expectAccepted(await send(context, open, { raw: nested(MAX_JSON_DEPTH) }), open.route.success);
      expectFieldErrors(await send(context, open, { raw: nested(MAX_JSON_DEPTH + 1) }), [[`${deepest}/a`, "too_deep"]]);
      for (const sample of BODY_SAMPLES.filter((entry) => entry !== open))
        expectFieldErrors(await send(context, sample, { raw: '{"n":-1e400}' }), [["/n", "not_finite"]]);
      // At most 100 such errors are listed.
      const many = await send(context, open, { raw: withOpen(`{"n":[${Array(101).fill("1e400").join(",")}]}`) });
      expectProblem(many, 400, "invalid_request");
      expectEqual(many.answer.body.errors?.length, MAX_JSON_LIMIT_ISSUES, "the number of errors listed", many);
    },
  },
  {
    id: "errors.check-order",
    operation: null,
    class: "mock decision",
    title:
      "the checks run in a fixed order: media type (415) before JSON syntax (400), the body (400) before the resource (404) and before idempotency (422)",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      expectProblem(await send(context, create, { raw: "{", contentType: "text/plain" }), 415, "unsupported_media_type");
      const resource = RESOURCE_WRITE_SAMPLE;
      const unknownField = { ...resource.body, prospectkit_verify_unknown: true };
      expectFieldErrors(await context.send(resource.route.method, resource.missingPath(context), { json: unknownField }), [
        ["/prospectkit_verify_unknown", "unknown_field"],
      ]);
      const idempotencyKey = context.idempotencyKey();
      expectAccepted(await send(context, create, { json: { ...create.body, idempotencyKey } }), create.route.success);
      expectFieldErrors(await send(context, create, { json: { ...create.body, idempotencyKey, prospectkit_verify_unknown: true } }), [
        ["/prospectkit_verify_unknown", "unknown_field"],
      ]);
    },
  },
];
