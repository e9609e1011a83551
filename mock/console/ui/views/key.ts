/** Asks for the API key; checks it with the server before keeping it for this tab. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { call, offeredDevelopmentKey, unauthorizedMessage } from "../api.js";

export function KeyForm({ message, onKey }: { message: string | null; onKey(key: string): void }) {
  const prefill = offeredDevelopmentKey() ?? "";
  const [key, setKey] = useState(prefill);
  const [error, setError] = useState<string | null>(message);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (key === "") return setError(unauthorizedMessage("missing_api_key"));
    setBusy(true);
    const answer = await call("GET", "/__mock/faults", undefined, key);
    setBusy(false);
    if (answer.ok) return onKey(key);
    setError(answer.status === 401 ? unauthorizedMessage(answer.code) : answer.message);
  };
  return html`<main class="key-screen">
    <form class="card key-form" onSubmit=${submit} aria-labelledby="key-title">
      <h1 id="key-title"><span class="logo" aria-hidden="true">pk</span> prospectkit mock console</h1>
      <p>The console shows and drives this mock server for one tenant: the one your API key belongs to.</p>
      <label for="api-key">API key</label>
      <input id="api-key" type="password" autocomplete="off" spellcheck="false" value=${key}
        aria-invalid=${error ? "true" : undefined} aria-describedby=${error ? "api-key-error" : "api-key-hint"}
        onInput=${(e: Event) => setKey((e.currentTarget as HTMLInputElement).value)} />
      ${
        error
          ? html`<p class="error" id="api-key-error" role="alert">${error}</p>`
          : html`<p class="hint" id="api-key-hint">${prefill ? "Filled in: the server runs with the development key." : "The server's banner prints it."} Kept in this tab only (sessionStorage), sent as the x-api-key header.</p>`
      }
      <button type="submit" class="primary" disabled=${busy}>Open the console</button>
    </form>
  </main>`;
}
