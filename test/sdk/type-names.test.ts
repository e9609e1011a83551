/**
 * What a developer reads: every operation's result and input shows its name (`APIPromise<ProspectLog>`,
 * `Page`, `WebhookSubscription`, `ProspectLogCreate`), and every method of the mock's `api.state` its
record type (`PageRecord`, `ProspectRecord`, ...), in editor hovers, in the `.d.ts` that
 * `tsc --declaration` writes for their own code, and in compile errors, never an expansion such as
 * `KnownFields<{ [x: string]: unknown; ... }>`. A user file is compiled with the TypeScript compiler
 * API against the built package (`import "prospectkit"` resolves to dist/ by self-reference, as it
 * would from node_modules), with the strictest options users turn on.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const USER_FILE = resolve(ROOT, "test/sdk/__user-code__.ts");

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  declaration: true,
  emitDeclarationOnly: true,
  removeComments: true,
  skipLibCheck: true,
  types: [],
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
};

/** The user's code: markers `/*name*\/` sit right before the identifiers whose hover is read. */
const USER_CODE = `
import { createClient, NotFoundError, RateLimitError, type ProspectLogCreate } from "prospectkit";
import { createMockApi } from "prospectkit/mock/core";

const client = createClient({ apiKey: "sk_test", baseUrl: "http://127.0.0.1:4010" });
export const body = { source: "crm", payload: {} } satisfies ProspectLogCreate;
export const /*created*/created = client./*createProspectLog*/createProspectLog(body);
export const /*page*/page = await client.getPage({ pageGroupId: "g", pageId: "p" });
export const /*version*/version = page.publishedVersion.versionNumber;
export const updated = client./*updateWebhookSubscription*/updateWebhookSubscription({ subscriptionId: "s", active: false });
export const subscription = await updated;
export function create(/*input*/input: Parameters<typeof client.createProspectLog>[0]) {
  return client.createProspectLog(input);
}
export type PageResult = Awaited<ReturnType<typeof client.getPage>>;
const api = createMockApi();
export const /*logged*/logged = api.requests.list();
export const /*lastLogged*/lastLogged = api.requests.last();
export const /*pageRecord*/pageRecord = api.state.pages./*pagesCreate*/create({ customName: "Pricing" });
export const /*subscriptionRecord*/subscriptionRecord = api.state.webhookSubscriptions./*subscriptionsCreate*/create({ url: "https://example.com/hook" });
export const /*logRecords*/logRecords = api.state.prospectLogs./*logsList*/list();
export const /*prospectRecord*/prospectRecord = api.state.prospects./*findByIdentifier*/findByIdentifier({ email: "ada@example.com" });
export const /*versionRecord*/versionRecord = api.state.pageVersions.create({ pageId: pageRecord.id });
export const /*groups*/groups = api.state.pageGroups.list();
export const state = api.state;
export function statusOf(error: unknown) {
  if (NotFoundError.is(error)) return error./*notFound*/status;
  if (RateLimitError.is(error)) return error.status;
  return undefined;
}
`;

/** Lines that must not compile: each error names the type it is about. */
const WRONG_CODE = `
import { createClient } from "prospectkit";
const client = createClient({ apiKey: "sk_test", baseUrl: "http://127.0.0.1:4010" });
export const a: number = await client.createProspectLog({ source: "crm", payload: {} });
export const b: number = await client.getPage({ pageGroupId: "g", pageId: "p" });
export const c: number = await client.updateWebhookSubscription({ subscriptionId: "s" });
export const d: number = (await client.getPage({ pageGroupId: "g", pageId: "p" })).publishedVersion;
export const e = client.createProspectLog(42);
`;

/** The named types equal their schemas also where `prop?: T` and `prop?: T | undefined` differ. */
const SOURCE_OF_TRUTH_CODE = `
import type * as z from "zod/mini";
import { Page, ProspectLog, ProspectLogCreate, PublishedVersion, WebhookEvent, WebhookSubscription, WebhookSubscriptionUpdate } from "prospectkit";
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type KnownFields<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
type PageOutput = KnownFields<z.output<typeof Page>>;
export const checks: [
  Equal<ProspectLogCreate, z.input<typeof ProspectLogCreate>>,
  Equal<WebhookSubscriptionUpdate, z.input<typeof WebhookSubscriptionUpdate>>,
  Equal<ProspectLog, KnownFields<z.output<typeof ProspectLog>>>,
  Equal<WebhookSubscription, KnownFields<z.output<typeof WebhookSubscription>>>,
  Equal<WebhookEvent, KnownFields<z.output<typeof WebhookEvent>>>,
  Equal<PublishedVersion, KnownFields<z.output<typeof PublishedVersion>>>,
  Equal<Omit<Page, "publishedVersion">, Omit<PageOutput, "publishedVersion">>,
] = [true, true, true, true, true, true, true];
`;

function languageService(code: string) {
  let emitted = "";
  const files = new Map([[USER_FILE, code]]);
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => OPTIONS,
    getScriptFileNames: () => [USER_FILE],
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => {
      const text = files.get(name) ?? ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => ROOT,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (name) => files.has(name) || ts.sys.fileExists(name),
    readFile: (name) => files.get(name) ?? ts.sys.readFile(name),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  const service = ts.createLanguageService(host);
  const program = service.getProgram()!;
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  program.emit(undefined, (name, text) => {
    if (name.endsWith(".d.ts")) emitted = text;
  });
  const hover = (marker: string) => {
    const at = code.indexOf(`/*${marker}*/`) + marker.length + 4;
    const info = service.getQuickInfoAtPosition(USER_FILE, at);
    return ts.displayPartsToString(info?.displayParts);
  };
  /** What each method of \`api.state\` returns, as the user's editor names it: \`{ "pages.create": "PageRecord", ... }\`. */
  const stateResults = () => {
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(USER_FILE)!;
    let state: ts.Type | undefined;
    source.forEachChild(function visit(node) {
      if (ts.isVariableDeclaration(node) && node.name.getText(source) === "state") state = checker.getTypeAtLocation(node.name);
      node.forEachChild(visit);
    });
    const results: Record<string, string> = {};
    for (const area of state!.getProperties()) {
      const areaType = checker.getTypeOfSymbol(area);
      for (const method of areaType.getProperties()) {
        for (const signature of checker.getTypeOfSymbol(method).getCallSignatures())
          results[`${area.name}.${method.name}`] = checker.typeToString(signature.getReturnType(), undefined, ts.TypeFormatFlags.NoTruncation);
      }
    }
    return results;
  };
  return { diagnostics, declarations: emitted, hover, stateResults };
}

describe("the names users read", () => {
  let user: ReturnType<typeof languageService>;
  beforeAll(() => {
    if (!existsSync(resolve(ROOT, "dist/index.d.ts"))) throw new TypeError("dist/ is missing: run `npm run build` first (npm test does)");
    user = languageService(USER_CODE);
  });

  it("the user's code compiles under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess", () => {
    expect(user.diagnostics).toEqual([]);
  });

  it.each([
    // A client's methods are derived from the operation table's rows (a mapped type): an editor shows each as a property of function type.
    ["createProspectLog", "(property) createProspectLog: (input: ProspectLogCreate, options?: RequestOptions) => APIPromise<ProspectLog>"],
    [
      "updateWebhookSubscription",
      "(property) updateWebhookSubscription: (input: UpdateWebhookSubscriptionParams, options?: RequestOptions) => APIPromise<WebhookSubscription>",
    ],
    ["created", "const created: APIPromise<ProspectLog>"],
    ["page", "const page: Page"],
    ["version", "const version: number | null"],
    ["input", "(parameter) input: ProspectLogCreate"],
    ["notFound", "(property) NotFoundError.status: 404"],
    ["logged", "const logged: LoggedRequest[]"],
    ["lastLogged", "const lastLogged: LoggedRequest | undefined"],
    ["pageRecord", "const pageRecord: PageRecord"],
    ["pagesCreate", "(method) PagesApi.create(input?: PageInput): PageRecord"],
    ["subscriptionRecord", "const subscriptionRecord: WebhookSubscriptionRecord"],
    ["subscriptionsCreate", "(method) WebhookSubscriptionsApi.create(input: SubscriptionInput): WebhookSubscriptionRecord"],
    ["logRecords", "const logRecords: ProspectLogRecord[]"],
    ["prospectRecord", "const prospectRecord: ProspectRecord | undefined"],
    ["findByIdentifier", "(method) ProspectsApi.findByIdentifier(query: IdentifierInput): ProspectRecord | undefined"],
    ["versionRecord", "const versionRecord: PageVersionRecord"],
    ["groups", "const groups: PageGroupRecord[]"],
  ])("hover over %s shows the names", (marker, text) => {
    expect(user.hover(marker)).toBe(text);
  });

  it("every method of api.state returns a named record type, never an object literal", () => {
    const results = user.stateResults();
    expect(Object.keys(results).length).toBeGreaterThanOrEqual(25);
    expect(Object.entries(results).filter(([, type]) => type.includes("{"))).toEqual([]);
  });

  it("tsc --declaration writes the names into the user's own .d.ts", () => {
    const lines = user.declarations.split("\n").map((line) => line.trim());
    expect(lines).toEqual(
      expect.arrayContaining([
        'export declare const created: import("prospectkit").APIPromise<import("prospectkit").ProspectLog>;',
        'export declare const page: import("prospectkit").Page;',
        "export declare const version: number | null;",
        'export declare const updated: import("prospectkit").APIPromise<import("prospectkit").WebhookSubscription>;',
        'export declare const subscription: import("prospectkit").WebhookSubscription;',
        'export declare function create(input: Parameters<typeof client.createProspectLog>[0]): import("prospectkit").APIPromise<import("prospectkit").ProspectLog>;',
        "export declare function statusOf(error: unknown): 404 | 429 | undefined;",
        'export declare const logged: import("prospectkit/mock/core").LoggedRequest[];',
        'export declare const pageRecord: import("prospectkit/mock/core").PageRecord;',
        'export declare const prospectRecord: import("prospectkit/mock/core").ProspectRecord | undefined;',
      ]),
    );
    expect(user.declarations).not.toMatch(/KnownFields|\[x: string\]: unknown|Omit</);
  });

  it("the named types equal their schemas under exactOptionalPropertyTypes too", () => {
    expect(languageService(SOURCE_OF_TRUTH_CODE).diagnostics).toEqual([]);
  });

  it("compile errors name the types", () => {
    const { diagnostics } = languageService(WRONG_CODE);
    expect(diagnostics).toEqual([
      "Type 'ProspectLog' is not assignable to type 'number'.",
      "Type 'Page' is not assignable to type 'number'.",
      "Type 'WebhookSubscription' is not assignable to type 'number'.",
      "Type 'PublishedVersion' is not assignable to type 'number'.",
      "Argument of type 'number' is not assignable to parameter of type 'ProspectLogCreate'.",
    ]);
  });
});
