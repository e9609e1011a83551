/**
 * The console: the key screen, then four views (requests, state, webhooks, scenarios) kept up to
 * date by the live feed. Every refresh is caused by an event; nothing polls.
 */
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { LoggedRequest } from "../../observe/request-log.js";
import { call, keepKey, listOf, startingKey, storedKey, wantOtherKey, whenUnauthorized } from "./api.js";
import { follow, type LiveEvent } from "./live.js";
import { Notice } from "./parts.js";
import type { Listing, PendingFault, TenantState } from "./types.js";
import { KeyForm } from "./views/key.js";
import { PagesSection } from "./views/pages.js";
import { ProspectsSection } from "./views/prospects.js";
import { RequestsView } from "./views/requests.js";
import { ScenariosView } from "./views/scenarios.js";
import { SubscriptionsSection } from "./views/subscriptions.js";
import { loadWebhooks, type WebhooksData, WebhooksView } from "./views/webhooks.js";

const TABS = { requests: "Requests", state: "State", webhooks: "Webhooks", scenarios: "Scenarios" } as const;
type Tab = keyof typeof TABS;
const TAB_IDS = Object.keys(TABS) as Tab[];

/** The most log entries the page keeps (the server's own default). */
const MAX_REQUESTS = 10_000;

const EMPTY_STATE: TenantState = { prospects: [], prospectLogs: [], pageGroups: [], pages: [], webhookSubscriptions: [] };

/** What the state, webhooks and scenarios views show, read together after each change. */
interface TenantView {
  readonly state: TenantState;
  readonly faults: readonly PendingFault[];
  readonly webhooks: WebhooksData | null;
  readonly problem: string | null;
}

const EMPTY_TENANT: TenantView = { state: EMPTY_STATE, faults: [], webhooks: null, problem: null };

function Console({ onSignOut }: { onSignOut(message: string | null): void }) {
  const [tab, setTab] = useState<Tab>(() => TAB_IDS.find((id) => id === location.hash.slice(1)) ?? "requests");
  const [requests, setRequests] = useState<LoggedRequest[]>([]);
  const [{ state, faults, webhooks, problem }, setTenant] = useState(EMPTY_TENANT);
  const [live, setLive] = useState(false);
  /** What the server last said of its state file (`--state`): writes refused, or taken again. */
  const [stateFile, setStateFile] = useState<{ writable: boolean; detail: string } | null>(null);
  const pending = useRef<number | undefined>(undefined);

  const loadState = async () => {
    const [s, f] = await Promise.all([call<TenantState>("GET", "/__mock/state"), call<Listing<PendingFault>>("GET", "/__mock/faults")]);
    const tenant = s.ok && s.body && typeof s.body === "object" ? { ...EMPTY_STATE, ...s.body } : null;
    const webhooks = await loadWebhooks(Array.isArray(tenant?.webhookSubscriptions) ? tenant.webhookSubscriptions : []);
    setTenant((shown) => ({ state: tenant ?? shown.state, faults: listOf(f) ?? shown.faults, webhooks, problem: s.ok ? null : s.message }));
  };
  const loadRequests = async () => {
    const logged = listOf(await call<Listing<LoggedRequest>>("GET", "/__mock/requests"));
    if (logged) setRequests((current) => merge(logged, current));
  };
  // Many changes in a burst (a test run) cause one reload.
  const soon = () => {
    clearTimeout(pending.current);
    pending.current = window.setTimeout(() => void loadState(), 120);
  };

  useEffect(() => {
    const key = storedKey();
    if (key === null) return;
    const onEvent = (event: LiveEvent) => {
      if (event.event === "request") {
        const entry = event.data as LoggedRequest;
        setRequests((list) =>
          list.some((known) => known.requestId === entry.requestId) ? list : [...(list.length >= MAX_REQUESTS ? list.slice(1) : list), entry],
        );
        soon();
      } else if (event.event === "change") {
        const file = stateFileChange(event.data);
        if (file !== null) return setStateFile(file);
        if (isReset(event.data)) setRequests([]), void loadRequests();
        soon();
      } else if (event.event === "ready") {
        // (Re)connected: catch up on whatever happened while the feed was down.
        void loadRequests();
        void loadState();
      }
    };
    return follow(key, onEvent, setLive, onSignOut);
  }, []);

  useEffect(() => {
    history.replaceState(null, "", `#${tab}`);
  }, [tab]);

  const onTabKey = (event: KeyboardEvent) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    const next = TAB_IDS[(TAB_IDS.indexOf(tab) + step + TAB_IDS.length) % TAB_IDS.length]!;
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };

  return html`<div class="shell">
    <header class="topbar">
      <div class="brand"><span class="logo" aria-hidden="true">pk</span> <span>prospectkit <strong>mock console</strong></span></div>
      <nav aria-label="Views">
        <div role="tablist" aria-label="Views" onKeyDown=${onTabKey}>
          ${TAB_IDS.map(
            (id) => html`<button type="button" role="tab" id=${`tab-${id}`} aria-selected=${tab === id ? "true" : "false"} aria-controls="panel"
              tabindex=${tab === id ? 0 : -1} onClick=${() => setTab(id)}>${TABS[id]}${id === "requests" && requests.length > 0 ? html` <span class="count">${requests.length}</span>` : ""}</button>`,
          )}
        </div>
      </nav>
      <div class="status">
        <span class=${`live ${live ? "on" : "off"}`} role="status">${live ? "Live" : "Reconnecting…"}</span>
        <button type="button" class="link" onClick=${() => onSignOut(null)}>Change key</button>
      </div>
    </header>
    <main id="panel" role="tabpanel" aria-labelledby=${`tab-${tab}`} tabindex="-1">
      ${problem && html`<p class="notice error" role="alert">${problem}</p>`}
      ${stateFile && html`<${Notice} kind=${stateFile.writable ? "ok" : "error"} text=${stateFile.detail} />`}
      ${tab === "requests" && html`<${RequestsView} requests=${requests} />`}
      ${
        tab === "state" &&
        html`<div class="state-grid">
        <${PagesSection} groups=${state.pageGroups} pages=${state.pages} />
        <${SubscriptionsSection} subscriptions=${state.webhookSubscriptions} />
        <${ProspectsSection} prospects=${state.prospects} logs=${state.prospectLogs} />
      </div>`
      }
      ${tab === "webhooks" && html`<${WebhooksView} data=${webhooks} />`}
      ${tab === "scenarios" && html`<${ScenariosView} faults=${faults} />`}
    </main>
  </div>`;
}

/**
 * The listing fetched, followed by the entries the feed brought that it does not hold yet (they
 * arrived while it was on its way), so that neither a duplicate nor a gap appears.
 */
function merge(fetched: readonly LoggedRequest[], current: readonly LoggedRequest[]): LoggedRequest[] {
  const known = new Set(fetched.map((entry) => entry.requestId));
  const since = fetched.at(-1)?.receivedAt ?? "";
  return [...fetched, ...current.filter((entry) => !known.has(entry.requestId) && entry.receivedAt >= since)];
}

/** A `change` event that says the server's state file stopped or started taking writes, or null. */
function stateFileChange(data: unknown): { writable: boolean; detail: string } | null {
  if (typeof data !== "object" || data === null || !("kind" in data) || data.kind !== "state-file") return null;
  const { writable, detail } = data as { writable?: unknown; detail?: unknown };
  return typeof writable === "boolean" && typeof detail === "string" ? { writable, detail } : null;
}

/** Whether a `change` event's data says the mock was reset. */
function isReset(data: unknown): boolean {
  return typeof data === "object" && data !== null && "kind" in data && data.kind === "reset";
}

/**
 * The whole page: the console straight away with the key kept for this tab, or the development
 * key while the server accepts it; otherwise the key screen until a key is accepted.
 */
export function App() {
  const [key, setKey] = useState<string | null>(() => {
    const starting = startingKey();
    if (starting !== null) keepKey(starting);
    return starting;
  });
  const [message, setMessage] = useState<string | null>(null);
  const changeKey = (next: string | null, why: string | null = null) => {
    keepKey(next);
    setMessage(why);
    setKey(next);
  };
  whenUnauthorized((why) => changeKey(null, why));
  const accept = (accepted: string) => (wantOtherKey(false), changeKey(accepted));
  // "Change key": the key screen, also after a reload, until a key is accepted.
  const signOut = (why: string | null) => (why === null && wantOtherKey(true), changeKey(null, why));
  if (key === null) return html`<${KeyForm} message=${message} onKey=${accept} />`;
  return html`<${Console} onSignOut=${signOut} />`;
}
