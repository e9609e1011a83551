/**
 * Settles like `work`, unless `signal` fires first: then it rejects at once with `reason()`, and
 * whatever `work` still does is ignored. The one abort check the SDK puts on every await of a
 * call: the caller's async hooks, and the body read (a custom `fetch` may not tie its body to the
 * signal). The listener is removed when either side settles, so a long-lived signal keeps none.
 * @internal
 */
export async function unlessAborted<T>(signal: AbortSignal | undefined, work: () => T | Promise<T>, reason: () => unknown): Promise<T> {
  if (signal?.aborted) throw reason();
  if (!signal) return work();
  let abort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    abort = () => reject(reason());
  });
  signal.addEventListener("abort", abort, { once: true });
  try {
    return await Promise.race([work(), aborted]);
  } finally {
    signal.removeEventListener("abort", abort);
  }
}
