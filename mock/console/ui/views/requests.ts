/** The live request log: newest first, filtered by operation and status, each row expandable to its bodies and field errors. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { describeNearMiss } from "../../../observe/near-miss.js";
import type { LoggedRequest } from "../../../observe/request-log.js";
import { call } from "../api.js";
import { clock, Json, StatusBadge } from "../parts.js";

declare const __OPERATIONS__: readonly string[];

const STATUS_FILTERS: Record<string, (status: number) => boolean> = {
  all: () => true,
  "2xx": (s) => s >= 200 && s < 300,
  "4xx": (s) => s >= 400 && s < 500,
  "5xx": (s) => s >= 500,
  dropped: (s) => s === 0,
};

/** How many rows are drawn before "Show more" (the server keeps up to 10,000). */
const PAGE = 100;

/** An entry as the console reads it: with what the server's validating proxy attaches beside its own fields (`GET /__mock/requests` shows them). */
type Entry = LoggedRequest & { readonly violations?: readonly string[]; readonly answeredBy?: "target" | "mock" };

function Row({ entry }: { entry: Entry }) {
  const [open, setOpen] = useState(false);
  const reported = (entry.responseBody as { errors?: unknown } | null | undefined)?.errors;
  const errors: Readonly<Record<string, unknown>>[] = Array.isArray(reported) ? reported.filter((e) => e && typeof e === "object") : [];
  return html`<li class="request">
    <details onToggle=${(event: Event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        <span class="time">${clock(entry.receivedAt)}</span>
        <span class="method">${entry.method}</span>
        <span class="path" title=${entry.path}>${entry.path}</span>
        <${StatusBadge} status=${entry.status} />
        <span class="duration">${typeof entry.durationMs === "number" ? `${entry.durationMs.toFixed(1)} ms` : ""}</span>
        <span class="request-id">${entry.requestId}</span>
        ${entry.nearMiss && html`<span class="marks"><span class="near-miss">${describeNearMiss(entry.nearMiss)}</span></span>`}
        ${
          (entry.answeredBy === "mock" || (entry.violations?.length ?? 0) > 0) &&
          html`<span class="marks">
          ${entry.answeredBy === "mock" && html`<span class="answered-by">answered by the mock (--fallback): the proxy target did not</span>`}
          ${entry.violations?.length ? html`<span class="violations">${entry.violations.length} contract violation${entry.violations.length === 1 ? "" : "s"}: ${entry.violations[0]}${entry.violations.length > 1 ? " …" : ""}</span>` : ""}
        </span>`
        }
      </summary>
      ${
        open &&
        html`<div class="request-detail">
        <p class="meta">Operation <strong>${entry.operation ?? "none (no route matched)"}</strong> · request ID <code>${entry.requestId}</code></p>
        ${
          entry.violations?.length
            ? html`<div class="contract-violations"><h4>Contract violations (the proxy target's answer or this request)</h4><ul>
          ${entry.violations.map((violation) => html`<li>${violation}</li>`)}
        </ul></div>`
            : ""
        }
        ${
          errors.length > 0 &&
          html`<div class="field-errors"><h4>Field errors</h4><ul>
          ${errors.map((e) => html`<li><code>${String(e["pointer"])}</code> ${String(e["detail"])} <span class="code">${String(e["code"])}</span></li>`)}
        </ul></div>`
        }
        <div class="bodies">
          <div><h4>Request body</h4><${Json} value=${entry.requestBody} label=${`Request body of ${entry.requestId}`} /></div>
          <div><h4>Response body</h4><${Json} value=${entry.responseBody} label=${`Response body of ${entry.requestId}`} /></div>
        </div>
      </div>`
      }
    </details>
  </li>`;
}

/** Fetches your tenant's requests as HAR 1.2 (`GET /__mock/requests.har`, with the key in its header) and hands the browser a file. */
async function downloadHar(setError: (message: string) => void): Promise<void> {
  const answer = await call("GET", "/__mock/requests.har");
  if (!answer.ok) return setError("The server did not give the HAR file: see the request log.");
  setError("");
  const url = URL.createObjectURL(new Blob([JSON.stringify(answer.body, null, 2)], { type: "application/json" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: "prospectkit-requests.har" });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function RequestsView({ requests }: { requests: readonly LoggedRequest[] }) {
  const [operation, setOperation] = useState("all");
  const [status, setStatus] = useState("all");
  const [shown, setShown] = useState(PAGE);
  const [harError, setHarError] = useState("");
  const matches = STATUS_FILTERS[status] ?? STATUS_FILTERS["all"]!;
  const filtered = requests.filter(
    (entry) => (operation === "all" || (operation === "none" ? entry.operation === null : entry.operation === operation)) && matches(entry.status),
  );
  const newestFirst = filtered.slice(-shown).reverse();
  return html`<section aria-labelledby="requests-title">
    <div class="section-head">
      <h2 id="requests-title">Requests</h2>
      <div class="filters">
        <label>Operation
          <select id="filter-operation" value=${operation} onChange=${(e: Event) => setOperation((e.currentTarget as HTMLSelectElement).value)}>
            <option value="all">All operations</option>
            ${__OPERATIONS__.map((op) => html`<option value=${op}>${op}</option>`)}
            <option value="none">No operation (404, 405)</option>
          </select>
        </label>
        <label>Status
          <select id="filter-status" value=${status} onChange=${(e: Event) => setStatus((e.currentTarget as HTMLSelectElement).value)}>
            ${Object.keys(STATUS_FILTERS).map((key) => html`<option value=${key}>${key === "all" ? "All statuses" : key}</option>`)}
          </select>
        </label>
        <button type="button" id="download-har" onClick=${() => downloadHar(setHarError)} title="Your tenant's requests as an HTTP Archive (HAR 1.2), for DevTools or @mswjs/source">Download HAR</button>
      </div>
    </div>
    ${harError && html`<p class="notice error" role="alert">${harError}</p>`}
    <p class="summary" aria-live="polite">${filtered.length} of ${requests.length} requests${filtered.length > shown ? `, newest ${shown} shown` : ""}</p>
    ${
      requests.length === 0
        ? html`<p class="empty">No API request yet. Call <code>/v0</code> with your key (the banner prints a curl for each operation) and it shows up here at once.</p>`
        : html`<ul class="requests" id="request-log">${newestFirst.map((entry) => html`<${Row} key=${entry.requestId} entry=${entry} />`)}</ul>`
    }
    ${filtered.length > shown && html`<button type="button" onClick=${() => setShown(shown + PAGE)}>Show ${PAGE} more</button>`}
  </section>`;
}
