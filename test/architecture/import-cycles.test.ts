/**
 * Layers point one way: no import cycle between files, nor between folders, of src/ and mock/
 * (type-only imports included). A folder is one below the package root (`mock/state`,
 * `mock/server` with its `cli/`); a file directly in `src/` or `mock/` is a node of its own. A new
 * cycle fails here with its members named.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cyclesOf, folderGraph, layerOf, readImportGraph } from "../support/import-graph.js";

const ROOT = join(import.meta.dirname, "..", "..");
const graph = readImportGraph(ROOT, ["src", "mock"]);

describe("the import graph of src/ and mock/", () => {
  it("reads every file and finds the imports (the analyser works)", () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get(join("mock", "index.ts"))).toContain(join("mock", "core.ts"));
    expect(
      cyclesOf(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", ["a"]],
          ["d", ["a"]],
        ]),
      ),
    ).toEqual([["a", "b", "c"]]);
    expect(cyclesOf(new Map([["a", ["a"]]]))).toEqual([["a"]]);
    expect(
      cyclesOf(
        new Map([
          ["a", ["b"]],
          ["b", []],
        ]),
      ),
    ).toEqual([]);
    expect([layerOf("mock/server/cli/run.ts"), layerOf("mock/faults.ts")]).toEqual(["mock/server", "mock/faults.ts"]);
  });

  it("has no cycle between files", () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it("has no cycle between folders (and root files)", () => {
    expect(cyclesOf(folderGraph(graph))).toEqual([]);
  });
});
