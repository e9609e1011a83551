/**
 * The console's HTML: a shell that loads the built script and style sheet. It never carries an
 * API key; it only says whether the server runs with the documented development key, which the
 * page then offers to fill in.
 * @module
 */

/** What the page links to. */
export interface ConsolePageInput {
  readonly script: string;
  readonly style: string;
  readonly icon: string;
  readonly developmentKey: boolean;
}

/**
 * The page.
 * @param input - the asset paths and the development-key flag
 * @returns the HTML document
 */
export function consolePage(input: ConsolePageInput): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>prospectkit mock console</title>
<link rel="icon" href="${input.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${input.style}">
<script type="module" src="${input.script}"></script>
</head>
<body data-development-key="${input.developmentKey}">
<noscript><p>The prospectkit mock console needs JavaScript. The control API under /__mock works without it.</p></noscript>
<div id="app"></div>
</body>
</html>
`;
}
