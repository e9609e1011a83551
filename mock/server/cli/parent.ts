/**
 * The CLI never outlives whoever started it. `npx prospectkit-mock` runs the server as a
 * grandchild (npm, then `sh -c`, then node): terminating npx (a test runner's teardown, Python's
 * `Popen.terminate()`) kills the shell between them but never reaches the server, which would go
 * on answering as an orphan. When the parent goes away, the kernel hands the process to another
 * (init or a subreaper), so its parent process ID changes: that is the signal to stop.
 * @module
 */

/** How often the parent process ID is read, in milliseconds. */
export const PARENT_POLL_MS = 250;

/**
 * Calls `onGone` once, when the process's parent has exited (its parent process ID changed).
 * The timer never keeps the process alive by itself.
 * @param onGone - called once, when the parent has gone
 * @param source - where the current parent process ID is read (default: this process's; replaceable in tests)
 * @param intervalMs - how often to look
 * @returns a function that stops watching
 */
export function watchParent(onGone: () => void, source = { ppid: () => process.ppid }, intervalMs = PARENT_POLL_MS): () => void {
  const parent = source.ppid();
  const timer = setInterval(() => {
    if (source.ppid() === parent) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
