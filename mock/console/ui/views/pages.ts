/** Page groups, pages and their versions, with create, process and publish through the control API. */
import { html } from "htm/preact";
import { ActionButton, Field, Notice, useForm, when } from "../parts.js";
import type { PageGroupRecord, PageVersionRecord, PageWithVersions } from "../types.js";

const enc = encodeURIComponent;

function NewPageForm({ groups }: { groups: readonly PageGroupRecord[] }) {
  const { state, run, values, setValues, bind, onSubmit } = useForm({ pageGroupId: "", customName: "", computedName: "" });
  const submit = onSubmit(async () => {
    const filledIn = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
    const answer = await run("POST", "/__mock/pages", filledIn, "Page created.");
    if (answer.ok) setValues((current) => ({ ...current, customName: "", computedName: "" }));
  });
  const options = [["", "A new page group"], ...groups.map((g) => [g.id, g.id])];
  return html`<details class="create"><summary id="new-page-title">New page</summary><form class="inline-form" onSubmit=${submit} aria-labelledby="new-page-title">
    <${Field} id="new-page-group" label="Page group" options=${options} ...${bind("pageGroupId")} />
    <${Field} id="new-page-custom" label="Custom name" ...${bind("customName")} />
    <${Field} id="new-page-computed" label="Computed name" ...${bind("computedName")} />
    <button type="submit" disabled=${state.busy}>Create page</button>
    <${Notice} kind="error" text=${state.error} />
  </form></details>`;
}

/** Processing sets the page's computed name: the field starts from the version's, else the page's current one (never its custom name). */
function ProcessForm({ version, pageComputedName }: { version: PageVersionRecord; pageComputedName: string }) {
  const { state, run, values, bind, onSubmit } = useForm({ computedName: version.computedName ?? pageComputedName });
  const submit = onSubmit(() => run("POST", `/__mock/page_versions/${enc(version.id)}/process`, values));
  return html`<form class="row-form" onSubmit=${submit}>
    <${Field} id=${`process-${version.id}`} label=${`Computed name for version ${version.versionNumber}`} ...${bind("computedName")} />
    <button type="submit" disabled=${state.busy}>Process</button>
    <${Notice} kind="error" text=${state.fieldErrors["/computedName"] ? null : state.error} />
  </form>`;
}

function PageCard({ page }: { page: PageWithVersions }) {
  const versions = Array.isArray(page.versions) ? page.versions : [];
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
              ${
                version.status === "processed" &&
                html`<span><${ActionButton} class="primary" aria-label=${`Publish version ${version.versionNumber} of ${name}`} label="Publish"
                  path=${`/__mock/page_versions/${enc(version.id)}/publish`} /></span>`
              }
              ${version.status === "published" && (version.versionNumber === published ? "live" : "")}
            </td>
          </tr>`,
        )}
      </tbody>
    </table>
    <${ActionButton} aria-label=${`Add version to ${name}`} label="Add version" path="/__mock/page_versions" body=${{ pageId: page.pageId }} />
  </article>`;
}

export function PagesSection({ groups, pages }: { groups: readonly PageGroupRecord[]; pages: readonly PageWithVersions[] }) {
  return html`<section aria-labelledby="pages-title" class="card">
    <h2 id="pages-title">Pages <span class="count">${pages.length}</span></h2>
    <p class="note">${groups.length} page group${groups.length === 1 ? "" : "s"}. A version is created, processed (its computed name becomes the page's), then published: <code>GET page</code> shows the latest published one.</p>
    <div class="pages">${pages.map((page) => html`<${PageCard} key=${page.pageId} page=${page} />`)}</div>
    <${NewPageForm} groups=${groups} />
  </section>`;
}
