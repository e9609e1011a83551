/**
 * prospectkit: the TypeScript SDK for the Prospect Activity, Page and Webhook Subscription API.
 * @module prospectkit
 */
export * from "./schemas/index.js";
export * from "./webhooks/index.js";
