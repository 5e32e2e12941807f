// The demo's "Live view" panel: store.observe({ prefix }, listener) keeps a list of the entries
// under a prefix. Which rows are shown comes only from the listener's calls: at once, after every
// change (here or in another tab) and as each entry expires, told by the store's one view timer.
// A local 200 ms timer only moves the "left" column and the stats readout on; it reads nothing
// from IndexedDB. The panel keeps its own database, so the Entries table above (and its buttons)
// do not mix with it.

import { clock, describe, errorText, formatLeft, literal, setText } from "./format.js";
import { openPanelStore, panelParts } from "./panel.js";

const DB_NAME = "idb-ttl-demo-views";
const TICK_MS = 200;
const REAP_INTERVAL_MS = 2000;
const TASKS = ["water the plants", "reply to Ada", "book the train", "back up the photos"];

let store; // the panel's own, opened by main()

const [panel, q] = panelParts("views-panel");
const prefixInput = q("views-prefix");
const apartInput = q("views-apart");
const preview = q("views-preview");
const body = q("views-body");
const empty = q("views-empty");
const count = q("views-count");
const said = q("views-said");
const shown = { calls: q("views-calls"), views: q("views-stat-views"), entries: q("views-stat-entries"), timer: q("views-stat-timer") };

/** Shows what the last call or listener call said. */
function say(text, bad = false) {
  said.textContent = text;
  said.classList.toggle("bad", bad);
}

/** The prefix the inputs ask for (the default when empty). */
const prefix = () => prefixInput.value || prefixInput.placeholder;

function renderPreview() {
  preview.textContent = `store.observe({ prefix: ${literal(prefix())} }, (entries) => …)`;
}

/** One row per entry, in the order the view gives them. */
function renderList(entries) {
  const rows = entries.map((e) => {
    const tr = document.createElement("tr");
    tr.dataset.testid = "views-row";
    tr.dataset.key = String(e.key);
    tr.dataset.expiresAt = String(e.expiresAt);
    for (const [testid, text, cls] of [["views-key", String(e.key), "mono"], ["views-value", describe(e.value), "mono value"], ["views-left", "", "num mono"]]) {
      const td = document.createElement("td");
      td.dataset.testid = testid;
      td.className = cls;
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  body.replaceChildren(...rows);
  empty.hidden = entries.length > 0;
  count.textContent = String(entries.length);
  tick();
}

/** Moves the seconds-left column and the stats on; reads nothing from the store. */
function tick() {
  const now = Date.now() / 1000;
  for (const tr of body.children) {
    const at = tr.dataset.expiresAt;
    setText(tr.lastChild, at === "null" ? "never" : formatLeft(Number(at) - now));
  }
  if (!store) return;
  const s = store.stats();
  setText(shown.views, String(s.views));
  setText(shown.entries, String(s.viewEntries));
  setText(shown.timer, s.viewTimerAt === null ? "null" : `in ${formatLeft(s.viewTimerAt - now)}`);
}

function mount() {
  let calls = 0;
  let unobserve = () => {};
  const observe = () => {
    unobserve();
    const p = prefix();
    panel.dataset.prefix = p;
    renderPreview();
    try {
      unobserve = store.observe({ prefix: p }, (entries) => {
        calls += 1;
        shown.calls.textContent = String(calls);
        panel.dataset.toldAt = String(Date.now());
        say(`${clock()} told ${entries.length} ${entries.length === 1 ? "entry" : "entries"}: ${entries.map((e) => literal(e.key)).join(", ") || "none"}`);
        renderList(entries);
      });
    } catch (e) {
      unobserve = () => {};
      say(`observe({ prefix: ${literal(p)} }): ${errorText(e)}`, true);
    }
  };

  const button = (id, fn) => {
    const b = q(id);
    b.disabled = false;
    b.addEventListener("click", async () => {
      try { await fn(); } catch (e) { say(errorText(e), true); }
    });
  };
  // A few entries under the prefix, expiring `apart` seconds after each other.
  button("views-add", async () => {
    const p = prefix();
    const apart = Number(apartInput.value) || 2;
    const batch = Date.now().toString(36).slice(-4);
    await store.setMany(TASKS.map((task, i) => [`${p}${batch}-${i + 1}`, task, { ttl: apart * (i + 1) }]));
  });
  button("views-clear", () => store.clear());

  prefixInput.addEventListener("input", renderPreview);
  prefixInput.addEventListener("change", observe);
  observe();
  setInterval(tick, TICK_MS);
}

async function main() {
  store = await openPanelStore(DB_NAME, { reapIntervalMs: REAP_INTERVAL_MS }, "viewsStore", (m) => say(m, true));
  if (store) mount();
}

main();
