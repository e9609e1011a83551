/**
 * The operation behind each route.
 * @module
 */
import type { OperationId } from "../../src/operations.js";
import type { Operation } from "./context.js";
import { createProspectLog } from "./create-prospect-log.js";
import { getPage } from "./get-page.js";
import { updateWebhookSubscription } from "./update-webhook-subscription.js";

/** Each operation by its ID. */
export const OPERATION_HANDLERS: Readonly<Record<OperationId, Operation>> = {
  createProspectLog,
  getPage,
  updateWebhookSubscription,
};
