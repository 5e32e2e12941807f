// The demo's "Idle session" panel: a session that ends after `idle` seconds without use, and at
// its cap whatever happens. "Use it" reads it with get(), which starts its window again; "Peek"
// with peek(), which does not; the readout reads ttl("session", { detail: true }), which extends
// nothing, each time a live view of the key (observe) says the session changed (a write, an idle
// extension here or in another tab, its end), and counts down from that read in between: nothing
// polls IndexedDB. The panel keeps its own database, so the Entries table's view does not show it.

import { describe, errorText, formatExpiresAt, formatLeft } from "./format.js";
import { openPanelStore, panelParts } from "./panel.js";

const DB_NAME = "idb-ttl-demo-idle";
const KEY = "session";
const TICK_MS = 200;
const REAP_INTERVAL_MS = 2000;

const [panel, q] = panelParts("idle-panel");
const state = q("idle-state");
const said = q("idle-said");
const windowInput = q("idle-window");
const capInput = q("idle-cap");
const preview = q("idle-preview");
const shown = { ttl: q("idle-detail-ttl"), idle: q("idle-detail-idle"), cap: q("idle-detail-cap"), extended: q("idle-stat-extended") };

/** The options of the next sign-in, from the inputs; an empty cap means none. */
function options() {
  const idle = Number(windowInput.value);
  const cap = capInput.value.trim();
  return cap === "" ? { idle } : { idle, ttl: Number(cap) };
}

/** Options as they would be typed: `{ idle: 10, ttl: 30 }`. */
const optionsText = (o) => `{ ${Object.entries(o).map(([k, v]) => `${k}: ${v}`).join(", ")} }`;

function renderPreview() {
  preview.textContent = `await store.set("${KEY}", { user: "ada" }, ${optionsText(options())})`;
}

/** Shows what a button's call answered. */
function say(text, bad = false) {
  said.textContent = text;
  said.classList.toggle("bad", bad);
}

/** Shows the readout: `detail` is ttl()'s answer, `undefined` once the session is gone. */
function render(detail, store) {
  const was = state.dataset.state;
  if (detail === undefined) {
    if (was === "live") {
      state.dataset.state = "ended";
      state.dataset.endedAt = String(Date.now());
      state.dataset.reason = panel.dataset.endsAtCap === "true" ? "cap" : "idle";
      state.textContent = state.dataset.reason === "cap" ? "The session has ended: it reached its cap." : "The session has ended: unused for its idle window.";
    } else if (was === "none") {
      state.textContent = "Signed out.";
    }
    for (const el of [shown.ttl, shown.idle, shown.cap]) el.textContent = "–";
    for (const a of ["ttl", "idle", "cap"]) delete panel.dataset[a];
  } else {
    state.dataset.state = "live";
    delete state.dataset.endedAt;
    delete state.dataset.reason;
    state.textContent = "Signed in.";
    const nowSecs = Date.now() / 1000;
    // The window ends at the cap: the session cannot be extended any more.
    panel.dataset.endsAtCap = String(detail.cap !== null && detail.ttl !== null && Math.abs(nowSecs + detail.ttl - detail.cap) < 0.05);
    panel.dataset.ttl = String(detail.ttl);
    panel.dataset.idle = String(detail.idle);
    panel.dataset.cap = String(detail.cap);
    shown.ttl.textContent = detail.ttl === null ? "never" : formatLeft(detail.ttl);
    shown.idle.textContent = detail.idle === null ? "not idle" : `${detail.idle} s`;
    shown.cap.textContent = detail.cap === null ? "none" : `in ${formatLeft(detail.cap - nowSecs)} (${formatExpiresAt(detail.cap)})`;
  }
  shown.extended.textContent = String(store.stats().idleExtended);
}

function mount(store) {
  // The last ttl() detail and when it was read; the ticks count down from it. One read at a time:
  // a read asked for while one runs makes that one read again before it shows anything.
  let detail;
  let readAt = 0;
  let reading = null;
  let stale = false;
  const show = () => {
    if (!readAt) return;
    const left = detail?.ttl == null ? detail : { ...detail, ttl: detail.ttl - (Date.now() - readAt) / 1000 };
    render(left, store);
  };
  const read = () => {
    stale = true;
    reading ??= (async () => {
      try {
        while (stale) {
          stale = false;
          detail = await store.ttl(KEY, { detail: true });
          readAt = Date.now();
        }
        show();
      } catch (e) {
        say(`ttl("${KEY}", { detail: true }): ${errorText(e)}`, true);
      } finally {
        reading = null;
      }
    })();
    return reading;
  };

  const button = (id, fn) => {
    const b = q(id);
    b.disabled = false;
    b.addEventListener("click", async () => {
      try { await fn(); } catch (e) { say(errorText(e), true); }
      await read();
    });
  };
  button("idle-signin", async () => {
    const o = options();
    panel.dataset.signedInAt = String(Date.now());
    await store.set(KEY, { user: "ada", since: new Date() }, o);
    say(`set("${KEY}", …, ${optionsText(o)}): signed in`);
  });
  button("idle-use", async () => {
    panel.dataset.usedAt = String(Date.now());
    const v = await store.get(KEY);
    say(v === undefined ? `get("${KEY}") → undefined: no session to use` : `get("${KEY}") → ${describe(v)}: its window starts again`);
  });
  button("idle-peek", async () => {
    const v = await store.peek(KEY);
    say(v === undefined ? `peek("${KEY}") → undefined` : `peek("${KEY}") → ${describe(v)}: its window is not moved`);
  });

  // A read in another tab extends the session there; this tab hears of it once it is written.
  store.addEventListener("change", (ev) => {
    if (ev.detail?.remote && ev.detail.op === "extend" && ev.detail.keys.includes(KEY)) {
      say(`"change" op "extend" (from another tab): a read there started the window again`);
    }
  });

  windowInput.addEventListener("input", renderPreview);
  capInput.addEventListener("input", renderPreview);
  renderPreview();
  // A new list comes after every change to the key, here or in another tab, and at its expiry.
  store.observe({ keys: [KEY] }, read);
  setInterval(show, TICK_MS);
}

async function main() {
  const store = await openPanelStore(DB_NAME, { reapIntervalMs: REAP_INTERVAL_MS }, "idleStore", (m) => say(m, true));
  if (store) mount(store);
}

main();
