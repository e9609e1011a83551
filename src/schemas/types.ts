/**
 * The fields a type declares by name, without its index signature. Response schemas are loose at
 * run time (unknown fields are kept, for forward compatibility), but their types list exactly the
 * spec's fields: `KnownFields<z.output<typeof ProspectLog>>` is the spec's ProspectLog result.
 */
export type KnownFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
