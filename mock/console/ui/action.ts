/** `useAction`: runs one call for a form and keeps what the API said (field errors, message); `ActionButton`: one call from a button. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { type Answer, call } from "./api.js";
import { Notice } from "./parts.js";

const IDLE = { busy: false, fieldErrors: {} as Readonly<Record<string, string>>, error: null as string | null, done: null as string | null };

/**
 * A form action.
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

/** A button making one call (`POST` unless told), followed by the error it met, if any; other props go to the button. */
export function ActionButton({ method = "POST", path, body, label, disabled, ...attributes }: Record<string, any>) {
  const { state, run } = useAction();
  return html`<button type="button" ...${attributes} disabled=${state.busy || disabled} onClick=${() => run(method, path, body)}>${label}</button>
    <${Notice} kind="error" text=${state.error} />`;
}
