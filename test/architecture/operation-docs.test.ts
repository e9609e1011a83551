/**
 * A row's prose (`src/operations.ts`: what the OpenAPI document and the CLI banner say) is the same
 * text as the documentation of the function made from it (what the SDK's users read): the first
 * paragraph, the rest of the summary section, `@param input` and `@returns`, and each path
 * parameter's description as its input field's. Either written alone fails here.
 * @module
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { OperationProse } from "../../src/operation-row.js";
import { OPERATION_TABLE } from "../../src/operation-table.js";

/** The file of the operation table. */
const OPERATIONS_FILE = fileURLToPath(new URL("../../src/operations.ts", import.meta.url));

/** A JSDoc comment's text: `{@link Name}` as `Name`, lines as written. */
function textOf(comment: string | ts.NodeArray<ts.JSDocComment> | undefined): string {
  if (comment === undefined) return "";
  if (typeof comment === "string") return comment;
  return comment
    .map((part) => (ts.isJSDocLink(part) || ts.isJSDocLinkCode(part) || ts.isJSDocLinkPlain(part) ? `\`${part.name?.getText() ?? ""}\`` : part.text))
    .join("");
}

/** Paragraphs, each on one line. */
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, " ").trim())
    .filter((paragraph) => paragraph !== "");

/** A tag's text as a sentence: `- the page` becomes `The page.` */
function sentence(text: string): string {
  const plain = text
    .replace(/^\s*-\s*/, "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
  return plain === "" ? "" : `${plain[0]!.toUpperCase()}${plain.slice(1)}${/[.!?]$/.test(plain) ? "" : "."}`;
}

/** The documentation of each member of each interface of the file, by interface and member. */
function interfaceDocs(file: ts.SourceFile): Map<string, Record<string, string>> {
  const found = new Map<string, Record<string, string>>();
  for (const statement of file.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    const members: Record<string, string> = {};
    for (const member of statement.members) {
      const doc = ts.getJSDocCommentsAndTags(member).find(ts.isJSDoc);
      if (member.name !== undefined && doc !== undefined) members[member.name.getText(file)] = paragraphs(textOf(doc.comment)).join(" ");
    }
    found.set(statement.name.text, members);
  }
  return found;
}

/** What the TSDoc of a function of the table says: its prose, and its input fields' descriptions. */
type WrittenDocs = OperationProse & { readonly fields: Readonly<Record<string, string>> };

/**
 * Each operation function's documentation, by name: the first paragraph, the rest of the summary
 * section, `@param input`, `@returns`, and its input fields' own.
 * @param path - the file of the operation table
 * @throws {Error} for an operation function without documentation
 */
function readOperationDocs(path: string = OPERATIONS_FILE): Record<string, WrittenDocs> {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true);
  const interfaces = interfaceDocs(file);
  const docs: Record<string, WrittenDocs> = {};
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const call = declaration.initializer;
      if (call === undefined || !ts.isCallExpression(call) || call.expression.getText(file) !== "operation") continue;
      const name = declaration.name.getText(file);
      const doc = ts.getJSDocCommentsAndTags(declaration).find(ts.isJSDoc);
      if (doc === undefined) throw new Error(`${path}: ${name} has no documentation`);
      const [summary = "", ...rest] = paragraphs(textOf(doc.comment));
      const tag = (predicate: (tag: ts.JSDocTag) => boolean) => sentence(textOf(doc.tags?.find(predicate)?.comment));
      const input = tag((candidate) => ts.isJSDocParameterTag(candidate) && candidate.name.getText(file) === "input");
      const result = tag((candidate) => candidate.tagName.text === "returns");
      const inputType = call.typeArguments?.[0]?.getText(file) ?? "";
      docs[name] = {
        summary: summary.replace(/\.$/, ""),
        ...(rest.length > 0 && { description: rest.join("\n\n") }),
        input,
        result,
        fields: interfaces.get(inputType) ?? {},
      };
    }
  }
  return docs;
}

describe("a row's prose is its function's documentation", () => {
  const written = readOperationDocs();

  it("every function of the table is documented, and only those", () => {
    expect(Object.keys(written).sort()).toEqual(OPERATION_TABLE.map((row) => row.name).sort());
  });

  it.each(OPERATION_TABLE.map((row) => [row.name, row] as const))("%s: the summary, the description, the input and the result", (name, row) => {
    const { fields: _fields, ...prose } = written[name]!;
    expect(row.docs).toEqual(prose);
  });

  it.each(OPERATION_TABLE.map((row) => [row.name, row] as const))("%s: each path parameter's description is its input field's", (name, row) => {
    expect(Object.fromEntries(row.params.map((param) => [param.key, param.description]))).toEqual(
      Object.fromEntries(row.params.map((param) => [param.key, written[name]!.fields[param.key]])),
    );
  });

  it("the check sees a summary written in one place only", () => {
    const source = readFileSync(OPERATIONS_FILE, "utf8").replace("Get a page with its published version.", "Read a page.");
    const changed = join(mkdtempSync(join(tmpdir(), "operation-docs-")), "operations.ts");
    writeFileSync(changed, source);
    expect(readOperationDocs(changed)["getPage"]?.summary).toBe("Read a page");
  });
});
