/**
 * Types: the control API's response schemas describe exactly the records the state API returns
 * (so the OpenAPI document generated from them cannot drift), and the server's public API.
 */

import { describe, expectTypeOf, it } from "vitest";
import type { MockApi, MockApiOptions, MockState } from "../../mock/core.js";
import { type AnsweredRequest, type MockServer, type MockServerOptions, startMockServer } from "../../mock/server/index.js";

describe("the server's public API", () => {
  it("startMockServer takes the mock's options but baseUrl, and gives url, port, api and close", () => {
    expectTypeOf(startMockServer).parameter(0).toEqualTypeOf<MockServerOptions | undefined>();
    // The server's fixtures also get its URL (a subscription can point at the server's own inbox); a mock fixture still fits.
    expectTypeOf<MockServerOptions>()
      .toHaveProperty("fixtures")
      .toEqualTypeOf<((state: MockState, server: { readonly url: string }) => void) | undefined>();
    expectTypeOf<NonNullable<MockApiOptions["fixtures"]>>().toExtend<NonNullable<MockServerOptions["fixtures"]>>();
    expectTypeOf<NonNullable<MockServerOptions["webhooks"]>>().toExtend<NonNullable<MockApiOptions["webhooks"]>>();
    expectTypeOf<"baseUrl" extends keyof MockServerOptions ? true : false>().toEqualTypeOf<false>();
    expectTypeOf(startMockServer).returns.resolves.toEqualTypeOf<MockServer>();
    expectTypeOf<MockServer["api"]>().toEqualTypeOf<MockApi>();
    expectTypeOf<MockServer["close"]>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf<AnsweredRequest>().toEqualTypeOf<{
      readonly method: string;
      readonly path: string;
      readonly status: number;
      readonly durationMs: number;
      readonly console?: boolean;
      readonly violations?: readonly string[];
      readonly answeredBy?: "target" | "mock";
    }>();
  });
});
