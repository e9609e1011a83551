import type * as z from "zod/mini";

/**
 * The output type of an object shape with exactly its declared fields (no index signature),
 * for response types whose schemas are loose at run time.
 * @internal
 */
export type Exact<Shape extends z.core.$ZodLooseShape> = z.infer<z.ZodMiniObject<Shape, z.core.$strip>>;
