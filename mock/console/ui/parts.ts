/** Small building blocks shared by the views: JSON display, labelled fields, status badges, times. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";

/** How much of a JSON text is shown before "Show all" (a 1 MiB payload stays responsive). */
const PREVIEW_CHARS = 20_000;

/** Any JSON value, shown pretty-printed; a long one is cut until asked for. Never throws. */
export function Json({ value, label }: { value: unknown; label: string }) {
  const [all, setAll] = useState(false);
  let text: string;
  try {
    text = value === undefined ? "(none)" : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    text = String(value);
  }
  const cut = !all && text.length > PREVIEW_CHARS;
  return html`<div class="json">
    <pre tabindex="0" aria-label=${label}>${cut ? `${text.slice(0, PREVIEW_CHARS)}\n…` : text}</pre>
    ${cut && html`<button type="button" class="link" onClick=${() => setAll(true)}>Show all (${Math.ceil(text.length / 1024)} kB)</button>`}
  </div>`;
}

/** What a labelled field shows: the API's error for it (tied to the control for screen readers), else its hint. */
interface FieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  value: string;
  onValue(value: string): void;
  [attribute: string]: unknown;
}

function field({ id, label, error, hint }: FieldProps, control: unknown) {
  return html`<div class=${`field${error ? " invalid" : ""}`}>
    <label for=${id}>${label}</label>
    ${control}
    ${hint && !error && html`<p class="hint" id=${`${id}-hint`}>${hint}</p>`}
    ${error && html`<p class="error" id=${`${id}-error`}>${error}</p>`}
  </div>`;
}

/** The aria attributes of a control whose field may carry an error. */
const described = (id: string, error: string | undefined) => ({
  id,
  "aria-invalid": error ? "true" : undefined,
  "aria-describedby": error ? `${id}-error` : undefined,
});

/** A labelled text input; props other than the field's go to the input. */
export function TextField(props: FieldProps) {
  const { id, label, error, hint, value, onValue, ...attributes } = props;
  const onInput = (event: Event) => onValue((event.currentTarget as HTMLInputElement).value);
  return field(props, html`<input ...${described(id, error)} ...${attributes} value=${value} onInput=${onInput} />`);
}

/** A labelled select of `options`, each `[value, text]`. */
export function SelectField(props: FieldProps & { options: readonly (readonly [string, string])[] }) {
  const onChange = (event: Event) => props.onValue((event.currentTarget as HTMLSelectElement).value);
  return field(
    props,
    html`<select ...${described(props.id, props.error)} value=${props.value} onChange=${onChange}>
      ${props.options.map(([value, text]) => html`<option value=${value}>${text}</option>`)}
    </select>`,
  );
}

/** A status code as a coloured badge with its class in words (2xx, 4xx, 5xx, dropped). */
export function StatusBadge({ status }: { status: number }) {
  const kind = status === 0 ? "dropped" : status < 300 ? "ok" : status < 500 ? "client" : "server";
  return html`<span class=${`badge ${kind}`}>${status === 0 ? "dropped" : status}</span>`;
}

/** A message with the request ID of the answer, for errors a form cannot pin to a field. */
export function Notice({ kind, text }: { kind: "error" | "ok"; text: string | null }) {
  if (!text) return null;
  return html`<p class=${`notice ${kind}`} role=${kind === "error" ? "alert" : "status"}>${text}</p>`;
}

/** `12:00:01.234` from an ISO time (the mock's clock, shown in UTC). */
export function clock(iso: unknown): string {
  return typeof iso === "string" && iso.length >= 23 ? iso.slice(11, 23) : String(iso ?? "");
}

/** An ISO time shortened for tables: `2024-02-29 12:00:01`. */
export function when(iso: unknown): string {
  return typeof iso === "string" ? iso.replace("T", " ").slice(0, 19) : "—";
}
