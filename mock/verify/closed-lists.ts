/**
 * The spec's closed lists, for judging answers: the SDK's response schemas accept what a later
 * version of the API may add (an event kind it does not know yet, as any string), which is right
 * for a client and wrong for a contract check. {@link closedLists} derives, from those very
 * schemas, one where every such open field is the spec's closed list again, so the two can never
 * disagree on anything else.
 * @module
 */
import type * as z from "zod/mini";
import { WebhookEventKind, WebhookEventKindInResponse } from "../../src/schemas/index.js";

/** Each forward-compatible schema of src/schemas, and the spec's closed list it stands for. */
const CLOSED: ReadonlyMap<z.ZodMiniType, z.ZodMiniType> = new Map<z.ZodMiniType, z.ZodMiniType>([[WebhookEventKindInResponse, WebhookEventKind]]);

/** The parts of a schema's definition that hold other schemas, by kind. */
type Def = { type: string; shape?: Record<string, z.ZodMiniType>; element?: z.ZodMiniType; innerType?: z.ZodMiniType };

const derived = new WeakMap<z.ZodMiniType, z.ZodMiniType>();

/**
 * `schema` with every open field of the spec's closed lists closed again (objects, arrays,
 * nullable and optional fields are walked); the same schema when it holds none.
 * @param schema - a response schema of src/schemas
 * @returns the schema that checks an answer against the spec's closed lists
 */
export function closedLists<T extends z.ZodMiniType>(schema: T): T {
  const closed = CLOSED.get(schema) ?? derived.get(schema);
  if (closed !== undefined) return closed as T;
  const def = schema._zod.def as unknown as Def;
  let next: Partial<Def> | undefined;
  if (def.type === "object" && def.shape !== undefined) {
    const shape = Object.fromEntries(Object.entries(def.shape).map(([key, field]) => [key, closedLists(field)]));
    if (Object.entries(shape).some(([key, field]) => field !== def.shape![key])) next = { shape };
  } else if (def.type === "array" && def.element !== undefined) {
    const element = closedLists(def.element);
    if (element !== def.element) next = { element };
  } else if ((def.type === "nullable" || def.type === "optional") && def.innerType !== undefined) {
    const innerType = closedLists(def.innerType);
    if (innerType !== def.innerType) next = { innerType };
  }
  const result = next === undefined ? schema : (schema.clone({ ...schema._zod.def, ...next } as never) as T);
  derived.set(schema, result);
  return result;
}
