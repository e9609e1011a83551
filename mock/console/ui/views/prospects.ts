/** Prospects with their identifiers and their prospect log entries (payloads shown on demand). */
import { html } from "htm/preact";
import { Json, when } from "../parts.js";
import type { ProspectLogRecord, ProspectRecord } from "../types.js";

/** The identifiers of a prospect, each with its label. */
const IDENTIFIERS = [
  ["name", "Name"],
  ["email", "Email"],
  ["phoneNumber", "Phone number"],
  ["linkedinProfileUrl", "LinkedIn profile"],
] as const satisfies readonly (readonly [keyof ProspectRecord, string])[];

function text(value: unknown): string {
  return typeof value === "string" ? value : value === null || value === undefined ? "—" : JSON.stringify(value);
}

export function ProspectsSection({ prospects, logs }: { prospects: readonly ProspectRecord[]; logs: readonly ProspectLogRecord[] }) {
  const byProspect = new Map<string, ProspectLogRecord[]>();
  for (const log of logs) byProspect.set(log?.prospectId, [...(byProspect.get(log?.prospectId) ?? []), log]);
  return html`<section aria-labelledby="prospects-title" class="card wide">
    <h2 id="prospects-title">Prospects <span class="count">${prospects.length}</span></h2>
    ${
      prospects.length === 0
        ? html`<p class="empty">No prospect yet: creating a prospect log entry creates one.</p>`
        : html`<ul class="plain" id="prospects">
          ${prospects.map((prospect) => {
            const own = byProspect.get(prospect.id) ?? [];
            const title = prospect.name ?? prospect.email ?? prospect.phoneNumber ?? prospect.linkedinProfileUrl ?? "(no identifier)";
            return html`<li key=${prospect.id}><details class="prospect">
              <summary><span class="title">${text(title)}</span> <code class="id">${prospect.id}</code> <span class="count">${own.length} log${own.length === 1 ? "" : "s"}</span></summary>
              <dl class="identifiers">
                ${IDENTIFIERS.map(([field, label]) => html`<div><dt>${label}</dt><dd>${text(prospect[field])}</dd></div>`)}
                <div><dt>Created</dt><dd>${when(prospect.createdAt)}</dd></div>
              </dl>
              <h3 class="sub">Log entries</h3>
              <ol class="logs">
                ${own.map(
                  (log) => html`<li key=${log.id}>
                    <p class="meta"><code>${log.id}</code> · ${text(log.source)} · ${text(log.type)} · ${when(log.createdAt)}${log.createdProspect ? " · created the prospect" : ""}${log.idempotencyKey ? ` · key ${text(log.idempotencyKey)}` : ""}</p>
                    <${Json} value=${log.payload} label=${`Payload of ${log.id}`} />
                  </li>`,
                )}
              </ol>
            </details></li>`;
          })}
        </ul>`
    }
  </section>`;
}
