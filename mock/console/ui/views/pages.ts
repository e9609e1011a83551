/** Page groups, pages and their versions, with create, process and publish through the control API. */
import { useState } from "preact/hooks";
import { useAction } from "../action.js";
import { html } from "../html.js";
import { described, Field, Notice, when } from "../parts.js";

const enc = encodeURIComponent;

function NewPageForm({ groups }: { groups: readonly any[] }) {
  const { state, run } = useAction();
  const [group, setGroup] = useState("");
  const [customName, setCustomName] = useState("");
  const [computedName, setComputedName] = useState("");
  const submit = async (event: Event) => {
    event.preventDefault();
    const body: Record<string, string> = {};
    if (group) body["pageGroupId"] = group;
    if (customName) body["customName"] = customName;
    if (computedName) body["computedName"] = computedName;
    const answer = await run("POST", "/__mock/pages", body, "Page created.");
    if (answer.ok) setCustomName(""), setComputedName("");
  };
  const errors = state.fieldErrors;
  return html`<details class="create"><summary id="new-page-title">New page</summary><form class="inline-form" onSubmit=${submit} aria-labelledby="new-page-title">
    <${Field} id="new-page-group" label="Page group" error=${errors["/pageGroupId"]}>
      <select ...${described("new-page-group", errors["/pageGroupId"])} value=${group} onChange=${(e: Event) => setGroup((e.currentTarget as HTMLSelectElement).value)}>
        <option value="">A new page group</option>
        ${groups.map((g) => html`<option value=${g.id}>${g.id}</option>`)}
      </select>
    <//>
    <${Field} id="new-page-custom" label="Custom name" error=${errors["/customName"]}>
      <input ...${described("new-page-custom", errors["/customName"])} value=${customName} onInput=${(e: Event) => setCustomName((e.currentTarget as HTMLInputElement).value)} />
    <//>
    <${Field} id="new-page-computed" label="Computed name" error=${errors["/computedName"]}>
      <input ...${described("new-page-computed", errors["/computedName"])} value=${computedName} onInput=${(e: Event) => setComputedName((e.currentTarget as HTMLInputElement).value)} />
    <//>
    <button type="submit" disabled=${state.busy}>Create page</button>
    <${Notice} kind="error" text=${state.error} />
  </form></details>`;
}

/** Processing sets the page's computed name: the field starts from the version's, else the page's current one (never its custom name). */
function ProcessForm({ version, pageComputedName }: { version: any; pageComputedName: string }) {
  const { state, run } = useAction();
  const [name, setName] = useState(version.computedName ?? pageComputedName);
  const id = `process-${version.id}`;
  const error = state.fieldErrors["/computedName"];
  const submit = (event: Event) => {
    event.preventDefault();
    void run("POST", `/__mock/page_versions/${enc(version.id)}/process`, { computedName: name });
  };
  return html`<form class="row-form" onSubmit=${submit}>
    <${Field} id=${id} label=${`Computed name for version ${version.versionNumber}`} error=${error}>
      <input ...${described(id, error)} value=${name} onInput=${(e: Event) => setName((e.currentTarget as HTMLInputElement).value)} />
    <//>
    <button type="submit" disabled=${state.busy}>Process</button>
    <${Notice} kind="error" text=${error ? null : state.error} />
  </form>`;
}

function PublishButton({ version, pageName }: { version: any; pageName: string }) {
  const { state, run } = useAction();
  return html`<span>
    <button type="button" class="primary" disabled=${state.busy} aria-label=${`Publish version ${version.versionNumber} of ${pageName}`}
      onClick=${() => run("POST", `/__mock/page_versions/${enc(version.id)}/publish`)}>Publish</button>
    <${Notice} kind="error" text=${state.error} />
  </span>`;
}

function PageCard({ page }: { page: any }) {
  const { state, run } = useAction();
  const versions: any[] = Array.isArray(page.versions) ? page.versions : [];
  const name = String(page.effectiveName ?? page.pageId);
  const published = page.publishedVersion?.versionNumber;
  return html`<article class="page" aria-labelledby=${`page-${page.pageId}`}>
    <header>
      <h3 id=${`page-${page.pageId}`}>${name}</h3>
      <span class=${`pill ${published ? "ok" : ""}`}>${published ? `v${published} published` : "never published"}</span>
    </header>
    <p class="meta"><code>${page.pageGroupId}</code> / <code>${page.pageId}</code>${page.customName ? ` · custom name “${page.customName}”` : ""} · computed name “${page.computedName}”</p>
    <table class="versions">
      <caption class="visually-hidden">Versions of ${name}</caption>
      <thead><tr><th scope="col">Version</th><th scope="col">Status</th><th scope="col">Computed name</th><th scope="col">Updated</th><th scope="col">Action</th></tr></thead>
      <tbody>
        ${versions.map(
          (version) => html`<tr key=${version.id}>
            <td data-label="Version">v${version.versionNumber}</td>
            <td data-label="Status"><span class=${`pill ${version.status}`}>${version.status}</span></td>
            <td data-label="Computed name">${version.computedName ?? "—"}</td>
            <td data-label="Updated" class="when">${when(version.publishedAt ?? version.processedAt ?? version.createdAt)}</td>
            <td data-label="Action">
              ${version.status === "created" && html`<${ProcessForm} version=${version} pageComputedName=${String(page.computedName ?? "")} />`}
              ${version.status === "processed" && html`<${PublishButton} version=${version} pageName=${name} />`}
              ${version.status === "published" && (version.versionNumber === published ? "live" : "")}
            </td>
          </tr>`,
        )}
      </tbody>
    </table>
    <button type="button" disabled=${state.busy} aria-label=${`Add version to ${name}`} onClick=${() => run("POST", "/__mock/page_versions", { pageId: page.pageId })}>Add version</button>
    <${Notice} kind="error" text=${state.error} />
  </article>`;
}

/** The pages section. */
export function PagesSection({ groups, pages }: { groups: readonly any[]; pages: readonly any[] }) {
  return html`<section aria-labelledby="pages-title" class="card">
    <h2 id="pages-title">Pages <span class="count">${pages.length}</span></h2>
    <p class="note">${groups.length} page group${groups.length === 1 ? "" : "s"}. A version is created, processed (its computed name becomes the page's), then published: <code>GET page</code> shows the latest published one.</p>
    <div class="pages">${pages.map((page) => html`<${PageCard} key=${page.pageId} page=${page} />`)}</div>
    <${NewPageForm} groups=${groups} />
  </section>`;
}
