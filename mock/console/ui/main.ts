/** The console's entry: renders the app into `#app`. Views are htm templates bound to Preact (`htm/preact`): no build-time JSX. */
import { html } from "htm/preact";
import { render } from "preact";
import { App } from "./app.js";

const root = document.getElementById("app");
if (root) render(html`<${App} />`, root);
