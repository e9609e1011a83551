/**
 * `GET /v0/page_groups/{page_group_id}/pages/{page_id}` (spec 4.2). A page of another group or
 * another tenant answers exactly like a missing one.
 * @module
 */
import { problem } from "../pipeline/reply.js";
import { findPage, pageView } from "../state/pages.js";
import type { Operation, OperationBehaviour } from "./context.js";

/** Reads a page with its published version: 200, or 404. */
export const run: Operation = (context) => {
  const { pageGroupId = "", pageId = "" } = context.params;
  const page = findPage(context.tenant, pageGroupId, pageId);
  if (page === undefined) {
    return problem(context.requestId, "not_found", "No page with this ID exists in this page group.");
  }
  return { status: 200, body: pageView(context.tenant, page) };
};

/** A recording keeps the page, its group and its published version. */
export const record: OperationBehaviour["record"] = (book, { responseBody }) => book.page(responseBody);
