declare const __PROSPECTKIT_VERSION__: string | undefined;

/**
 * The version of this package, sent in the `user-agent` header. Written in from package.json at
 * build time (tsup and vitest `define`), so `changeset version` is the only place it changes.
 */
export const VERSION: string = typeof __PROSPECTKIT_VERSION__ === "string" ? __PROSPECTKIT_VERSION__ : "0.0.0-source";
