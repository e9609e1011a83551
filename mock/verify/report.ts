/**
 * A {@link VerifyReport} for people (a table grouped by operation, each failure with its request
 * and answer), for machines (JSON) and for CI (JUnit XML). None of them can hold a key: the
 * report never had one.
 * @module
 */
import { EXIT_INCOMPLETE, type RuleResult, type VerifyReport } from "./run.js";

const MARKS: Readonly<Record<RuleResult["status"], string>> = { passed: "pass", failed: "FAIL", skipped: "skip", "not run": "----" };

/** The counts of a report. */
export function summaryOf(report: VerifyReport): Record<"passed" | "failed" | "specFailed" | "skipped" | "notRun", number> {
  const count = (test: (result: RuleResult) => boolean) => report.results.filter(test).length;
  return {
    passed: count((result) => result.status === "passed"),
    failed: count((result) => result.status === "failed"),
    specFailed: count((result) => result.status === "failed" && result.class === "spec"),
    skipped: count((result) => result.status === "skipped"),
    notRun: count((result) => result.status === "not run"),
  };
}

const indent = (text: string, by: string) =>
  text
    .split("\n")
    .map((line) => by + line)
    .join("\n");

/**
 * The report as a person reads it.
 * @param report - the report
 * @returns the text, ending with a newline
 */
export function formatReport(report: VerifyReport): string {
  const lines: string[] = [`prospectkit-mock verify ${report.baseUrl}`, ""];
  const groups = new Map<string, RuleResult[]>();
  for (const result of report.results) {
    const group = result.operation ?? "the API as a whole";
    groups.set(group, [...(groups.get(group) ?? []), result]);
  }
  for (const [group, results] of groups) {
    lines.push(group);
    for (const result of results) {
      lines.push(`  ${MARKS[result.status]}  ${result.class === "spec" ? "spec         " : "mock decision"}  ${result.id}: ${result.title}`);
      if (result.status === "failed") {
        lines.push(`        ${result.message} (${result.source})`);
        if (result.request !== undefined) {
          const { method, path, key, body } = result.request;
          lines.push(`        request: ${method} ${path} (key: ${key})${body === undefined ? "" : ` ${JSON.stringify(body)}`}`);
        }
        if (result.answer !== undefined) {
          const body = typeof result.answer.body === "string" ? result.answer.body : JSON.stringify(result.answer.body, null, 2);
          lines.push(`        answer: ${result.answer.status}`, indent(body.length > 2000 ? `${body.slice(0, 2000)}...` : body, "          "));
        }
      } else if (result.message !== undefined) lines.push(`        ${result.message}`);
    }
    lines.push("");
  }
  const s = summaryOf(report);
  for (const problem of report.inputProblems ?? []) lines.push(`Input problem: ${problem}`);
  if (report.restore !== undefined) lines.push(`Subscription ${report.restore.subscription}: ${report.restore.detail}`);
  if (report.stopped !== undefined) lines.push(`Stopped early: ${report.stopped}`);
  lines.push(
    `${s.passed} passed, ${s.failed} failed (${s.specFailed} spec, ${s.failed - s.specFailed} mock decision), ${s.skipped} skipped, ${s.notRun} not run; ` +
      `${report.requests} of ${report.maxRequests} requests, ${(report.durationMs / 1000).toFixed(1)} s`,
    report.exitCode === 0
      ? report.strict || s.failed === 0
        ? "Result: pass"
        : "Result: pass (mock-decision failures do not fail without --strict: tests against the mock may mislead there)"
      : report.exitCode === 1
        ? "Result: FAIL"
        : report.exitCode === EXIT_INCOMPLETE
          ? `Result: incomplete: ${s.notRun} ${s.notRun === 1 ? "rule" : "rules"} not run (the request budget, --max-requests ${report.maxRequests}, was spent; raise it)`
          : "Result: could not complete the run",
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The report as JSON (the shape of {@link VerifyReport}, plus the counts).
 * @param report - the report
 */
export function reportJson(report: VerifyReport): string {
  return `${JSON.stringify({ ...report, summary: summaryOf(report) }, null, 2)}\n`;
}

const xml = (text: string) =>
  text
    .replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char]!)
    .split("")
    .filter((char) => char >= " " || char === "\t" || char === "\n" || char === "\r")
    .join("");

/**
 * The report as JUnit XML: a test suite per operation, a test case per rule; a failure counts as
 * `<failure>` when it fails the run (spec, or every one with `--strict`), else it passes with a
 * `<system-out>` note; skipped and not-run rules are `<skipped>`.
 * @param report - the report
 */
export function reportJunit(report: VerifyReport): string {
  const groups = new Map<string, RuleResult[]>();
  for (const result of report.results) groups.set(result.operation ?? "api", [...(groups.get(result.operation ?? "api") ?? []), result]);
  const suites = [...groups].map(([group, results]) => {
    const counted = (result: RuleResult) => result.status === "failed" && (report.strict || result.class === "spec");
    const cases = results.map((result) => {
      const name = xml(`${result.id} [${result.class}]: ${result.title}`);
      const detail = xml(
        [result.message, result.request && JSON.stringify(result.request), result.answer && JSON.stringify(result.answer)].filter(Boolean).join("\n"),
      );
      const inner =
        result.status === "failed"
          ? counted(result)
            ? `<failure message="${xml(result.message ?? "")}">${detail}</failure>`
            : `<system-out>${detail}</system-out>`
          : result.status === "passed"
            ? ""
            : `<skipped message="${xml(result.message ?? result.status)}"/>`;
      return `    <testcase classname="prospectkit-verify.${xml(group)}" name="${name}">${inner}</testcase>`;
    });
    const failures = results.filter(counted).length;
    const skipped = results.filter((result) => result.status === "skipped" || result.status === "not run").length;
    return `  <testsuite name="${xml(group)}" tests="${results.length}" failures="${failures}" skipped="${skipped}">\n${cases.join("\n")}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="prospectkit-mock verify">\n${suites.join("\n")}\n</testsuites>\n`;
}
