// idb-ttl's Leptos hook in a real Leptos app: examples/leptos (Leptos 0.8, client-side rendering,
// `idb_ttl::leptos::use_entry`), built by cargo for wasm32 (its own Cargo.lock, its own target
// dir, target/leptos-example, so the browser lanes' builds never wait on it) and by wasm-bindgen
// --target web, served as built and opened in two tabs of one Chromium:
//   - a banner written in one tab (the app's own form: the hook's setter, with a ttl) shows in
//     the other;
//   - it leaves that tab at its expiry (not before the stored expiry; with no reaper and no
//     polling, only the watch's expiry timer can take it out);
//   - no polling: from the moment the banner shows until it leaves, the tab makes no IndexedDB
//     read (every read method of IDBObjectStore and IDBIndex counted from before the app loads),
//     and no reaper runs (autoReap: false, the record is still stored when it leaves).
// Run by scripts/test.sh with the other package tests.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVENT_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, poll, withChromium } from "../page/harness.mjs";

const APP = join(ROOT, "examples/leptos");
const TARGET = join(ROOT, "target/leptos-example");
const work = mkdtempSync(join(tmpdir(), "idb-ttl-leptos-"));
let built;

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 1_200_000, ...opts });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")} failed: ${r.stdout}${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
}

before(() => {
  const t = Date.now();
  run("cargo", ["build", "--locked", "--target", "wasm32-unknown-unknown"], {
    cwd: APP,
    env: { ...process.env, CARGO_TARGET_DIR: TARGET },
  });
  run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", join(work, "pkg"),
    join(TARGET, "wasm32-unknown-unknown/debug/idb_ttl_leptos_example.wasm")]);
  copyFileSync(join(APP, "index.html"), join(work, "index.html"));
  built = Date.now() - t;
});

after(() => rmSync(work, { recursive: true, force: true }));

/** Counts the tab's IndexedDB reads from before the app loads (no idb-ttl code involved). */
const countReads = () => {
  window.idbReads = 0;
  for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype]) {
    for (const m of ["get", "getAll", "getAllKeys", "getKey", "count", "openCursor", "openKeyCursor"]) {
      const f = proto[m];
      if (typeof f !== "function") continue;
      proto[m] = function counted(...args) { window.idbReads++; return f.apply(this, args); };
    }
  }
};

/** The stored expiry of the banner (Unix ms), read with plain IndexedDB. */
const storedExpiry = () => new Promise((resolve, reject) => {
  const open = indexedDB.open("leptos-example");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const req = db.transaction("entries").objectStore("entries").getAll();
    req.onsuccess = () => { db.close(); resolve(req.result.find((r) => r.k === "banner")?.e ?? null); };
    req.onerror = () => reject(req.error);
  };
});

test("examples/leptos: another tab's write shows, and leaves at its expiry, with no polling", { timeout: TEST_TIMEOUT_MS }, async () => {
  console.log(`# examples/leptos built (cargo + wasm-bindgen) in ${(built / 1000).toFixed(1)} s`);
  await withChromium(work, async ({ context, url }) => {
    await context.addInitScript(countReads);
    const [a, b] = [context.pages()[0] ?? (await context.newPage()), await context.newPage()];
    const errors = [];
    for (const page of [a, b]) {
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
      await page.goto(url);
      await page.waitForFunction(() => document.documentElement.dataset.state === "ready", null, { timeout: EVENT_TIMEOUT_MS });
    }
    const banner = (page) => page.textContent('[data-testid="banner"]');
    await poll(() => banner(a), (t) => t === "(no banner)", EVENT_TIMEOUT_MS, "tab A's banner before any write");
    // Tab A's banner, with when each text showed.
    await a.evaluate(() => {
      window.bannerLog = [];
      const el = document.querySelector('[data-testid="banner"]');
      new MutationObserver(() => window.bannerLog.push({ text: el.textContent, at: Date.now(), reads: window.idbReads }))
        .observe(el, { subtree: true, childList: true, characterData: true });
    });

    const ttl = 3;
    await b.fill('[data-testid="text"]', "from tab B");
    await b.fill('[data-testid="ttl"]', String(ttl));
    await b.click('[data-testid="set"]');
    await poll(() => banner(a), (t) => t === "from tab B", EVENT_TIMEOUT_MS, "tab A shows tab B's write");
    // The reads that showed the write may still be finishing when the text changes: counted from
    // a moment after, until the banner left (the stored expiry is read in tab B, not counted).
    await new Promise((r) => setTimeout(r, 500));
    const settled = await a.evaluate(() => window.idbReads);
    const expiry = await b.evaluate(storedExpiry);
    assert.ok(typeof expiry === "number", `the banner is stored with an expiry (${expiry})`);
    await poll(() => banner(a), (t) => t === "(no banner)", EVENT_TIMEOUT_MS, "tab A's banner leaves at its expiry");
    const log = await a.evaluate(() => window.bannerLog);
    const shown = log.find((e) => e.text === "from tab B");
    const gone = log.findLast((e) => e.text === "(no banner)");
    assert.ok(shown && gone && gone.at > shown.at, `shown, then gone: ${JSON.stringify(log)}`);
    assert.ok(gone.at >= expiry, `not before the expiry (${gone.at - expiry} ms)`);
    assert.equal(gone.reads, settled, "no IndexedDB read between the write showing and the expiry: no polling");
    assert.equal(await b.evaluate(storedExpiry), expiry, "no reaper pass: the record is still stored");
    assert.deepEqual(errors, [], "no page error");
  });
});
