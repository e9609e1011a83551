/** Scenarios: arm faults for the next API calls of your tenant (status, latency, dropped connection, malformed body), optionally aimed at one request; clear them; reset your tenant. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { ActionButton, Field, Notice, useAction, useForm } from "../parts.js";
import type { PendingFault } from "../types.js";

declare const __OPERATIONS__: readonly string[];
/** What a match may name, per operation: path parameters, and body fields with their types (from the operation table). */
declare const __MATCH_FIELDS__: Readonly<
  Record<string, { params: readonly string[]; body: Readonly<Record<string, "string" | "number" | "boolean">> }>
>;

type Fault = PendingFault["fault"];
/** The kinds the form arms, and an armed fault of one of them. */
type FormKind = "status" | "latency" | "network-error" | "malformed-body";
type FaultOf<Kind extends FormKind> = Extract<Fault, { kind: Kind }>;

/** The kinds of fault: the form's name for each, and what an armed one does. */
const KINDS: { readonly [Kind in FormKind]: { label: string; effect(fault: FaultOf<Kind>): string } } = {
  status: {
    label: "Error status",
    effect: (f) => `answer ${f.status}${f.retryAfterSeconds != null ? ` (Retry-After ${f.retryAfterSeconds} s)` : ""}`,
  },
  latency: { label: "Latency", effect: (f) => `wait ${f.ms} ms` },
  "network-error": { label: "Dropped connection", effect: () => "drop the connection" },
  "malformed-body": { label: "Malformed body", effect: () => "send a body that is not JSON" },
};

function isFormKind(fault: Fault): fault is FaultOf<FormKind> {
  return Object.hasOwn(KINDS, fault.kind);
}

/** What an armed fault of the form's kinds does (`kind` is its kind, so the entry fits the fault). */
function effectOf<Kind extends FormKind>(kind: Kind, fault: FaultOf<Kind>): string {
  return KINDS[kind].effect(fault);
}

function describeFault(entry: PendingFault): string {
  const fault = entry?.fault ?? {};
  // Every kind the control API lists is a form kind today; a newer server's other kind is shown by name.
  const what = isFormKind(fault) ? effectOf(fault.kind, fault) : String((fault as { readonly kind?: string }).kind ?? "fault");
  const scope = entry?.operation && entry.operation !== "all" ? entry.operation : "every operation";
  const only = Object.entries(entry?.match ?? {}).map(([field, value]) => ` where ${field} = ${JSON.stringify(value)}`);
  const left = entry?.remaining === null ? "until cleared" : `${entry?.remaining} more call${entry?.remaining === 1 ? "" : "s"}`;
  return `${what} · ${scope}${only.join(" and")} · ${left}`;
}

/** The fields a match may name for one operation, as options of the "Only where" select. */
function matchOptions(operation: string): string[][] {
  const fields = __MATCH_FIELDS__[operation];
  const names = fields === undefined ? [] : [...fields.params, ...Object.keys(fields.body)];
  return [["", "Every call"], ...names.map((name) => [name, name])];
}

function FaultForm() {
  const initial = { kind: "status", status: "503", retryAfter: "", ms: "2000", operation: "all", times: "1", matchField: "", matchValue: "" };
  const { state, run, values, bind, onSubmit, setValues } = useForm(initial);
  const { kind, status, retryAfter, ms, operation, times, matchField, matchValue } = values;
  // Numbers go to the API as typed (a non-number as text), so its own validation answers.
  const number = (text: string) => (text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text);
  // A match value as its field's type: a boolean field takes true or false, a number field a number; anything else as typed.
  const typed = (field: string, text: string): unknown => {
    const type = __MATCH_FIELDS__[operation]?.body[field];
    if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
    return type === "number" ? number(text) : text;
  };
  const submit = onSubmit(() => {
    const body: Record<string, unknown> = { kind, operation, times: times === "" ? null : number(times) };
    if (kind === "status") {
      body["status"] = number(status);
      if (retryAfter !== "") body["retryAfter"] = number(retryAfter);
    }
    if (kind === "latency") body["ms"] = number(ms);
    if (operation !== "all" && matchField !== "") body["match"] = { [matchField]: typed(matchField, matchValue) };
    return run("POST", "/__mock/faults", body, "Fault armed.");
  });
  const kinds = Object.entries(KINDS).map(([value, { label }]) => [value, label]);
  const operations = [["all", "Every operation"], ...__OPERATIONS__.map((op) => [op, op])];
  const matchError = state.fieldErrors[`/match/${matchField}`] ?? state.fieldErrors["/match"];
  // Another operation has other fields: the match starts again from "Every call".
  const onOperation = (value: unknown) => setValues((current) => ({ ...current, operation: String(value), matchField: "", matchValue: "" }));
  return html`<form class="inline-form fault-form" onSubmit=${submit} aria-labelledby="arm-title">
    <h3 id="arm-title" class="sub">Arm a fault</h3>
    <${Field} id="fault-kind" label="Fault" options=${kinds} ...${bind("kind")} />
    ${
      kind === "status" &&
      html`<${Field} id="fault-status" label="Status" inputmode="numeric" ...${bind("status")} />
      <${Field} id="fault-retry-after" label="Retry-After (seconds, optional)" inputmode="numeric" ...${bind("retryAfter")} />`
    }
    ${kind === "latency" && html`<${Field} id="fault-ms" label="Delay (ms)" inputmode="numeric" ...${bind("ms")} />`}
    <${Field} id="fault-operation" label="Operation" options=${operations} ...${bind("operation")} onValue=${onOperation} />
    ${
      operation !== "all" &&
      html`<${Field} id="fault-match-field" label="Only where" hint="A path parameter or body field of the request" options=${matchOptions(operation)} ...${bind("matchField")} />`
    }
    ${
      operation !== "all" &&
      matchField !== "" &&
      html`<${Field} id="fault-match-value" label=${`${matchField} equals`} ...${bind("matchValue")} error=${matchError} />`
    }
    <${Field} id="fault-times" label="For how many calls" hint="Empty: until cleared" inputmode="numeric" ...${bind("times")} />
    <button type="submit" class="primary" disabled=${state.busy}>Arm fault</button>
    <${Notice} kind="error" text=${Object.keys(state.fieldErrors).length > 0 ? "The control API refused the fault: see the fields above." : state.error} />
    <${Notice} kind="ok" text=${state.done} />
  </form>`;
}

/** The Scenarios view: the fault form, your tenant's armed faults, and your tenant's reset. */
export function ScenariosView({ faults }: { faults: readonly PendingFault[] }) {
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
        <p class="note">They apply to the requests made with your key only.</p>
        ${
          faults.length === 0
            ? html`<p class="empty">None: every call is answered normally.</p>`
            : html`<ol class="faults" id="armed-faults">${faults.map(
                (entry) =>
                  html`<li>${describeFault(entry)}${
                    entry.nearMisses?.length
                      ? html`<ul class="near-misses" aria-label="Requests that missed this fault's match">${entry.nearMisses.map(
                          (miss) =>
                            html`<li class="near-miss">Near miss: <code>${miss.field}</code> was <code>${miss.seen === undefined ? "not sent" : JSON.stringify(miss.seen)}</code>, not <code>${JSON.stringify(miss.wanted)}</code></li>`,
                        )}</ul>`
                      : ""
                  }</li>`,
              )}</ol>`
        }
        <${ActionButton} method="DELETE" path="/__mock/faults" label="Clear all faults" disabled=${faults.length === 0} />
        <h3 class="sub">Reset your tenant</h3>
        <p class="note" id="reset-scope">Back to the start state for your tenant only, the one this console shows: its demo and --data fixtures loaded again (a tenant made by POST /__mock/tenants is empty again), its requests, faults, events, deliveries and inbox messages forgotten, its keys kept. Other tenants are untouched.</p>
        ${
          confirming
            ? html`<span class="actions"><button type="button" class="danger" onClick=${() => (setConfirming(false), reset.run("POST", "/__mock/reset"))}>Yes, reset your tenant</button>
              <button type="button" onClick=${() => setConfirming(false)}>Cancel</button></span>`
            : html`<button type="button" onClick=${() => setConfirming(true)}>Reset your tenant…</button>`
        }
        <${Notice} kind="error" text=${reset.state.error} />
      </div>
    </div>
  </section>`;
}
