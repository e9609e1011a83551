/**
 * The console's built assets, as the build wrote them into this bundle, with the names they are
 * served under: each name carries a hash of its content, so a browser may cache it for a year
 * and a new build is never mixed with an old one.
 * @module
 */
import { fnv1a32 } from "../lib/hash.js";

declare const __PROSPECTKIT_CONSOLE__: { readonly js: string; readonly css: string } | undefined;

/** One asset: its path under the console and how it is served. */
export interface ConsoleAsset {
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

/** A short, stable content tag (not a security hash): FNV-1a in base 36. */
const contentTag = (text: string): string => fnv1a32(text).toString(36);

/** The tab icon: the console's "pk" mark. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3b4fd8"/><text x="16" y="21.5" font-family="system-ui,sans-serif" font-size="14" font-weight="700" fill="#fff" text-anchor="middle">pk</text></svg>`;

/** The script, style sheet and icon, or null when this copy was built without them (a source checkout run outside the build). */
export function consoleAssets(base: string): { readonly script: ConsoleAsset; readonly style: ConsoleAsset; readonly icon: ConsoleAsset } | null {
  if (typeof __PROSPECTKIT_CONSOLE__ === "undefined") return null;
  const { js, css } = __PROSPECTKIT_CONSOLE__;
  return {
    script: { path: `${base}/app.${contentTag(js)}.js`, contentType: "text/javascript; charset=utf-8", body: js },
    style: { path: `${base}/app.${contentTag(css)}.css`, contentType: "text/css; charset=utf-8", body: css },
    icon: { path: `${base}/icon.${contentTag(ICON)}.svg`, contentType: "image/svg+xml", body: ICON },
  };
}
