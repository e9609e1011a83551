/**
 * The console's page, a shell that loads the built script and style sheet, and those files, named
 * after a hash of their content (cached for a year, two builds never mixed). The page never carries
 * an API key; it only says whether the server accepts the development key, which it then offers.
 * @module
 */
import { fnv1a32 } from "../lib/hash.js";

declare const __PROSPECTKIT_CONSOLE__: { readonly js: string; readonly css: string } | undefined;

/** The tab icon: the console's "pk" mark. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3b4fd8"/><text x="16" y="21.5" font-family="system-ui,sans-serif" font-size="14" font-weight="700" fill="#fff" text-anchor="middle">pk</text></svg>`;

/**
 * The script, style sheet and icon: the path each is served under, its content type and its text.
 * @param base - the console's path
 * @returns the files, or null when this copy was built without them (a source checkout run outside the build)
 */
export function consoleAssets(base: string) {
  if (typeof __PROSPECTKIT_CONSOLE__ === "undefined") return null;
  const { js, css } = __PROSPECTKIT_CONSOLE__;
  // A short, stable content tag (not a security hash): FNV-1a in base 36.
  const tag = (text: string) => fnv1a32(text).toString(36);
  return {
    script: { path: `${base}/app.${tag(js)}.js`, contentType: "text/javascript; charset=utf-8", body: js },
    style: { path: `${base}/app.${tag(css)}.css`, contentType: "text/css; charset=utf-8", body: css },
    icon: { path: `${base}/icon.${tag(ICON)}.svg`, contentType: "image/svg+xml", body: ICON },
  };
}

/** The files the page links. */
export type ConsoleAssets = NonNullable<ReturnType<typeof consoleAssets>>;

/**
 * The page.
 * @param assets - the files it links
 * @param developmentKey - whether the server accepts the development key now
 * @returns the HTML document
 */
export function consolePage(assets: ConsoleAssets, developmentKey: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>prospectkit mock console</title>
<link rel="icon" href="${assets.icon.path}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.style.path}">
<script type="module" src="${assets.script.path}"></script>
</head>
<body data-development-key="${developmentKey}">
<noscript><p>The prospectkit mock console needs JavaScript. The control API under /__mock works without it.</p></noscript>
<div id="app"></div>
</body>
</html>
`;
}
