/**
 * The limits every JSON value the API stores must keep (docs/behaviour.md, "JSON limits"):
 * numbers are finite doubles, and nesting is at most {@link MAX_JSON_DEPTH} levels of objects and
 * arrays. A value within them can always be serialized and read back; `JSON.parse` accepts far
 * deeper text (and turns `1e400` into `Infinity`), so the check runs on the parsed value, without
 * recursion, whatever its depth or width.
 * @module
 */

/** The deepest nesting accepted: 64 levels of objects and arrays, a request body's root being level 1. */
export const MAX_JSON_DEPTH = 64;

/** The most problems one check reports (a million `1e400`s get a bounded answer). */
export const MAX_JSON_LIMIT_ISSUES = 100;

/** One place where a value breaks a limit: the path to it and which limit. */
export interface JsonLimitIssue {
  /** Keys and indexes from the checked value to the offending one. */
  readonly path: readonly (string | number)[];
  readonly code: "too_deep" | "not_finite" | "cycle";
  readonly message: string;
}

/** How deep the checked value itself sits: 1 for a body's root, 2 for a member of it (`payload`). */
export interface JsonLimitOptions {
  readonly level?: number;
}

interface Frame {
  readonly value: unknown;
  readonly path: readonly (string | number)[];
  readonly level: number;
}

/** Marks the end of a container's members: it is no longer an ancestor of what follows. */
class Leave {
  constructor(readonly container: object) {}
}

/**
 * Checks a JSON value (as `JSON.parse` returns it, or a plain object a caller built) against the
 * limits, in document order: every number that is not finite, and the first object or array
 * nested deeper than {@link MAX_JSON_DEPTH} (nothing below it is looked at); a value built in
 * JavaScript that contains itself is reported where the cycle closes.
 * @param value - the value
 * @param options - the level of `value` itself (default 1: a body's root)
 * @returns the issues, at most {@link MAX_JSON_LIMIT_ISSUES}; empty when the value keeps the limits
 */
export function jsonLimitIssues(value: unknown, options: JsonLimitOptions = {}): JsonLimitIssue[] {
  const issues: JsonLimitIssue[] = [];
  let tooDeep = false;
  const ancestors = new Set<object>();
  const stack: (Frame | Leave)[] = [{ value, path: [], level: options.level ?? 1 }];
  while (stack.length > 0 && issues.length < MAX_JSON_LIMIT_ISSUES) {
    const frame = stack.pop()!;
    if (frame instanceof Leave) {
      ancestors.delete(frame.container);
      continue;
    }
    const { value: item, path, level } = frame;
    if (typeof item === "number") {
      if (!Number.isFinite(item)) issues.push({ path, code: "not_finite", message: "must be a finite number (a JSON number that fits a double)" });
      continue;
    }
    if (typeof item !== "object" || item === null) continue;
    if (ancestors.has(item)) {
      issues.push({ path, code: "cycle", message: "must not contain itself (a cycle JSON cannot represent)" });
      continue;
    }
    if (level > MAX_JSON_DEPTH) {
      if (!tooDeep) issues.push({ path, code: "too_deep", message: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep` });
      tooDeep = true;
      continue;
    }
    ancestors.add(item);
    stack.push(new Leave(item));
    // Pushed in reverse so that they come off the stack in document order.
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], path: [...path, i], level: level + 1 });
    } else {
      const keys = Object.keys(item);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: (item as Record<string, unknown>)[keys[i]!], path: [...path, keys[i]!], level: level + 1 });
      }
    }
  }
  return issues;
}
