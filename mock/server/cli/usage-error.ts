/**
 * The one error the command line reports as such.
 * @module
 */

/** A mistake on the command line or in its inputs: printed as one line, exit code 2. */
export class UsageError extends Error {
  /** @param message - one line saying what is wrong and, where useful, what to do */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
