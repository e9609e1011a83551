/** The version of this package, sent in the `user-agent` header (kept equal to package.json by a test). */
export const VERSION = "0.0.0";
