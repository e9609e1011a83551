/**
 * One source of truth: the named types users read (`ProspectLog`, `Page`, `ProspectLogCreate`, ...)
 * are written out as interfaces so that editors and declaration files show their names, and each
 * is proven equal here to what its Zod schema parses (without the index signature a loose response
 * schema adds for forward compatibility), so the interface and the schema cannot drift. The same
 * equalities hold under `exactOptionalPropertyTypes` (test/sdk/type-names.test.ts).
 */

import { describe, expectTypeOf, it } from "vitest";
import type * as z from "zod/mini";
import type {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from "../../src/errors/index.js";
import type { UpdateWebhookSubscriptionParams } from "../../src/operations.js";
import type {
  KnownFields,
  Page,
  ProspectLog,
  ProspectLogCreate,
  ProspectLogCreateParsed,
  PublishedVersion,
  WebhookEvent,
  WebhookSubscription,
  WebhookSubscriptionUpdate,
} from "../../src/schemas/index.js";
import type { AcceptReadonly } from "../../src/schemas/types.js";

/** An intersection as one object type, as an interface that extends is. */
type Flat<T> = { [K in keyof T]: T[K] };

describe("every named type equals its schema", () => {
  it("request bodies equal the schema's input (what a caller may send)", () => {
    expectTypeOf<ProspectLogCreate>().toEqualTypeOf<z.input<typeof ProspectLogCreate>>();
    expectTypeOf<ProspectLogCreateParsed>().toEqualTypeOf<z.output<typeof ProspectLogCreate>>();
    expectTypeOf<WebhookSubscriptionUpdate>().toEqualTypeOf<z.input<typeof WebhookSubscriptionUpdate>>();
    expectTypeOf<UpdateWebhookSubscriptionParams>().toEqualTypeOf<
      Flat<AcceptReadonly<z.input<typeof WebhookSubscriptionUpdate>> & { subscriptionId: string }>
    >();
  });

  it("results equal the schema's output, field for field", () => {
    expectTypeOf<ProspectLog>().toEqualTypeOf<KnownFields<z.output<typeof ProspectLog>>>();
    expectTypeOf<WebhookSubscription>().toEqualTypeOf<KnownFields<z.output<typeof WebhookSubscription>>>();
    expectTypeOf<WebhookEvent>().toEqualTypeOf<KnownFields<z.output<typeof WebhookEvent>>>();
    expectTypeOf<PublishedVersion>().toEqualTypeOf<KnownFields<z.output<typeof PublishedVersion>>>();
    type PageOutput = KnownFields<z.output<typeof Page>>;
    expectTypeOf<Omit<Page, "publishedVersion">>().toEqualTypeOf<Omit<PageOutput, "publishedVersion">>();
    expectTypeOf<Page["publishedVersion"]>().toEqualTypeOf<KnownFields<PageOutput["publishedVersion"]>>();
  });

  it("publishedVersion's three fields are always present: T | null, never undefined", () => {
    expectTypeOf<PublishedVersion>().toEqualTypeOf<{ versionId: string | null; versionNumber: number | null; publishedAt: string | null }>();
  });
});

describe("each status error types its status as the literal", () => {
  it("so that after NotFoundError.is(e), e.status is 404", () => {
    expectTypeOf<BadRequestError["status"]>().toEqualTypeOf<400>();
    expectTypeOf<AuthenticationError["status"]>().toEqualTypeOf<401>();
    expectTypeOf<PermissionDeniedError["status"]>().toEqualTypeOf<403>();
    expectTypeOf<NotFoundError["status"]>().toEqualTypeOf<404>();
    expectTypeOf<ConflictError["status"]>().toEqualTypeOf<409>();
    expectTypeOf<UnprocessableEntityError["status"]>().toEqualTypeOf<422>();
    expectTypeOf<RateLimitError["status"]>().toEqualTypeOf<429>();
    // 500 to 599, and any other status for a plain APIError
    expectTypeOf<InternalServerError["status"]>().toEqualTypeOf<number>();
    expectTypeOf<APIError["status"]>().toEqualTypeOf<number>();
  });
});
