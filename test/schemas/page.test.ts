import { describe, expect, expectTypeOf, it } from "vitest";
import { Page } from "../../src/schemas/index.js";
import { fieldErrors } from "./support/field-errors.js";

const page = {
  pageId: "page_01",
  pageGroupId: "pagegroup_01",
  tenantId: "tenant_01",
  createdAt: "2024-02-29T12:00:00.000Z",
  effectiveName: "Pricing",
  customName: null,
  computedName: "Pricing",
  supplementaryContext: null,
  publishedVersion: { versionId: "pageversion_01", versionNumber: 3, publishedAt: "2024-03-01T00:00:00.000Z" },
};

describe("spec 2.3: the page", () => {
  it("accepts a page with null customName and supplementaryContext", () => {
    expect(fieldErrors(Page, page)).toEqual([]);
  });

  it("accepts string customName and supplementaryContext", () => {
    expect(fieldErrors(Page, { ...page, customName: "Our prices", supplementaryContext: "B2B" })).toEqual([]);
  });

  it("publishedVersion inner fields are nullable: all three null is an unpublished page", () => {
    expect(fieldErrors(Page, { ...page, publishedVersion: { versionId: null, versionNumber: null, publishedAt: null } })).toEqual([]);
  });

  // The spec leaves the inner fields' required-ness open; BEHAVIOUR has them always present, so
  // the types say `T | null` and strict validation holds a server to it.
  it.each(["versionId", "versionNumber", "publishedAt"])("publishedVersion.%s is required (null when unpublished, never absent)", (field) => {
    const { [field as keyof typeof page.publishedVersion]: _, ...rest } = page.publishedVersion;
    expect(fieldErrors(Page, { ...page, publishedVersion: rest })).toEqual([
      expect.objectContaining({ pointer: `/publishedVersion/${field}`, code: "required" }),
    ]);
  });

  it.each([
    ["pageId", undefined, "required"],
    ["pageGroupId", 7, "invalid_type"],
    ["tenantId", undefined, "required"],
    ["createdAt", "yesterday", "invalid_format"],
    ["effectiveName", null, "invalid_type"],
    ["customName", undefined, "required"],
    ["computedName", null, "invalid_type"],
    ["supplementaryContext", undefined, "required"],
    ["publishedVersion", null, "invalid_type"],
    ["publishedVersion", undefined, "required"],
  ])("%s is required with its type (%j gives %s)", (field, value, code) => {
    expect(fieldErrors(Page, { ...page, [field]: value })).toEqual([expect.objectContaining({ pointer: `/${field}`, code })]);
  });

  it.each([
    ["versionNumber", 1.5],
    ["versionNumber", "3"],
    ["versionId", 3],
    ["publishedAt", 0],
  ])("publishedVersion.%s must have its type (%j rejected)", (field, value) => {
    expect(fieldErrors(Page, { ...page, publishedVersion: { ...page.publishedVersion, [field]: value } })).toEqual([
      expect.objectContaining({ pointer: `/publishedVersion/${field}` }),
    ]);
  });

  it("is forward-compatible: unknown fields are kept at both levels", () => {
    const parsed = Page.parse({ ...page, locale: "de", publishedVersion: { ...page.publishedVersion, channel: "web" } });
    expect(parsed).toMatchObject({ locale: "de", publishedVersion: { channel: "web" } });
  });

  it("types: customName and supplementaryContext are string | null", () => {
    expectTypeOf<Page["customName"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Page["supplementaryContext"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Page["publishedVersion"]["versionNumber"]>().toEqualTypeOf<number | null>();
  });
});
