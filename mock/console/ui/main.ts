/** The console's entry: renders the app into `#app`. */
import { render } from "preact";
import { App } from "./app.js";
import { html } from "./html.js";

const root = document.getElementById("app");
if (root) render(html`<${App} />`, root);
