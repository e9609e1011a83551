/** Small building blocks shared by the views: calls from forms and buttons, JSON display, labelled fields, status badges, times. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { type Answer, call } from "./api.js";

const IDLE = { busy: false, fieldErrors: {} as Readonly<Record<string, string>>, error: null as string | null, done: null as string | null };

/**
 * One call made from a form or a button, keeping what the API said (field errors, message).
 * @returns the state and `run(method, path, body, doneText)` resolving to the answer
 */
export function useAction() {
  const [state, setState] = useState(IDLE);
  const run = async (method: string, path: string, body?: unknown, doneText = ""): Promise<Answer> => {
    setState({ ...IDLE, busy: true });
    const answer = await call(method, path, body);
    setState({
      busy: false,
      fieldErrors: answer.fieldErrors,
      error: answer.ok ? null : `${answer.message} (${answer.status}${answer.requestId ? `, ${answer.requestId}` : ""})`,
      done: answer.ok ? doneText : null,
    });
    return answer;
  };
  return { state, run };
}

/**
 * A form: one call (as {@link useAction}), its values, and `bind(name)`: the props that tie a
 * {@link Field} to a value and to the API's error at the pointer `/name`.
 * @param initial - the values it starts from
 * @returns the call's state and `run`, the values and `setValues`, `bind`, and `onSubmit(send)`: a submit handler that calls `send`
 */
export function useForm<T extends Record<string, unknown>>(initial: T) {
  const action = useAction();
  const [values, setValues] = useState(initial);
  const bind = (name: keyof T & string) => ({
    value: values[name],
    onValue: (value: unknown) => setValues((current) => ({ ...current, [name]: value })),
    error: action.state.fieldErrors[`/${name}`],
  });
  const onSubmit = (send: () => unknown) => (event: Event) => {
    event.preventDefault();
    void send();
  };
  return { ...action, values, setValues, bind, onSubmit };
}

/** What an {@link ActionButton} calls and shows; other props (`class`, `aria-label`) go to the button. */
export interface ActionButtonProps extends Readonly<Record<string, unknown>> {
  readonly method?: string;
  readonly path: string;
  readonly body?: unknown;
  readonly label: string;
  readonly disabled?: boolean;
}

/** A button making one call (`POST` unless told), followed by the error it met, if any; other props go to the button. */
export function ActionButton({ method = "POST", path, body, label, disabled, ...attributes }: ActionButtonProps) {
  const { state, run } = useAction();
  return html`<button type="button" ...${attributes} disabled=${state.busy || disabled} onClick=${() => run(method, path, body)}>${label}</button>
    <${Notice} kind="error" text=${state.error} />`;
}

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

/** What a {@link Field} shows and where its value goes; other props (`type`, `inputmode`, …) go to the input. */
export interface FieldProps extends Readonly<Record<string, unknown>> {
  readonly id: string;
  readonly label: string;
  /** The API's message for this field, if it refused it. */
  readonly error?: string;
  readonly hint?: string;
  readonly value: unknown;
  readonly onValue: (value: string) => void;
  /** A select's choices as `[value, text]` pairs; without them the field is an input. */
  readonly options?: readonly (readonly [string, string])[];
}

/**
 * A labelled input, or a select of `options` (`[value, text]` pairs), with the API's error for it
 * below (tied to the control for screen readers), else its hint. Other props go to the input.
 */
export function Field({ id, label, error, hint, value, onValue, options, ...attributes }: FieldProps) {
  const aria = { id, "aria-invalid": error ? "true" : undefined, "aria-describedby": error ? `${id}-error` : undefined };
  const set = (event: Event) => onValue((event.currentTarget as HTMLInputElement | HTMLSelectElement).value);
  return html`<div class=${`field${error ? " invalid" : ""}`}>
    <label for=${id}>${label}</label>
    ${
      options
        ? html`<select ...${aria} value=${value} onChange=${set}>${options.map(([option, text]) => html`<option value=${option}>${text}</option>`)}</select>`
        : html`<input ...${aria} ...${attributes} value=${value} onInput=${set} />`
    }
    ${hint && !error && html`<p class="hint" id=${`${id}-hint`}>${hint}</p>`}
    ${error && html`<p class="error" id=${`${id}-error`}>${error}</p>`}
  </div>`;
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
