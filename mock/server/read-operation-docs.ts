/**
 * Reads each operation's prose from its row's documentation in `src/operations.ts`, for the build
 * (`tsup.config.ts`) and for tests run from source (`vitest.config.ts`), which hand it to
 * `operation-docs.ts`. Build tooling only: no entry imports this file.
 * @module
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import type { OperationDocs } from "../openapi/operation-docs.js";

/** The file of the operation table. */
export const OPERATIONS_FILE = fileURLToPath(new URL("../../src/operations.ts", import.meta.url));

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

/** The identifier a row's property is written as (`result: Page`, `request: json(ProspectLogCreate)`). */
function schemaName(row: ts.ObjectLiteralExpression, property: string): string | undefined {
  const assignment = row.properties.find((candidate) => ts.isPropertyAssignment(candidate) && candidate.name.getText() === property) as
    | ts.PropertyAssignment
    | undefined;
  let value = assignment?.initializer;
  if (value !== undefined && ts.isCallExpression(value)) value = value.arguments[0];
  return value !== undefined && ts.isIdentifier(value) ? value.text : undefined;
}

/**
 * Each operation's prose, by name: its row's documentation (the first paragraph, the rest of the
 * summary section, `@param input`, `@returns`), its input fields' own and its schemas' names.
 * @param path - the file of the operation table
 * @returns the prose, by operation name
 * @throws {Error} for an operation without documentation or without a name
 */
export function readOperationDocs(path: string = OPERATIONS_FILE): Record<string, OperationDocs> {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true);
  const interfaces = interfaceDocs(file);
  const docs: Record<string, OperationDocs> = {};
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const call = declaration.initializer;
      if (call === undefined || !ts.isCallExpression(call) || call.expression.getText(file) !== "operation") continue;
      const row = call.arguments[0];
      if (row === undefined || !ts.isObjectLiteralExpression(row)) continue;
      const name = row.properties
        .filter(ts.isPropertyAssignment)
        .find((property) => property.name.getText(file) === "name")
        ?.initializer.getText(file)
        .slice(1, -1);
      const doc = ts.getJSDocCommentsAndTags(declaration).find(ts.isJSDoc);
      if (name === undefined || doc === undefined) throw new Error(`${path}: ${declaration.name.getText(file)} has no name or no documentation`);
      const [summary = "", ...rest] = paragraphs(textOf(doc.comment));
      const tag = (predicate: (tag: ts.JSDocTag) => boolean) => sentence(textOf(doc.tags?.find(predicate)?.comment));
      const input = tag((candidate) => ts.isJSDocParameterTag(candidate) && candidate.name.getText(file) === "input");
      const result = tag((candidate) => candidate.tagName.text === "returns");
      const inputType = call.typeArguments?.[0]?.getText(file) ?? "";
      const [request, resultSchema] = [schemaName(row, "request"), schemaName(row, "result")];
      docs[name] = {
        summary: summary.replace(/\.$/, ""),
        ...(rest.length > 0 && { description: rest.join("\n\n") }),
        ...(input !== "" && { input }),
        ...(result !== "" && { result }),
        fields: interfaces.get(inputType) ?? {},
        schemas: { ...(request !== undefined && { request }), ...(resultSchema !== undefined && { result: resultSchema }) },
      };
    }
  }
  return docs;
}
