/**
 * `--record FILE`: what the validating proxy saw, kept as a fixture document the mock loads with
 * `--data` (pages with their published version, webhook subscriptions, and the prospects created
 * prospect logs named, with the identifiers sent), so a team can start from real data. The file
 * is rewritten after each exchange that adds something; it never holds a key (the proxy hands
 * over bodies with the key taken out, and only the fields below are kept).
 * @module
 */
import { writeFileSync } from "node:fs";
import type { FixtureDocument } from "../control/fixtures.js";
import type { RecordingBook } from "../operations/context.js";
import { MOCK_OPERATIONS, type MockOperation } from "../operations/index.js";
import type { SeenExchange } from "./proxy.js";

type Json = Record<string, unknown>;

const IDENTIFIERS = ["email", "phoneNumber", "linkedinProfileUrl", "name"] as const;

/** A recording: `see` each exchange, `document()` is the fixture document so far. */
export interface Recording {
  see(exchange: SeenExchange): void;
  document(): FixtureDocument;
}

/**
 * Creates a recording.
 * @param file - the file to write after each change (none: keep it in memory)
 * @param operations - the operations whose answers it keeps, each as its own file says (every operation of the API unless a test gives its own)
 */
export function createRecording(file?: string, operations: readonly MockOperation[] = MOCK_OPERATIONS): Recording {
  const recorders = new Map(operations.flatMap(({ row, record }) => (record === undefined ? [] : [[row.name, record] as const])));
  const groups = new Set<string>();
  const pages = new Map<string, Json>();
  const versions = new Map<string, { id: string; number: number; computedName: string }>();
  const subscriptions = new Map<string, Json>();
  const prospects = new Map<string, Json>();

  const holds = (field: string, value: unknown) => [...prospects.values()].some((prospect) => prospect[field] === value);

  function document(): FixtureDocument {
    // The published version under its own number: the versions before it are not known, and need no stand-ins.
    const pageVersions = [...versions].map(([pageId, version]) => ({
      id: version.id,
      pageId,
      versionNumber: version.number,
      computedName: version.computedName,
      publish: true,
    }));
    return {
      pageGroups: [...groups].map((id) => ({ id })),
      pages: [...pages.values()] as FixtureDocument["pages"],
      pageVersions,
      webhookSubscriptions: [...subscriptions.values()] as FixtureDocument["webhookSubscriptions"],
      prospects: [...prospects.values()] as FixtureDocument["prospects"],
    };
  }

  const record = (body: unknown): body is Json => typeof body === "object" && body !== null;

  /** What each resource keeps of an answer, as the operations' own files ask (mock/operations/<name>.ts, `record`). */
  const book: RecordingBook = {
    page(body) {
      if (!record(body) || typeof body.pageId !== "string" || typeof body.pageGroupId !== "string") return false;
      groups.add(body.pageGroupId);
      const { pageId, pageGroupId, customName, computedName, supplementaryContext } = body;
      pages.set(body.pageId, { id: pageId, pageGroupId, customName, computedName, supplementaryContext });
      const published = (body.publishedVersion ?? {}) as Json;
      if (typeof published.versionId === "string" && typeof computedName === "string") {
        const number = Number(published.versionNumber);
        versions.set(body.pageId, { id: published.versionId, number: Number.isSafeInteger(number) && number >= 1 ? number : 1, computedName });
      }
      return true;
    },
    subscription(body) {
      if (!record(body) || typeof body.id !== "string") return false;
      const { id, url, events, active } = body;
      subscriptions.set(id, { id, url, events, active });
      return true;
    },
    prospect(log, requestBody) {
      if (!record(log) || typeof log.prospectId !== "string") return false;
      const prospect = prospects.get(log.prospectId) ?? { id: log.prospectId };
      const sent = record(requestBody) ? requestBody : {};
      // As the mock does: an identifier is added where the prospect has none and no other prospect holds it.
      for (const field of IDENTIFIERS) {
        if (typeof sent[field] === "string" && prospect[field] === undefined && !holds(field, sent[field])) prospect[field] = sent[field];
      }
      prospects.set(log.prospectId, prospect);
      return true;
    },
  };

  function see({ operation, status, requestBody, responseBody }: SeenExchange): void {
    if (typeof responseBody !== "object" || responseBody === null || status >= 300) return;
    const kept = recorders.get(operation)?.(book, { requestBody, responseBody }) ?? false;
    if (kept && file !== undefined) writeFileSync(file, `${JSON.stringify(document(), null, 2)}\n`);
  }

  return { see, document };
}
