/**
 * `npm run bench`: runs every benchmark (`npm run bench -- server mock`: only those named; the soak
 * runs only when named: `npm run bench -- soak`), prints one Markdown table and writes it to
 * test/bench/report.md (git-ignored). Run on Node 24 directly (type stripping); benchmarks import
 * the BUILT package from dist/, which is what users get.
 */
import { writeFileSync } from "node:fs";
import { type Benchmark, type BenchRow, toMarkdown } from "./report.ts";

// Each benchmark module default-exports a Benchmark. Keep this list in the order of the issues.
const modules: string[] = [
  "./sdk.ts",
  "./mock.ts",
  "./server.ts",
  "./webhooks.ts",
  "./startup.ts",
  "./state.ts",
  "./sizes.ts",
  "./image.ts",
  "./soak.ts",
];

const only = process.argv.slice(2);
const sections: { name: string; rows: BenchRow[] }[] = [];
for (const path of modules) {
  const bench = ((await import(path)) as { default: Benchmark }).default;
  if (only.length > 0 ? !only.includes(bench.name) : bench.onlyWhenNamed === true) continue;
  process.stderr.write(`bench: ${bench.name}…\n`);
  sections.push({ name: bench.name, rows: await bench.run() });
}
const table = toMarkdown(sections);
console.log(table);
writeFileSync(new URL("./report.md", import.meta.url), `# prospectkit benchmark report\n\n${table}\n`);
