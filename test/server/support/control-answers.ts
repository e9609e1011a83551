/**
 * Holds the control API's OpenAPI document to what the server really answers: a suite watches
 * every answer to a `/__mock` route it receives (by wrapping `fetch`), and its last test checks
 * each one against `/__mock/openapi.json` with an independent validator (ajv): a status the
 * operation documents, its media type, a body valid against the documented schema.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll } from "vitest";
import { createControlOpenApiDocument } from "../../../mock/openapi/document.js";

/** One answer a suite received from a control route. */
export interface ControlAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** Routes served beside the document's operations (the console, its feed, the documents): not control operations. */
const OUTSIDE = /^\/__mock\/(?:console|events|openapi\.json)(?:\/|$)/;

/**
 * Starts watching: every `fetch` answer to a `/__mock` path is kept (its body read from a clone).
 * Call it at a file's top level: the watch ends with the file (`afterAll`), or earlier with `stop`.
 * @returns the answers seen so far, a promise of those still being read, and the function that stops watching
 */
export function watchControlAnswers(): { readonly answers: ControlAnswer[]; settled(): Promise<unknown>; stop(): void } {
  const answers: ControlAnswer[] = [];
  const original = globalThis.fetch;
  const pending: Promise<void>[] = [];
  globalThis.fetch = async (input, init) => {
    // Read before the call: a Request's body can be read once, by the call.
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const response = await original(input, init);
    const request = { url, method };
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/__mock/") && !OUTSIDE.test(pathname) && request.method !== "HEAD" && request.method !== "OPTIONS") {
      const copy = response.clone();
      pending.push(
        copy.text().then(
          (text) =>
            void answers.push({
              method: request.method,
              path: pathname,
              status: response.status,
              contentType: response.headers.get("content-type"),
              text,
            }),
          () => {},
        ),
      );
    }
    return response;
  };
  const stop = () => {
    if (globalThis.fetch !== original) globalThis.fetch = original;
  };
  // Never outlives the file that watches: a reused worker (npm run test:fast) runs other files next.
  afterAll(stop);
  return { answers, settled: () => Promise.all(pending), stop };
}

/** The operation of the document a method and path belong to, with its template; undefined for a path or method it has none for. */
function operationOf(document: any, method: string, path: string): { template: string; operation: any } | undefined {
  for (const [template, item] of Object.entries(document.paths as Record<string, any>)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`);
    if (pattern.test(path) && item[method.toLowerCase()] !== undefined) return { template, operation: item[method.toLowerCase()] };
  }
  return undefined;
}

/** An ajv validator holding the control document under `control.json` (reach a schema with `getSchema("control.json#/<pointer>")`). */
export function controlValidator(document: object = createControlOpenApiDocument()): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema(document, "control.json");
  return ajv;
}

/**
 * Checks answers against the control document.
 * @returns one line per answer the document does not describe (empty when it describes them all), and how many were checked
 */
export function undescribedAnswers(answers: readonly ControlAnswer[]): { readonly problems: string[]; readonly checked: number } {
  const document = createControlOpenApiDocument() as any;
  const ajv = controlValidator(document);
  const problems: string[] = [];
  let checked = 0;
  for (const answer of answers) {
    const found = operationOf(document, answer.method, answer.path);
    if (found === undefined) continue; // no route (404) or another method (405): not an operation's answer
    checked += 1;
    const where = `${answer.method} ${answer.path} → ${answer.status}`;
    const documented = found.operation.responses[String(answer.status)];
    if (documented === undefined) {
      problems.push(`${where}: status not documented (${Object.keys(found.operation.responses).join(", ")})`);
      continue;
    }
    const response = documented.$ref === undefined ? documented : document.components.responses[documented.$ref.split("/").at(-1)];
    const mediaType = (answer.contentType ?? "").split(";")[0]!.trim();
    if (response.content?.[mediaType] === undefined) {
      problems.push(`${where}: media type ${mediaType || "none"} not documented`);
      continue;
    }
    const at =
      documented.$ref === undefined
        ? `paths/${pointer(found.template, answer.method.toLowerCase())}/responses/${answer.status}/content/${pointer(mediaType)}/schema`
        : `${(documented.$ref as string).slice(2)}/content/${pointer(mediaType)}/schema`;
    const validate = ajv.getSchema(`control.json#/${at}`)!;
    if (!validate(JSON.parse(answer.text))) problems.push(`${where}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
  return { problems, checked };
}
