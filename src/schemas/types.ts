/**
 * The fields a type declares by name, without its index signature. Response schemas are loose at
 * run time (unknown fields are kept, for forward compatibility), but their types list exactly the
 * spec's fields: `KnownFields<z.output<typeof ProspectLog>>` is the spec's ProspectLog result.
 */
export type KnownFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** An array type that also takes a read-only array (an `as const` list); any other type as it is. */
export type ReadonlyArrayOk<V> = V extends readonly (infer E)[] ? readonly E[] : V;

/** `T` with every array field also taking a read-only array, since the SDK never changes its input. */
export type AcceptReadonly<T> = { [K in keyof T]: ReadonlyArrayOk<T[K]> };
