import { ConfigurationError, type ProspectKitError } from "./errors/prospectkit-error.js";
import type { FieldError } from "./schemas/index.js";

/** How much the SDK logs: nothing (`"off"`, the default) up to every request (`"debug"`). */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/** Where log lines go; `console` fits. Every line starts with `prospectkit:` and carries redacted data. */
export interface Logger {
  /** A call failed for good. */
  error(message: string, data?: object): void;
  /** A retry is scheduled, or a response did not match its schema in `"warn"` mode. */
  warn(message: string, data?: object): void;
  /** A response arrived. */
  info(message: string, data?: object): void;
  /** A request is about to be sent (headers redacted). */
  debug(message: string, data?: object): void;
}

/** What every hook event says about the call it belongs to. */
export interface CallEvent {
  /** The operation, e.g. `"getPage"`. */
  operation: string;
  /** The HTTP method. */
  method: string;
  /** The full request URL (it never contains the API key). */
  url: string;
  /** The attempt this event belongs to, counted from 1. */
  attempt: number;
}

/** Passed to `onRequest` before each attempt is sent. */
export interface RequestEvent extends CallEvent {
  /** The request headers, with the API key replaced by `[redacted]`. */
  headers: Record<string, string>;
}

/** Passed to `onResponse` for every HTTP response, success or error. */
export interface ResponseEvent extends CallEvent {
  /** The HTTP status. */
  status: number;
  /** The response's `x-request-id`. */
  requestId: string | undefined;
  /** Time from sending the request to the end of the response body, in ms. */
  durationMs: number;
  /** The response headers (an echoed API key would be redacted). */
  headers: Record<string, string>;
}

/** Passed to `onRetry` when a failed attempt is about to be retried. */
export interface RetryEvent extends CallEvent {
  /** How long the SDK waits before the next attempt, in ms. */
  delayMs: number;
  /** Why `attempt` failed. */
  error: ProspectKitError;
}

/** Passed to `onValidationIssue` when a successful response does not match its schema. */
export interface ValidationIssueEvent {
  /** The operation whose response it was. */
  operation: string;
  /** What is wrong, each with a JSON Pointer into the body. */
  issues: FieldError[];
  /** The parsed body. */
  body: unknown;
  /** The HTTP status. */
  status: number;
  /** The response's `x-request-id`. */
  requestId: string | undefined;
}

/** The observation options: logging, hooks and the validation callback. */
export interface Hooks {
  /** How much to log. Default `"off"`, or `"warn"` when a `logger` is given. */
  logLevel?: LogLevel;
  /** Where to log. Default `console`. */
  logger?: Logger;
  /** Called before each attempt is sent. May be async; it is awaited. */
  onRequest?: (event: RequestEvent) => void | Promise<void>;
  /** Called for every HTTP response, before it is interpreted. May be async; it is awaited. */
  onResponse?: (event: ResponseEvent) => void | Promise<void>;
  /** Called before the SDK waits to retry. May be async; it is awaited. */
  onRetry?: (event: RetryEvent) => void | Promise<void>;
  /**
   * Called when a successful response does not match its schema (modes `"strict"` and `"warn"`).
   * In `"warn"` mode without this callback the issue goes to the logger's (or the console's) `warn`.
   */
  onValidationIssue?: (event: ValidationIssueEvent) => void;
}

const LEVELS = ["error", "warn", "info", "debug"] as const;

/** A log function filtered by level, or `undefined` when logging is off (the hot path checks that). */
export type Log = (level: (typeof LEVELS)[number], message: string, data?: object) => void;

/**
 * Builds the log function for `hooks`: `undefined` when nothing would be logged.
 * @throws {ConfigurationError} for an unknown `logLevel`
 * @internal
 */
export function createLog({ logger, logLevel = logger ? "warn" : "off" }: Hooks): Log | undefined {
  const max = LEVELS.indexOf(logLevel as (typeof LEVELS)[number]);
  if (max < 0 && logLevel !== "off") throw new ConfigurationError('logLevel must be "off", "error", "warn", "info" or "debug"');
  if (max < 0) return undefined;
  const sink = logger ?? console;
  return (level, message, data) => {
    if (LEVELS.indexOf(level) <= max) sink[level](`prospectkit: ${message}`, data);
  };
}
