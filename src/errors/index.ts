/**
 * Every error the SDK throws, one class per failure mode, all under {@link ProspectKitError}.
 * @module
 */
export {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from "./api-error.js";
export {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  RequestValidationError,
  ResponseValidationError,
} from "./failures.js";
export { ConfigurationError, type ErrorKind, ProspectKitError } from "./prospectkit-error.js";
export { WebhookVerificationError, type WebhookVerificationErrorCode } from "./webhook-verification-error.js";
