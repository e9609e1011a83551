import { redactHeaders } from "../redact.js";

/**
 * The brand of every prospectkit error, a member of the base class's body. Its name is written
 * `[BRAND as never]`: a computed name that is no plain reference is left out of the class's type
 * and of the .d.ts, so no declaration names the symbol (a symbol type in the public .d.ts is a
 * private type users' declaration emit cannot name). `Symbol.for` gives the same symbol in every copy of the package and every
 * realm, so the type guards work across them. Which class an error is comes from the `kind`
 * getter each class declares in its own body. Both live in the class bodies, never in a call
 * after them, so a bundler drops an error class that nothing uses.
 */
const BRAND: symbol = Symbol.for("prospectkit.error");
/** Node's `util.inspect` hook, a member named the same way. */
const INSPECT: symbol = Symbol.for("nodejs.util.inspect.custom");

/** The name of every prospectkit error class, also found in each error's `kind` and `name`. */
export type ErrorKind =
  | "ProspectKitError"
  | "ConfigurationError"
  | "RequestValidationError"
  | "ResponseValidationError"
  | "APIConnectionError"
  | "APITimeoutError"
  | "APIUserAbortError"
  | "APIError"
  | "BadRequestError"
  | "AuthenticationError"
  | "PermissionDeniedError"
  | "NotFoundError"
  | "ConflictError"
  | "UnprocessableEntityError"
  | "RateLimitError"
  | "InternalServerError"
  | "WebhookVerificationError";

/**
 * Whether `value` is a branded error whose prototype chain holds a class of this `kind`. A class's
 * kind is its own `kind` getter, or (in a copy of prospectkit 0.1, whose classes each declared a
 * getter under the brand) its own brand.
 */
function hasKind(value: unknown, kind: ErrorKind): boolean {
  if (typeof value !== "object" || value === null || !(BRAND in value)) return false;
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const own = Object.hasOwn(proto, "kind") ? proto.kind : Object.hasOwn(proto, BRAND) ? proto[BRAND] : undefined;
    if (own === kind) return true;
  }
  return false;
}

/**
 * The base of every error the SDK throws: configuration, validation, connection and API errors.
 * Never carries the API key: not in `message`, `toString()`, `toJSON()` or `util.inspect()`.
 *
 * Use the static `is()` of any error class (or `instanceof`) to tell errors apart. Both work
 * across realms and across duplicate copies of the package, because they test a brand
 * (`Symbol.for("prospectkit.error")`) instead of object identity.
 *
 * @example
 * ```ts
 * try {
 *   await client.getPage({ pageGroupId, pageId });
 * } catch (error) {
 *   if (NotFoundError.is(error)) return null;
 *   if (ProspectKitError.is(error)) console.error(error.kind, error.message);
 *   throw error;
 * }
 * ```
 */
export class ProspectKitError extends Error {
  /**
   * @param message - what went wrong (must not contain secrets)
   * @param options - the underlying cause, if any
   * @internal
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = this.kind;
  }

  /** Which class of error this is, e.g. `"RateLimitError"`; the same string as `name`. */
  get kind(): ErrorKind {
    return "ProspectKitError";
  }

  /**
   * Whether `value` is an error of this class or of one of its subclasses, also when it comes
   * from another realm or another copy of the package.
   * @param value - anything, typically a caught error
   * @returns `true` when `value` is such an error
   */
  static is<T extends ProspectKitError>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    return hasKind(value, this.prototype.kind);
  }

  /**
   * Makes `instanceof` use the same brand test as {@link ProspectKitError.is}.
   * @param value - the left operand of `instanceof`
   * @returns `true` when `value` is an error of this class or a subclass
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasKind(value, this.prototype.kind);
  }

  /**
   * A plain, secret-free object for logs and `JSON.stringify`: `name`, `message` and every
   * field of the error (headers as a redacted record). The underlying `cause` is left out;
   * its message is already part of `message`.
   * @returns the serialisable view of this error
   */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      json[key] = value instanceof Headers ? redactHeaders(value) : value;
    }
    return json;
  }

  /** The brand the type guards test first (see BRAND above). */
  get [BRAND as never](): ErrorKind {
    return "ProspectKitError";
  }

  /**
   * What Node's `util.inspect` and `console.log` print of a prospectkit error: the stack and the
   * fields of {@link ProspectKitError.toJSON}, never the raw `cause`.
   */
  [INSPECT as never](_depth: number, options: object, inspect?: (value: unknown, options: object) => string): string {
    const { name: _name, message: _message, ...fields } = this.toJSON();
    return `${this.stack} ${inspect ? inspect(fields, options) : JSON.stringify(fields)}`;
  }
}

/**
 * Invalid client configuration, thrown by `createClient`: no API key, a `baseUrl` that is not an
 * absolute http(s) URL, a negative `maxRetries`, no `fetch` in this runtime, and so on.
 * @example
 * ```ts
 * try {
 *   createClient({ baseUrl: "api.example.com" }); // not an absolute URL
 * } catch (error) {
 *   if (ConfigurationError.is(error)) console.log(error.message);
 *   else throw error;
 * }
 * ```
 */
export class ConfigurationError extends ProspectKitError {
  override get kind(): ErrorKind {
    return "ConfigurationError";
  }
}
