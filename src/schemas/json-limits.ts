/**
 * The limits every JSON value the API stores must keep (docs/behaviour.md, "JSON limits"):
 * numbers are finite doubles, and nesting is at most {@link MAX_JSON_DEPTH} levels of objects and
 * arrays. A value within them can always be serialized and read back; `JSON.parse` accepts far
 * deeper text (and turns `1e400` into `Infinity`), so the check runs on the parsed value, without
 * recursion, whatever its depth or width.
 * @module
 */

/** The largest request body accepted: 1 MiB (docs/behaviour.md, "Errors": 413 past it). */
export const MAX_BODY_BYTES = 1024 * 1024;

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
  /** The frame of the container this value is a member of, and its key there; the path is built from them only for an issue. */
  readonly parent: Frame | undefined;
  readonly key: string | number;
  readonly level: number;
}

function pathOf(frame: Frame): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let at: Frame | undefined = frame; at !== undefined && at.parent !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse();
}

/** Marks the end of a container's members: it is no longer an ancestor of what follows. */
class Leave {
  constructor(readonly container: object) {}
}

/**
 * The common case, answered without allocating: whether `value` certainly keeps the limits. The
 * recursion stops at {@link MAX_JSON_DEPTH}, so it is bounded even for a cycle (which it reports
 * as `false`); on `false`, {@link jsonLimitIssues} walks the value again to say where and why.
 */
function keepsLimits(value: unknown, level: number): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || value === null) return true;
  if (level > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = value.length - 1; i >= 0; i--) if (!keepsLimits(value[i], level + 1)) return false;
    return true;
  }
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i >= 0; i--) if (!keepsLimits((value as Record<string, unknown>)[keys[i]!], level + 1)) return false;
  return true;
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
  const level = options.level ?? 1;
  if (keepsLimits(value, level)) return [];
  const issues: JsonLimitIssue[] = [];
  let tooDeep = false;
  const ancestors = new Set<object>();
  const stack: (Frame | Leave)[] = [{ value, parent: undefined, key: "", level }];
  while (stack.length > 0 && issues.length < MAX_JSON_LIMIT_ISSUES) {
    const frame = stack.pop()!;
    if (frame instanceof Leave) {
      ancestors.delete(frame.container);
      continue;
    }
    const { value: item, level } = frame;
    if (typeof item === "number") {
      if (!Number.isFinite(item))
        issues.push({ path: pathOf(frame), code: "not_finite", message: "must be a finite number (a JSON number that fits a double)" });
      continue;
    }
    if (typeof item !== "object" || item === null) continue;
    if (ancestors.has(item)) {
      issues.push({ path: pathOf(frame), code: "cycle", message: "must not contain itself (a cycle JSON cannot represent)" });
      continue;
    }
    if (level > MAX_JSON_DEPTH) {
      if (!tooDeep)
        issues.push({ path: pathOf(frame), code: "too_deep", message: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep` });
      tooDeep = true;
      continue;
    }
    ancestors.add(item);
    stack.push(new Leave(item));
    // Pushed in reverse so that they come off the stack in document order.
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], parent: frame, key: i, level: level + 1 });
    } else {
      const keys = Object.keys(item);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: (item as Record<string, unknown>)[keys[i]!], parent: frame, key: keys[i]!, level: level + 1 });
      }
    }
  }
  return issues;
}
