/**
 * The import graph of the project's TypeScript files, read from their `import` and `export ...
 * from` statements (type-only ones included: a layer that names an upper layer's types depends on
 * it too), and the cycles in it, between files and between folders.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Each file (relative to `root`) and the project files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const STATEMENT = /^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm;

/**
 * Reads the import graph of every `.ts` file under `folders`.
 * @param root - the repository root
 * @param folders - the folders to read, relative to `root`
 */
export function readImportGraph(root: string, folders: readonly string[]): ImportGraph {
  const files = folders.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => join(folder, file)),
  );
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const targets = new Set<string>();
    for (const match of text.matchAll(STATEMENT)) {
      const specifier = match[1] ?? match[2]!;
      if (!specifier.startsWith(".")) continue;
      const target = relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, ".ts");
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * The layer a file belongs to: the folder right below its package root (`mock/state`,
 * `src/errors`), or the file itself when it sits in the root (`mock/faults.ts`, `src/request.ts`):
 * a root holds files of several layers, each its own node.
 */
export function layerOf(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.length <= 2 ? file : parts.slice(0, 2).join("/");
}

/** The graph with each file replaced by its layer (edges inside one layer dropped). */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const layers = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    const set = layers.get(from) ?? new Set<string>();
    layers.set(from, set);
    for (const target of targets) if (layerOf(target) !== from) set.add(layerOf(target));
  }
  return new Map([...layers].map(([layer, set]) => [layer, [...set].sort()]));
}

/**
 * Every cycle of the graph, one per strongly connected component of more than one node (or a
 * node importing itself), each as the sorted list of its members.
 */
export function cyclesOf(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfLoop = (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfLoop) cycles.push(component.sort());
    }
  }
  return cycles;
}
