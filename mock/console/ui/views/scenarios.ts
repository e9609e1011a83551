/** Scenarios: arm faults for the next API calls (status, latency, dropped connection), clear them, reset the mock. */
import { useState } from "preact/hooks";
import { useAction } from "../action.js";
import { html } from "../html.js";
import { described, Field, Notice } from "../parts.js";

declare const __OPERATIONS__: readonly string[];

const KINDS = [
  ["status", "Error status"],
  ["latency", "Latency"],
  ["network-error", "Dropped connection"],
] as const;

function describeFault(entry: any): string {
  const fault = entry?.fault ?? {};
  const what =
    fault.kind === "status"
      ? `answer ${fault.status}${fault.retryAfter != null ? ` (Retry-After ${fault.retryAfter} s)` : ""}`
      : fault.kind === "latency"
        ? `wait ${fault.ms} ms`
        : fault.kind === "network-error"
          ? "drop the connection"
          : String(fault.kind ?? "fault");
  const scope = entry?.operation && entry.operation !== "all" ? entry.operation : "every operation";
  const left = entry?.remaining === null ? "until cleared" : `${entry?.remaining} more call${entry?.remaining === 1 ? "" : "s"}`;
  return `${what} · ${scope} · ${left}`;
}

function FaultForm() {
  const { state, run } = useAction();
  const [kind, setKind] = useState<string>("status");
  const [status, setStatus] = useState("503");
  const [retryAfter, setRetryAfter] = useState("");
  const [ms, setMs] = useState("2000");
  const [operation, setOperation] = useState("all");
  const [times, setTimes] = useState("1");
  const errors = state.fieldErrors;
  // Numbers go to the API as typed (a non-number as text), so its own validation answers.
  const number = (text: string) => (text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text);
  const submit = (event: Event) => {
    event.preventDefault();
    const body: Record<string, unknown> = { kind, operation, times: times === "" ? null : number(times) };
    if (kind === "status") {
      body["status"] = number(status);
      if (retryAfter !== "") body["retryAfter"] = number(retryAfter);
    }
    if (kind === "latency") body["ms"] = number(ms);
    void run("POST", "/__mock/faults", body, "Fault armed.");
  };
  const input = (id: string, value: string, set: (v: string) => void, error: string | undefined, extra: Record<string, unknown> = {}) =>
    html`<input ...${described(id, error)} ...${extra} value=${value} onInput=${(e: Event) => set((e.currentTarget as HTMLInputElement).value)} />`;
  return html`<form class="inline-form fault-form" onSubmit=${submit} aria-labelledby="arm-title">
    <h3 id="arm-title" class="sub">Arm a fault</h3>
    <${Field} id="fault-kind" label="Fault" error=${errors["/kind"]}>
      <select ...${described("fault-kind", errors["/kind"])} value=${kind} onChange=${(e: Event) => setKind((e.currentTarget as HTMLSelectElement).value)}>
        ${KINDS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
      </select>
    <//>
    ${
      kind === "status" &&
      html`<${Field} id="fault-status" label="Status" error=${errors["/status"]}>${input("fault-status", status, setStatus, errors["/status"], { inputmode: "numeric" })}<//>
      <${Field} id="fault-retry-after" label="Retry-After (seconds, optional)" error=${errors["/retryAfter"]}>${input("fault-retry-after", retryAfter, setRetryAfter, errors["/retryAfter"], { inputmode: "numeric" })}<//>`
    }
    ${kind === "latency" && html`<${Field} id="fault-ms" label="Delay (ms)" error=${errors["/ms"]}>${input("fault-ms", ms, setMs, errors["/ms"], { inputmode: "numeric" })}<//>`}
    <${Field} id="fault-operation" label="Operation" error=${errors["/operation"]}>
      <select ...${described("fault-operation", errors["/operation"])} value=${operation} onChange=${(e: Event) => setOperation((e.currentTarget as HTMLSelectElement).value)}>
        <option value="all">Every operation</option>
        ${__OPERATIONS__.map((op) => html`<option value=${op}>${op}</option>`)}
      </select>
    <//>
    <${Field} id="fault-times" label="For how many calls" hint="Empty: until cleared" error=${errors["/times"]}>${input("fault-times", times, setTimes, errors["/times"], { inputmode: "numeric" })}<//>
    <button type="submit" class="primary" disabled=${state.busy}>Arm fault</button>
    <${Notice} kind="error" text=${Object.keys(errors).length > 0 ? "The control API refused the fault: see the fields above." : state.error} />
    <${Notice} kind="ok" text=${state.done} />
  </form>`;
}

/** The scenarios view. */
export function ScenariosView({ faults }: { faults: readonly any[] }) {
  const clear = useAction();
  const reset = useAction();
  const [confirming, setConfirming] = useState(false);
  return html`<section aria-labelledby="scenarios-title">
    <h2 id="scenarios-title">Scenarios</h2>
    <div class="grid-2">
      <div class="card">
        <${FaultForm} />
      </div>
      <div class="card">
        <h3 class="sub">Armed faults <span class="count">${faults.length}</span></h3>
        ${
          faults.length === 0
            ? html`<p class="empty">None: every call is answered normally.</p>`
            : html`<ol class="faults" id="armed-faults">${faults.map((entry) => html`<li>${describeFault(entry)}</li>`)}</ol>`
        }
        <button type="button" disabled=${clear.state.busy || faults.length === 0} onClick=${() => clear.run("DELETE", "/__mock/faults")}>Clear all faults</button>
        <${Notice} kind="error" text=${clear.state.error} />
        <h3 class="sub">Reset</h3>
        <p class="note">Back to the start state for every tenant: demo and --data fixtures loaded again, the request log, faults and deliveries cleared.</p>
        ${
          confirming
            ? html`<span class="actions"><button type="button" class="danger" onClick=${() => (setConfirming(false), reset.run("POST", "/__mock/reset"))}>Yes, reset the mock</button>
              <button type="button" onClick=${() => setConfirming(false)}>Cancel</button></span>`
            : html`<button type="button" onClick=${() => setConfirming(true)}>Reset the mock…</button>`
        }
        <${Notice} kind="error" text=${reset.state.error} />
      </div>
    </div>
  </section>`;
}
