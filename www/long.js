// The demo's "Long work" panel: store.import() of a 100 000-entry snapshot behind a progress bar
// with a Cancel button, and "Export as file": exportStream() written one snapshot per line
// (NDJSON) into a Blob download link. Each call gets { signal, onProgress }: onProgress moves the
// bar (at most every 100 ms), Cancel aborts the AbortController, and an aborted import writes
// nothing (all or nothing), which the count() shown after it confirms. Its own database, so 100 000
// entries never reach the Entries table above.

import { errorText } from "./format.js";
import { openPanelStore, panelParts } from "./panel.js";

const DB_NAME = "idb-ttl-demo-long";
const N = 100_000;

const [panel, q] = panelParts("long-panel");
const bar = q("long-progress");
const barText = q("long-progress-text");
const state = q("long-state");
const countShown = q("long-count");
const preview = q("long-preview");
const cancelButton = q("long-cancel");
const link = q("long-download");
const buttons = ["long-import", "long-export", "long-clear"].map(q);

const num = (n) => n.toLocaleString("en-US");

/** A snapshot in the format store.export() writes: `n` entries without expiry. */
function snapshot(n) {
  const entries = new Array(n);
  for (let i = 0; i < n; i++) {
    entries[i] = { key: `item:${String(i).padStart(6, "0")}`, expiresAt: null, value: { i, text: `entry ${i}` } };
  }
  return { format: "idb-ttl-snapshot", version: 1, database: DB_NAME, exportedAt: Date.now() / 1000, entries, collections: [], timeSeries: [] };
}

/** Shows how far the call got: `{ done, total }` from onProgress. */
function progress({ done, total }) {
  bar.max = Math.max(total, 1);
  bar.value = done;
  panel.dataset.done = String(done);
  panel.dataset.total = String(total);
  barText.textContent = `${num(done)} / ${num(total)}`;
}

/** The panel's answer: `kind` is its data-state (running, done, cancelled, error). */
function say(kind, text) {
  state.dataset.state = kind;
  state.textContent = text;
}

function mount(store) {
  let controller = null;

  const showCount = async () => {
    const n = await store.count();
    countShown.textContent = num(n);
    countShown.dataset.count = String(n);
    return n;
  };

  /**
   * Shows `call`, then runs `work(options)` with a fresh AbortController's signal and the bar's
   * onProgress; the buttons are disabled meanwhile and Cancel enabled. `done(result, secs)` says
   * how it ended; `cancelled` is what a Cancel left.
   */
  const run = async (what, call, work, done, cancelled = "nothing written") => {
    controller = new AbortController();
    preview.textContent = call;
    const { signal } = controller;
    for (const b of buttons) b.disabled = true;
    cancelButton.disabled = false;
    progress({ done: 0, total: 0 });
    barText.textContent = "starting…";
    say("running", `${what}: running…`);
    let before = NaN;
    try {
      before = await showCount();
      const t0 = performance.now();
      const result = await work({ signal, onProgress: progress });
      await showCount();
      done(result, (performance.now() - t0) / 1000);
    } catch (e) {
      if (signal.aborted && e === signal.reason) {
        let now;
        try {
          const after = await showCount();
          now = `count() ${after === before ? "unchanged" : "now"}: ${num(after)}`;
        } catch (e2) {
          now = `count(): ${errorText(e2)}`;
        }
        say("cancelled", `${what}: cancelled: ${cancelled} (${now})`);
      } else {
        say("error", `${what}: ${errorText(e)}`);
      }
    } finally {
      controller = null;
      cancelButton.disabled = true;
      for (const b of buttons) b.disabled = false;
    }
  };

  q("long-import").addEventListener("click", () => run("import()", "await store.import(snapshot, { signal, onProgress })", (options) => {
    const s = snapshot(N);
    return store.import(s, options);
  }, (report, secs) => {
    progress({ done: report.entries, total: report.entries });
    say("done", `import(): ${num(report.entries)} entries written in ${secs.toFixed(1)} s`);
  }));

  q("long-export").addEventListener("click", () => run("exportStream()", "store.exportStream({ signal, onProgress }).getReader()", async (options) => {
    const reader = store.exportStream(options).getReader();
    const lines = [];
    let items = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      items += value.entries.length;
      lines.push(JSON.stringify(value) + "\n");
    }
    return { items, lines: lines.length, blob: new Blob(lines, { type: "application/x-ndjson" }) };
  }, ({ items, lines, blob }, secs) => {
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(blob);
    link.download = `${DB_NAME}.ndjson`;
    link.textContent = `${DB_NAME}.ndjson (${num(blob.size)} bytes, ${num(lines)} lines)`;
    link.hidden = false;
    progress({ done: items, total: items });
    say("done", `exportStream(): ${num(items)} entries read as ${num(lines)} snapshots in ${secs.toFixed(1)} s`);
  }, "no file made"));

  q("long-clear").addEventListener("click", () => run("clear()", "await store.clear({ signal, onProgress })", (options) => store.clear(options), (_, secs) => {
    say("done", `clear(): done in ${secs.toFixed(1)} s`);
  }, "nothing cleared"));

  cancelButton.addEventListener("click", () => controller?.abort());

  for (const b of buttons) b.disabled = false;
  showCount().catch((e) => say("error", `count(): ${errorText(e)}`));
}

async function main() {
  const store = await openPanelStore(DB_NAME, undefined, "longStore", (m) => say("error", m));
  if (store) mount(store);
}

main();
