/**
 * Layers point one way (CONTRIBUTING.md, "Architecture"): each file of src/ and mock/ belongs to
 * one layer of the table below, bottom first, and imports only from its own layer or those below
 * (type-only imports included). A file in no layer fails too, so a new folder is placed on purpose.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readImportGraph } from "../support/import-graph.js";

/** The layers, bottom first: each a list of folders and files (relative to the repository). */
const LAYERS: readonly (readonly [name: string, members: readonly string[]])[] = [
  ["the SDK: the spec's schemas, the operation table, headers, webhooks", ["src"]],
  ["utilities: clock, seeded randomness, IDs, canonical JSON, hash, errors", ["mock/lib"]],
  ["the contract check: the black-box rules, their HTTP harness, reports, the exchange check", ["mock/verify"]],
  ["state and the webhook engine", ["mock/state", "mock/webhooks"]],
  ["what the mock keeps beside its state: the faults armed, the request log, the change feed", ["mock/faults", "mock/observe"]],
  ["the request pipeline: the one handler, its steps, the router, requests and replies", ["mock/pipeline"]],
  ["the route table: the API's operations, the control API, the documents", ["mock/mock-api.ts", "mock/operations", "mock/control", "mock/openapi"]],
  ["createMockApi", ["mock/options.ts", "mock/runtime.ts", "mock/create-mock-api.ts"]],
  [
    "entries and adapters: MSW, the browser, the console, the Node server, the test matchers",
    ["mock/core.ts", "mock/index.ts", "mock/vitest.ts", "mock/msw", "mock/browser", "mock/console", "mock/server", "mock/testing"],
  ],
];

const ROOT = join(import.meta.dirname, "..", "..");
const graph = readImportGraph(ROOT, ["src", "mock"]);

/** The index of the layer a file belongs to, or -1. */
function layerIndex(file: string): number {
  const path = file.split(/[\\/]/).join("/");
  return LAYERS.findIndex(([, members]) => members.some((member) => path === member || path.startsWith(`${member}/`)));
}

/** Every import that points up the table, as `from -> to`. */
function upwardImports(edges: ReadonlyMap<string, readonly string[]>): string[] {
  return [...edges].flatMap(([file, targets]) =>
    targets.filter((target) => layerIndex(target) > layerIndex(file)).map((target) => `${file} -> ${target}`),
  );
}

describe("the layers of src/ and mock/", () => {
  it("the check sees an upward import when there is one (the analyser works)", () => {
    expect(upwardImports(new Map([[join("mock", "state", "store.ts"), [join("mock", "pipeline", "handler.ts")]]]))).toHaveLength(1);
    expect(upwardImports(new Map([[join("mock", "server", "start.ts"), [join("mock", "lib", "clock.ts")]]]))).toEqual([]);
    expect(graph.size).toBeGreaterThan(100);
  });

  it("every file belongs to a layer", () => {
    expect([...graph.keys()].filter((file) => layerIndex(file) === -1)).toEqual([]);
  });

  it("every import points down the table or stays within its layer", () => {
    expect(upwardImports(graph)).toEqual([]);
  });
});
