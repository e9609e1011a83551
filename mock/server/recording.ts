/**
 * `--record FILE`: what the validating proxy saw, kept as a fixture document the mock loads with
 * `--data` (pages with their published version, webhook subscriptions, and the prospects created
 * prospect logs named, with the identifiers sent), so a team can start from real data. The file
 * is rewritten after each exchange that adds something; it never holds a key (the proxy hands
 * over bodies with the key taken out, and only the fields below are kept).
 *
 * What it writes always loads with `--data`: a field the proxy flagged (`body /customName
 * invalid_type`, `request /email invalid_format`) is left out, and an exchange that needs a
 * flagged field (an ID, a subscription's `url`, `events` or `active`) is skipped; each is one line
 * of the recording's report. The document is then checked against the fixture schema `--data`
 * uses, and a record it would refuse is skipped the same way.
 * @module
 */
import { writeFileSync } from "node:fs";
import { type FixtureDocument, parseFixtureDocument } from "../control/fixtures.js";
import type { RecordingBook } from "../operations/context.js";
import { MOCK_OPERATIONS, type MockOperation } from "../operations/index.js";
import type { SeenExchange } from "./proxy.js";

type Json = Record<string, unknown>;

const IDENTIFIERS = ["email", "phoneNumber", "linkedinProfileUrl", "name"] as const;

/** A recording: `see` each exchange, `document()` is the fixture document so far. */
export interface Recording {
  see(exchange: SeenExchange): void;
  document(): FixtureDocument;
  /** The recording's report: each value left out and each exchange skipped, one line each, in order. */
  notes(): readonly string[];
}

/** The top-level fields the violations name in the answer (`body /customName …`) or the request (`request /email …`); `""` for the whole body. */
function flaggedFields(violations: readonly string[], where: "body" | "request"): Map<string, string> {
  const fields = new Map<string, string>();
  for (const violation of violations) {
    const found = /^(body|request) \/([^/ ]*)/.exec(violation);
    if (found?.[1] === where && !fields.has(found[2]!)) fields.set(found[2]!, violation);
  }
  return fields;
}

/** A copy of a JSON object body without some of its fields. */
function without(body: unknown, fields: ReadonlyMap<string, string>): unknown {
  if (fields.size === 0 || typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => !fields.has(name)));
}

/**
 * Creates a recording.
 * @param file - the file to write after each change (none: keep it in memory)
 * @param operations - the operations whose answers it keeps, each as its own file says (every operation of the API unless a test gives its own)
 * @param report - hears each line of the recording's report (a value left out, an exchange skipped)
 */
export function createRecording(
  file?: string,
  operations: readonly MockOperation[] = MOCK_OPERATIONS,
  report: (line: string) => void = () => {},
): Recording {
  const recorders = new Map(operations.flatMap(({ row, record }) => (record === undefined ? [] : [[row.name, record] as const])));
  const groups = new Set<string>();
  const pages = new Map<string, Json>();
  const versions = new Map<string, { id: string; number: number; computedName: string }>();
  const subscriptions = new Map<string, Json>();
  const prospects = new Map<string, Json>();
  const notes: string[] = [];
  const note = (line: string) => {
    notes.push(line);
    report(line);
  };

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
      // Each field is needed: one left out would load as something else (no events: every kind).
      if (
        !record(body) ||
        typeof body.id !== "string" ||
        typeof body.url !== "string" ||
        !Array.isArray(body.events) ||
        typeof body.active !== "boolean"
      )
        return false;
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

  /** The records `--data` would refuse, found by the fixture schema it uses: each is skipped, named in the report. */
  function settle(): void {
    const sections: Record<string, { readonly what: string; readonly keys: () => string[]; readonly drop: (key: string) => void }> = {
      pageGroups: { what: "page group", keys: () => [...groups], drop: (id) => groups.delete(id) },
      pages: { what: "page", keys: () => [...pages.keys()], drop: (id) => (pages.delete(id), versions.delete(id)) },
      pageVersions: { what: "published version of page", keys: () => [...versions.keys()], drop: (id) => versions.delete(id) },
      webhookSubscriptions: { what: "subscription", keys: () => [...subscriptions.keys()], drop: (id) => subscriptions.delete(id) },
      prospects: { what: "prospect", keys: () => [...prospects.keys()], drop: (id) => prospects.delete(id) },
    };
    for (let round = 0; round < 3; round++) {
      const parsed = parseFixtureDocument(document());
      if (parsed.ok) return;
      const refused = new Map<string, string>();
      for (const error of parsed.errors) {
        const [, name = "", index = ""] = error.pointer.split("/");
        const section = sections[name];
        const key = section?.keys()[Number(index)];
        if (section === undefined || key === undefined || refused.has(`${name}/${key}`)) continue;
        refused.set(`${name}/${key}`, `skipped the ${section.what} ${key}: --data would refuse it (${error.pointer} ${error.code})`);
        section.drop(key);
      }
      for (const line of refused.values()) note(line);
    }
  }

  function see({ operation, status, requestBody, responseBody, violations = [] }: SeenExchange): void {
    if (typeof responseBody !== "object" || responseBody === null || status >= 300) return;
    const recorder = recorders.get(operation);
    if (recorder === undefined) return;
    const answer = flaggedFields(violations, "body");
    const request = flaggedFields(violations, "request");
    const whole = answer.get("");
    if (whole !== undefined) {
      note(`skipped a ${operation} answer: the proxy flagged it whole (${whole})`);
      return;
    }
    const kept = recorder(book, { requestBody: without(requestBody, request), responseBody: without(responseBody, answer) });
    const flagged = [...[...answer].map(([field, why]) => ["answer", field, why]), ...[...request].map(([field, why]) => ["request", field, why])];
    if (!kept) {
      if (flagged.length > 0) note(`skipped a ${operation} answer: it needs what the proxy flagged (${flagged.map(([, , why]) => why).join(", ")})`);
      return;
    }
    const body = responseBody as Json;
    const id = [body.pageId, body.id, body.prospectId].find((value) => typeof value === "string") ?? "";
    for (const [where, field, why] of flagged) note(`left out the ${where}'s /${field} of ${operation} ${id}: the proxy flagged it (${why})`);
    settle();
    if (file !== undefined) writeFileSync(file, `${JSON.stringify(document(), null, 2)}\n`);
  }

  return { see, document, notes: () => [...notes] };
}
