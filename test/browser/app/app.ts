/**
 * The small app of the browser recipe (docs/testing.md), as `src/app.ts` of the example project:
 * what the recipe's `src/main.ts` renders. It reads a page and shows its name, deactivates a
 * webhook subscription on a click, and shows a failure as the SDK's typed error. The client is
 * the app's own, the same in development and production; `maxRetries: 0`, as the recipe advises,
 * so a fault armed once from DevTools is the error the UI shows.
 */
import { APIError, createClient } from "prospectkit";

const client = createClient({ apiKey: "pk_test_browser", baseUrl: "https://api.prospectkit.test", maxRetries: 0 });

function show(root: HTMLElement, id: string, text: string): void {
  const element = root.querySelector<HTMLElement>(`#${id}`);
  if (element !== null) element.textContent = text;
}

function failure(error: unknown): string {
  return error instanceof APIError ? `${error.name} ${error.status}` : String(error);
}

async function readPage(root: HTMLElement): Promise<void> {
  try {
    const page = await client.getPage({ pageGroupId: "pagegroup_browser", pageId: "page_browser" });
    show(root, "page", page.effectiveName);
    show(root, "error", "");
  } catch (error) {
    show(root, "error", failure(error));
  }
}

/** Renders the app into `root` and reads the page. */
export function renderApp(root: HTMLElement): void {
  root.innerHTML = `
    <h1 id="title">Pages</h1>
    <p>Page: <span id="page">loading…</span></p>
    <p>Subscription: <span id="subscription">not changed</span></p>
    <p><button id="deactivate">Deactivate subscription</button> <button id="refresh">Read the page again</button></p>
    <p id="error" role="alert"></p>`;
  root.querySelector("#refresh")?.addEventListener("click", () => void readPage(root));
  root.querySelector("#deactivate")?.addEventListener("click", async () => {
    try {
      const subscription = await client.updateWebhookSubscription({ subscriptionId: "whsub_browser", active: false });
      show(root, "subscription", subscription.active ? "active" : "inactive");
    } catch (error) {
      show(root, "error", failure(error));
    }
  });
  void readPage(root);
}
