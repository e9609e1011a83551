import { describe, expect, it } from "vitest";
import { DateTime, HttpUrl, ProspectId, ProspectLogId } from "../../src/schemas/index.js";
import { str, ULID26 } from "./support/field-errors.js";

describe("spec 2.2: createdAt is ISO 8601 in UTC with Z, optional fraction, calendar-valid", () => {
  it.each([
    ["a leap day in a year divisible by 4", "2024-02-29T10:00:00Z"],
    ["a leap day in a year divisible by 400", "2000-02-29T00:00:00Z"],
    ["millisecond fractional seconds", "2024-01-01T00:00:00.123Z"],
    ["one digit of fractional seconds", "2024-01-01T00:00:00.1Z"],
    ["nanosecond fractional seconds", "2024-01-01T00:00:00.123456789Z"],
    ["the last second of a year", "2023-12-31T23:59:59Z"],
    ["the 31st of a 31-day month", "2023-01-31T00:00:00Z"],
  ])("accepts %s (%s)", (_rule, value) => {
    expect(DateTime.safeParse(value).success).toBe(true);
  });

  it.each([
    ["a leap day in a common year", "2023-02-29T00:00:00Z"],
    ["a leap day in a century year not divisible by 400", "1900-02-29T00:00:00Z"],
    ["the 31st of a 30-day month", "2023-04-31T00:00:00Z"],
    ["month 13", "2023-13-01T00:00:00Z"],
    ["month 00", "2023-00-10T00:00:00Z"],
    ["day 00", "2023-01-00T00:00:00Z"],
    ["hour 24", "2023-01-01T24:00:00Z"],
    ["minute 60", "2023-01-01T00:60:00Z"],
    ["an offset other than Z", "2023-01-01T00:00:00+01:00"],
    ["a +00:00 offset instead of Z", "2023-01-01T00:00:00+00:00"],
    ["no zone designator at all", "2023-01-01T00:00:00"],
    ["a lower-case z", "2023-01-01T00:00:00z"],
    ["a date without a time", "2023-01-01"],
    ["a space instead of T", "2023-01-01 00:00:00Z"],
    ["the empty string", ""],
  ])("rejects %s (%s)", (_rule, value) => {
    expect(DateTime.safeParse(value).success).toBe(false);
  });
});

describe("spec 2.1 and 8: prospectId is prospect_ and 26 lower-case letters or digits", () => {
  it.each([
    ["26 lower-case characters", `prospect_${ULID26}`],
    ["26 digits", `prospect_${str(26, "7")}`],
  ])("accepts %s", (_rule, value) => {
    expect(ProspectId.safeParse(value).success).toBe(true);
  });

  it.each([
    ["the empty string (minimum length 1)", ""],
    ["25 characters", `prospect_${ULID26.slice(1)}`],
    ["27 characters", `prospect_${ULID26}a`],
    ["upper-case characters", `prospect_${ULID26.toUpperCase()}`],
    ["the wrong prefix", `prospects_${ULID26}`],
    ["the prospect-log prefix", `prospectlog_${ULID26}`],
    ["no prefix", ULID26],
    ["a character outside [a-z0-9]", `prospect_${ULID26.slice(1)}-`],
    ["a trailing newline", `prospect_${ULID26}\n`],
  ])("rejects %s", (_rule, value) => {
    expect(ProspectId.safeParse(value).success).toBe(false);
  });
});

describe("spec 2.2: prospectLogId is prospectlog_ and 26 lower-case letters or digits", () => {
  it("accepts 26 lower-case characters", () => {
    expect(ProspectLogId.safeParse(`prospectlog_${ULID26}`).success).toBe(true);
  });
  it.each([
    ["25 characters", `prospectlog_${ULID26.slice(1)}`],
    ["27 characters", `prospectlog_${ULID26}0`],
    ["upper-case characters", `prospectlog_${ULID26.toUpperCase()}`],
    ["the prospect prefix", `prospect_${ULID26}`],
  ])("rejects %s", (_rule, value) => {
    expect(ProspectLogId.safeParse(value).success).toBe(false);
  });
});

describe("spec 4.3 and BEHAVIOUR: a webhook url is an absolute http(s) URL of at most 2048 characters", () => {
  const prefix = "https://example.com/";
  it.each([
    ["https", "https://hooks.example.com/prospects"],
    ["http", "http://localhost:8080/hook"],
    ["a query and fragment", "https://example.com/h?x=1#y"],
    ["exactly 2048 characters", prefix + str(2048 - prefix.length)],
  ])("accepts %s", (_rule, value) => {
    expect(HttpUrl.safeParse(value).success).toBe(true);
  });
  it.each([
    ["a javascript: URL", "javascript:alert(1)"],
    ["an ftp: URL", "ftp://files.example.com/x"],
    ["a data: URL", "data:text/plain,hi"],
    ["a relative URL", "/hooks"],
    ["a URL without a host", "https://"],
    ["2049 characters", prefix + str(2049 - prefix.length)],
    ["the empty string", ""],
  ])("rejects %s", (_rule, value) => {
    expect(HttpUrl.safeParse(value).success).toBe(false);
  });
});
