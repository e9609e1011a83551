/**
 * The stop signals (SIGINT, SIGTERM, SIGHUP), heard from the first statement of the CLI's entry,
 * before the rest of the program is loaded: a signal that arrives while the program loads or the
 * server starts is kept, and gives the clean stop once the server has started, never Node's
 * default (the process killed at once, exit code 143 for SIGTERM). This module imports nothing, so
 * the entry installs the listeners before it loads anything else.
 * @module
 */

/** The signals that stop the server cleanly. */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** One of {@link STOP_SIGNALS}. */
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The stop signals, listened to since the entry's first statement. */
export interface StopSignals {
  /** Settles with the first stop signal received. */
  readonly received: Promise<StopSignal>;
  /**
   * Stops listening, for a command that is not the server (`verify`, `--help`): Node's default
   * applies again, and a signal already received is raised again, so the process ends as it would
   * have without the early listeners.
   */
  release(): void;
}

/**
 * Listens to the stop signals, each once (a second one of a kind gets Node's default: the process
 * ends at once, as a second Ctrl+C should).
 * @returns the signals heard, and how to stop listening
 */
export function hearStopSignals(): StopSignals {
  let first: StopSignal | undefined;
  let settle!: (signal: StopSignal) => void;
  const received = new Promise<StopSignal>((resolve) => {
    settle = resolve;
  });
  const hear = (signal: NodeJS.Signals) => {
    first ??= signal as StopSignal;
    settle(signal as StopSignal);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, hear);
  return {
    received,
    release() {
      for (const signal of STOP_SIGNALS) process.off(signal, hear);
      if (first !== undefined) process.kill(process.pid, first);
    },
  };
}
