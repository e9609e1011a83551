/** `useAction`: runs one call for a form and keeps what the API said (field errors, message). */
import { useState } from "preact/hooks";
import { type Answer, call } from "./api.js";

/** A form's last answer. */
export interface ActionState {
  readonly busy: boolean;
  readonly fieldErrors: Readonly<Record<string, string>>;
  readonly error: string | null;
  readonly done: string | null;
}

const IDLE: ActionState = { busy: false, fieldErrors: {}, error: null, done: null };

/**
 * A form action.
 * @returns the state and `run(method, path, body, doneText)` resolving to the answer
 */
export function useAction() {
  const [state, setState] = useState<ActionState>(IDLE);
  const run = async (method: string, path: string, body?: unknown, doneText = ""): Promise<Answer> => {
    setState({ ...IDLE, busy: true });
    const answer = await call(method, path, body);
    const errors = answer.fieldErrors;
    const unplaced = Object.keys(errors).length === 0;
    setState({
      busy: false,
      fieldErrors: errors,
      error: answer.ok ? null : `${answer.message}${unplaced ? "" : ""} (${answer.status}${answer.requestId ? `, ${answer.requestId}` : ""})`,
      done: answer.ok ? doneText : null,
    });
    return answer;
  };
  return { state, run, clear: () => setState(IDLE) };
}
