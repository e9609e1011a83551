/**
 * The prose of each operation of the table, as its row's documentation in `src/operations.ts`
 * states it (the one place it is written): read from that file when the mock is built
 * (`tsup.config.ts`) or tested (`vitest.config.ts`) by `mock/server/read-operation-docs.ts`, and given to this
 * module as `__PROSPECTKIT_OPERATION_DOCS__`. The OpenAPI document and the CLI banner read it.
 * @module
 */

/** What the OpenAPI document and the banner say about an operation, from its row's documentation. */
export interface OperationDocs {
  /** The first paragraph, without its final period: "Get a page with its published version". */
  readonly summary: string;
  /** The rest of the summary section (before the first block tag), as Markdown. */
  readonly description?: string;
  /** `@param input`, as a sentence: the request body's description. */
  readonly input?: string;
  /** `@returns`, as a sentence: the success response's description. */
  readonly result?: string;
  /** Each input field's own documentation, by field (what a path parameter's description is). */
  readonly fields: Readonly<Record<string, string>>;
  /** The names the row's request and result schemas are written (and exported) under: the document's components. */
  readonly schemas: { readonly request?: string; readonly result?: string };
}

declare const __PROSPECTKIT_OPERATION_DOCS__: Readonly<Record<string, OperationDocs>> | undefined;

/** Each operation's prose, by name (none for an operation the table's file does not hold, such as a test's own). */
export const OPERATION_DOCS: Readonly<Record<string, OperationDocs>> =
  typeof __PROSPECTKIT_OPERATION_DOCS__ === "undefined" ? {} : __PROSPECTKIT_OPERATION_DOCS__;
