/**
 * The one benchmark report: every benchmark returns rows of this shape, `run.ts` prints them as a
 * Markdown table (figure, baseline, ratio, target, pass/fail) and writes it under test/bench/.
 * Numbers are measured in the same run as their baseline; nothing here is a test assertion.
 */
export interface BenchRow {
  /** What was measured, e.g. "createProspectLog via SDK, µs/call". */
  figure: string;
  /** The measured value, already formatted with its unit. */
  value: string;
  /** The baseline measured in the same run, formatted with its unit ("" when none). */
  baseline: string;
  /** value / baseline (or the figure itself when it is a ratio already); NaN when not applicable. */
  ratio: number;
  /** Human-readable target such as "<= 1.10"; "" when the row is informational. */
  target: string;
  /** Whether the target is met; null when the row has no target. */
  pass: boolean | null;
  /** The interquartile range of the ratio, when it is the median of several pairs. */
  iqr?: readonly [number, number];
}

/** A benchmark module: a name and a function that measures and returns its rows. */
export interface Benchmark {
  name: string;
  /** Runs only when named on the command line (`npm run bench -- soak`), never in a plain `npm run bench`. */
  onlyWhenNamed?: boolean;
  run(): Promise<BenchRow[]>;
}

/** Builds a row whose target is an upper bound on the ratio. */
export function atMost(figure: string, value: string, baseline: string, ratio: number, max: number): BenchRow {
  return { figure, value, baseline, ratio, target: `<= ${max}`, pass: ratio <= max };
}

/** Builds a row whose target is a lower bound on the ratio. */
export function atLeast(figure: string, value: string, baseline: string, ratio: number, min: number): BenchRow {
  return { figure, value, baseline, ratio, target: `>= ${min}`, pass: ratio >= min };
}

/** Builds an informational row without a target. */
export function info(figure: string, value: string, baseline = "", ratio = Number.NaN): BenchRow {
  return { figure, value, baseline, ratio, target: "", pass: null };
}

/** Renders rows as a Markdown table. */
export function toMarkdown(sections: { name: string; rows: BenchRow[] }[]): string {
  const lines = ["| benchmark | figure | value | baseline | ratio | target | result |", "|---|---|---|---|---|---|---|"];
  for (const { name, rows } of sections) {
    for (const r of rows) {
      const iqr = r.iqr === undefined ? "" : ` (IQR ${r.iqr[0].toFixed(2)}–${r.iqr[1].toFixed(2)})`;
      const ratio = Number.isNaN(r.ratio) ? "" : `${r.ratio.toFixed(2)}${iqr}`;
      const result = r.pass === null ? "" : r.pass ? "pass" : "FAIL";
      lines.push(`| ${name} | ${r.figure} | ${r.value} | ${r.baseline} | ${ratio} | ${r.target} | ${result} |`);
    }
  }
  return lines.join("\n");
}

/** Median of a list of numbers (robust against a noisy outlier on a 2-core machine). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
