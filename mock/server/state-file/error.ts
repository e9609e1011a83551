/**
 * The one error of the state file (`--state`, `startMockServer`'s `stateFile`).
 * @module
 */

/**
 * The state file cannot be used: it is unreadable, not a state file, invalid, or in use by
 * another server. The message is one line naming the file and the problem; the file is left as
 * it was. The CLI prints it and exits with code 2.
 * @example
 * ```ts
 * try {
 *   await startMockServer({ stateFile: "mock-state.jsonl" });
 * } catch (error) {
 *   if (error instanceof StateFileError) console.error(error.message);
 * }
 * ```
 */
export class StateFileError extends Error {
  /** The file, as given. */
  readonly path: string;

  /**
   * Creates the error; its message is `state file <path>: <problem>`.
   * @param path - the state file, as given
   * @param problem - what is wrong, and what to do where it helps
   */
  constructor(path: string, problem: string) {
    super(`state file ${path}: ${problem}`);
    this.name = "StateFileError";
    this.path = path;
  }
}
