/**
 * Each operation's own contract rules and sample request, gathered from its files: the file named
 * after its row (`create-prospect-log.ts` for `createProspectLog`, in kebab case) exports its
 * `sample` (the request of the rules that hold for every operation: authentication, methods,
 * bodies, unknown routes) and its `rules`; files named after it with an aspect after a dash
 * (`create-prospect-log-bounds.ts`) add more `rules`. The list is the table's: nothing here names
 * an operation, and a row without its file (or a file named after no operation) fails at load.
 * @module
 */
import { OPERATION_TABLE, type OperationId } from "../../../src/operation-table.js";
import type { ContractRule } from "../rule.js";
import type { Sample, SampleInput } from "../rules/samples.js";

/** What an operation's own file exports. */
interface OperationFile {
  /** Its sample request (the file named after the operation only). */
  readonly sample?: SampleInput;
  /** Its rules (a helper file of the operation has none). */
  readonly rules?: readonly ContractRule[];
}

// One import per file, expanded by Vite (the tests) and by the build (scripts/import-meta-glob.ts).
// @ts-expect-error: import.meta.glob is Vite's and the build's, not the language's
const FILES: Readonly<Record<string, OperationFile>> = import.meta.glob(["./*.ts", "!./index.ts"], { eager: true });

/** An operation's name in kebab case, as its files are named. */
const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Each operation of the table with its own files, sorted (the file named after it first, then its aspects). */
const OWN_FILES: readonly (readonly [OperationId, readonly string[]])[] = /* @__PURE__ */ (() => {
  const names = Object.keys(FILES).sort();
  const owned = OPERATION_TABLE.map((row) => {
    const stem = `./${kebab(row.name)}`;
    // An aspect is named after this operation and after no operation with a longer name (`get-page-version.ts` is not `get-page`'s).
    const ownedBy = (file: string, name: string) => file === `./${kebab(name)}.ts` || file.startsWith(`./${kebab(name)}-`);
    const aspects = names.filter(
      (file) => file.startsWith(`${stem}-`) && !OPERATION_TABLE.some((other) => other.name.length > row.name.length && ownedBy(file, other.name)),
    );
    if (FILES[`${stem}.ts`]?.sample === undefined)
      throw new TypeError(`mock/verify/operations: ${row.name} has no rules file with its sample (mock/verify/operations/${stem.slice(2)}.ts)`);
    const files = [`${stem}.ts`, ...aspects];
    return [row.name, files] as const;
  });
  const unowned = names.filter((file) => !owned.some(([, files]) => files.includes(file)));
  if (unowned.length > 0) throw new TypeError(`mock/verify/operations: ${unowned.join(", ")} is named after no operation of the table`);
  return owned;
})();

/** Every operation with its sample request, in the table's order. */
export const OPERATION_SAMPLES: readonly Sample[] = /* @__PURE__ */ OWN_FILES.map(([name, [file]]) => ({
  route: OPERATION_TABLE.find((row) => row.name === name)!,
  ...FILES[file!]!.sample!,
}));

/** The sample of one operation. */
export const sampleOf = (operation: OperationId): Sample => OPERATION_SAMPLES.find((sample) => sample.route.name === operation)!;

/** The samples of the operations that take a JSON body. */
export const BODY_SAMPLES: readonly Sample[] = /* @__PURE__ */ OPERATION_SAMPLES.filter((sample) => sample.route.request !== undefined);

/** Each operation's own rules, in the table's order (the file named after it, then its aspects in name order). */
export const OPERATION_RULES: readonly ContractRule[] = /* @__PURE__ */ OWN_FILES.flatMap(([, files]) =>
  files.flatMap((file) => FILES[file]!.rules ?? []),
);
