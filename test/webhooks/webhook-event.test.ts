import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_KINDS, WebhookEvent } from "../../src/schemas/index.js";
import { fieldErrors } from "../schemas/support/field-errors.js";
import { EVENT } from "./support/reference-signature.js";

describe("WebhookEvent: the envelope { id, type, createdAt, data } of every delivery", () => {
  it.each(WEBHOOK_EVENT_KINDS.map((kind) => [kind]))("accepts an event of kind %s", (kind) => {
    expect(fieldErrors(WebhookEvent, { ...EVENT, type: kind })).toEqual([]);
  });

  it.each([
    ["an unknown event kind (added after this SDK)", { type: "page.deleted" }],
    ["an extra field", { attempt: 3 }],
    ["empty data", { data: {} }],
  ])("accepts %s", (_rule, change) => {
    expect(fieldErrors(WebhookEvent, { ...EVENT, ...change })).toEqual([]);
  });

  it.each([
    ["a missing id", { id: undefined }, "/id", "required"],
    ["an empty id", { id: "" }, "/id", "too_short"],
    ["a non-string type", { type: 7 }, "/type", "invalid_type"],
    ["a createdAt without Z", { createdAt: "2024-02-29T12:00:00" }, "/createdAt", "invalid_format"],
    ["a calendar-invalid createdAt", { createdAt: "2023-02-29T12:00:00Z" }, "/createdAt", "invalid_format"],
    ["data that is an array", { data: [] }, "/data", "invalid"],
    ["data that is null", { data: null }, "/data", "invalid"],
  ])("rejects %s", (_rule, change, pointer, code) => {
    expect(fieldErrors(WebhookEvent, { ...EVENT, ...change })).toEqual([expect.objectContaining({ pointer, code })]);
  });
});
