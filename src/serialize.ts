import { RequestValidationError } from "./errors/failures.js";
import { ProspectKitError } from "./errors/prospectkit-error.js";
import type { Redactor } from "./redact.js";
import { fieldError } from "./schemas/issues.js";
import type { FieldError } from "./schemas/problem.js";

/** Deeper than this, a body is refused rather than walked (the API itself refuses more than 64 levels). */
const MAX_DEPTH = 512;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `text` is well-formed Unicode: no lone surrogate, which neither JSON nor a URL can carry
 * (`encodeURIComponent` throws on one; `JSON.stringify` writes an escape the server cannot decode).
 * @internal
 */
export function isWellFormed(text: string): boolean {
  // the runtime's own check where it has one (ES2024: Node 20+, every current browser), a pattern elsewhere
  const own = (text as unknown as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof own === "function" ? own.call(text) : !LONE_SURROGATE.test(text);
}

type Path = PropertyKey[];

/**
 * Walks a body the way `JSON.stringify` would, collecting everything JSON cannot carry. One path
 * array is shared by the whole walk (pushed and popped), and copied only into an error.
 */
class Converter {
  readonly errors: FieldError[] = [];
  private readonly ancestors = new Set<object>();
  private readonly path: Path = [];

  fail(code: string, detail: string): undefined {
    this.errors.push(fieldError([...this.path], code, detail));
    return undefined;
  }

  convert(value: unknown, key: string): unknown {
    switch (typeof value) {
      case "string":
        return isWellFormed(value) ? value : this.fail("invalid_string", "must be valid Unicode (it has a lone surrogate)");
      case "number":
        return Number.isFinite(value) ? value : this.fail("invalid_number", `must be a finite number (JSON has no ${value})`);
      case "boolean":
        return value;
      case "bigint":
        return this.fail("invalid_type", "must be a number, not a BigInt (JSON has none)");
      case "object":
        return value === null ? null : this.object(value, key);
      default: // undefined, a function or a symbol: only a missing field may be undefined (see `object`)
        return this.fail("invalid_type", `must be a JSON value, not ${typeof value === "undefined" ? "undefined" : `a ${typeof value}`}`);
    }
  }

  private object(value: object, key: string): unknown {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return this.convert(toJSON.call(value, key), key); // a Date becomes its ISO string
    if (this.ancestors.has(value)) return this.fail("invalid_value", "must not contain itself (a cycle)");
    const { path } = this;
    if (path.length >= MAX_DEPTH) return this.fail("too_deep", `must not be nested more than ${MAX_DEPTH} levels deep`);
    this.ancestors.add(value);
    let copy: unknown;
    if (Array.isArray(value)) {
      const { length } = value;
      const items = new Array<unknown>(length);
      for (let index = 0; index < length; index++) {
        if (!(index in value)) continue; // a hole stays a hole, as Array#map leaves it (JSON.stringify writes null)
        path.push(index);
        items[index] = this.convert(value[index], String(index));
        path.pop();
      }
      copy = items;
    } else {
      const record: Record<string, unknown> = {};
      for (const name of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[name];
        if (item === undefined) continue; // an absent optional field, as JSON.stringify leaves it out
        path.push(name);
        if (!isWellFormed(name)) this.fail("invalid_string", "must be a valid Unicode name (it has a lone surrogate)");
        else record[name] = this.convert(item, name);
        path.pop();
      }
      copy = record;
    }
    this.ancestors.delete(value);
    return copy;
  }
}

/**
 * A plain copy of `body` that `JSON.stringify` turns into exactly what the caller meant, or a
 * {@link RequestValidationError} naming every field JSON cannot carry: NaN and ±Infinity (which
 * `JSON.stringify` would quietly send as `null`), a BigInt, a cycle, a lone surrogate, a function.
 * A `toJSON` method is honoured, as `JSON.stringify` does (a `Date` becomes its ISO string).
 *
 * @param operation - the operation's name, for the error
 * @param body - the request body as built from the caller's input
 * @returns a JSON-safe copy of `body`
 * @throws {RequestValidationError} listing every value JSON cannot carry; nothing is sent
 * @internal
 */
export function toJsonBody(operation: string, body: unknown): unknown {
  const converter = new Converter();
  const copy = converter.convert(body, "");
  if (converter.errors.length > 0) throw new RequestValidationError(operation, converter.errors);
  return copy;
}

function messageOf(error: unknown): string {
  try {
    return String((error as Error)?.message ?? error);
  } catch {
    return "an error that cannot be shown";
  }
}

/**
 * What a failed conversion of a caller's input (checking it and building the request) is thrown
 * as: always a {@link RequestValidationError}. The errors the conversion raises keep their field
 * errors; anything else (a getter that throws, a proxy) becomes one naming the whole input.
 * Either way the field errors pass through the client's redactor, since a caller's input may
 * hold the key.
 *
 * @param operation - the operation's name
 * @param redact - the client's redactor
 * @param error - what the conversion threw
 * @returns the error to throw
 * @internal
 */
export function rejectedInput(operation: string, redact: Redactor, error: unknown): ProspectKitError {
  const errors = RequestValidationError.is(error) ? error.errors : [fieldError([], "unreadable", `could not be read: ${messageOf(error)}`)];
  const clean = redact.json(errors);
  if (clean === errors && ProspectKitError.is(error)) return error;
  return new RequestValidationError(operation, Array.isArray(clean) ? clean : [fieldError([], "invalid", "holds the API key")]);
}
