/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it aborts (the work goes
 * on, as a server's would); the listener goes with the outcome.
 * @param promise - the work
 * @param signal - the caller's signal
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
