/**
 * Values that are often already here: the standalone server and the MSW handlers hold a request's
 * body before the pipeline starts, so reading, parsing and answering it need not wait a turn of
 * the event loop at each step. Only a body that really arrives later (a fetch `Request`'s stream)
 * makes the chain asynchronous.
 * @module
 */

/** A value now, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Applies `next` to a value at once when it is here, or when its promise settles.
 * @param value - the value, or its promise
 * @param next - what to do with it
 * @returns `next`'s result, or its promise
 */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
