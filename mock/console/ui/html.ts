/** `html`: htm bound to Preact's `h`, so views are tagged templates with no build-time JSX. */
export { html } from "htm/preact";
