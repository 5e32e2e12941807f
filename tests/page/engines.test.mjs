// The demo's essentials in Firefox and WebKit (WebKitGTK's MiniBrowser, under Xvfb), driven over
// WebDriver (webdriver.mjs): the page loads the package, an entry set through the form is listed,
// survives a reload, and vanishes once its ttl has run out. The full demo suite runs in Chromium
// (demo.test.mjs); the browser suite runs in all three engines (scripts/test.sh). Waits are bounds
// on a hang (EVENT_TIMEOUT_MS), not on speed, and a short ttl is given only after the reload it
// would otherwise have to outlive.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, READY_TIMEOUT_MS, TEST_TIMEOUT_MS, WWW, startServer, stopServer } from "./harness.mjs";
import { available, launch } from "./webdriver.mjs";

/** Runs `fn(session, url)` with the demo served and `engine` on it. */
async function withEngine(engine, fn) {
  const server = startServer(WWW);
  let session;
  try {
    const url = await server.url;
    session = await launch(engine);
    await fn(session, url);
  } finally {
    if (session) await session.quit();
    await stopServer(server.child);
  }
}

/** Waits for the demo's status to say the library is ready (or fails with its error banner). */
async function waitReady(session) {
  const state = await session.waitFor(() => {
    const s = document.querySelector('[data-testid="status"]').dataset.state;
    return s === "loading" ? null : { state: s, banner: document.querySelector('[data-testid="error-banner"]').textContent };
  }, READY_TIMEOUT_MS, "the demo to load the library");
  assert.equal(state.state, "ready", `the demo did not load: ${state.banner}`);
}

/** Fills the demo's form and submits it (as a user would, field by field, with input events). */
function addEntry(session, key, value, ttl) {
  return session.eval((key, value, ttl) => {
    const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
    const type = (el, text) => { el.value = text; el.dispatchEvent(new Event("input", { bubbles: true })); };
    type($("key-input"), key);
    type($("value-input"), value);
    $("expiry-ttl").click();
    type($("expiry-input"), ttl);
    $("add-button").click();
  }, key, value, ttl);
}

/** The listed row of `key`: `{ value, ttl }` texts, or null. */
const row = (key) => `(() => {
  const r = document.querySelector('[data-testid="entry-row"][data-key="${key}"]');
  return r && { value: r.querySelector('[data-testid="entry-value"]').textContent, ttl: r.querySelector('[data-testid="entry-ttl"]').textContent };
})`;

for (const engine of ["firefox", "webkit"]) {
  const skip = !available(engine) && `${engine} is not installed (scripts/setup.sh installs it)`;

  test(`${engine}: the demo loads, an entry survives a reload, then expires on time`, { timeout: TEST_TIMEOUT_MS * 2, skip }, async () => {
    await withEngine(engine, async (session, url) => {
      await session.goto(url);
      await waitReady(session);
      // A day to live through the reload, however slow; 4 s once it is listed again.
      await addEntry(session, "greeting", "survives a reload", "1 day");
      const listed = await session.waitFor(row("greeting"), EVENT_TIMEOUT_MS, "the new entry to be listed");
      assert.match(listed.value, /"survives a reload"/);
      await addEntry(session, "prefs", "dark mode", "1 day");
      await session.waitFor(row("prefs"), EVENT_TIMEOUT_MS, "the second entry to be listed");

      await session.reload();
      await waitReady(session);
      const again = await session.waitFor(row("greeting"), EVENT_TIMEOUT_MS, "the entry to be listed after the reload");
      assert.match(again.value, /"survives a reload"/);

      const before = Date.now();
      assert.equal(await session.eval(() => window.store.expire("greeting", { ttl: 4 })), true, "expire({ ttl: 4 }) found the entry");
      // Gone once its 4 s have passed (lazy expiry on read, the reaper every 2 s), not before.
      await session.waitFor(`(() => !(${row("greeting")})())`, EVENT_TIMEOUT_MS, "the entry to vanish after its ttl");
      const gone = Date.now() - before;
      assert.ok(gone >= 3_900, `the entry vanished after ${gone} ms, before its 4 s ttl`);
      assert.ok(await session.eval(row("prefs")), "the entry with a day to live is still listed");
      assert.equal(await session.eval(() => window.store.get("greeting")), null, "get() no longer returns it");
    });
  });

  // The Vault panel (www/vault.js): Web Crypto in this engine encrypts a secret that reads back,
  // IndexedDB holds only ciphertext, and shred() leaves nothing.
  test(`${engine}: the demo's vault encrypts, reads back and shreds`, { timeout: TEST_TIMEOUT_MS * 2, skip }, async () => {
    await withEngine(engine, async (session, url) => {
      await session.goto(url);
      await waitReady(session);
      const secret = `vault-${engine}-${Date.now()}`;
      await session.waitFor(() => !document.querySelector('[data-testid="vault-save"]').disabled || null, EVENT_TIMEOUT_MS, "the vault to open");
      await session.eval((secret) => {
        const input = document.querySelector('[data-testid="vault-secret"]');
        input.value = secret;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        document.querySelector('[data-testid="vault-save"]').click();
      }, secret);
      const back = await session.waitFor(`(() => { const t = document.querySelector('[data-testid="vault-readback"]').textContent; return t === ${JSON.stringify(JSON.stringify(secret))} ? t : null; })`, EVENT_TIMEOUT_MS, "the secret read back");
      assert.equal(back, JSON.stringify(secret));
      const raw = await session.waitFor(() => {
        const el = document.querySelector('[data-testid="vault-raw"]');
        return el.dataset.state === "sealed" ? el.textContent : null;
      }, EVENT_TIMEOUT_MS, "the raw record shown");
      assert.ok(!raw.includes(secret), `IndexedDB shows the secret: ${raw}`);
      await session.eval(() => document.querySelector('[data-testid="vault-shred"]').click());
      await session.waitFor(() => document.querySelector('[data-testid="vault-readback"]').textContent === "undefined" || null, EVENT_TIMEOUT_MS, "nothing after shred");
      assert.equal(await session.eval(() => window.vaultStore.get("token")), null, "get() agrees (undefined, sent back as null)");
    });
  });

  // The Long work panel (www/long.js): the bar moves while 100 000 entries are imported, and an
  // import cancelled part way (by an observer of the bar, in the page) writes nothing.
  test(`${engine}: the demo's long import shows its progress, and Cancel writes nothing`, { timeout: TEST_TIMEOUT_MS * 4, skip }, async () => {
    await withEngine(engine, async (session, url) => {
      await session.goto(url);
      await waitReady(session);
      await session.waitFor(() => !document.querySelector('[data-testid="long-import"]').disabled || null, EVENT_TIMEOUT_MS, "the long-work store to open");
      await session.eval(() => {
        const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
        const bar = $("long-progress");
        window.cancelledAt = null;
        const observer = new MutationObserver(() => {
          if (bar.max === 100000 && bar.value > 0 && bar.value < bar.max) {
            observer.disconnect();
            window.cancelledAt = bar.value;
            $("long-cancel").click();
          }
        });
        observer.observe(bar, { attributes: true });
        $("long-import").click();
      });
      const end = await session.waitFor(() => {
        const s = document.querySelector('[data-testid="long-state"]');
        return s.dataset.state === "running" ? null : { state: s.dataset.state, text: s.textContent, at: window.cancelledAt };
      }, TEST_TIMEOUT_MS * 3, "the import to end");
      assert.equal(end.state, "cancelled", end.text);
      assert.ok(end.at > 0 && end.at < 100000, `cancelled part way: ${end.at}`);
      assert.equal(end.text, "import(): cancelled: nothing written (count() unchanged: 0)");
      assert.equal(await session.eval(() => window.longStore.count()), 0, "count(): nothing written");
    });
  });

  // The Count and claim panel (www/atomic.js) in two tabs of one session: a burst of 100 incr in
  // each at once, every result different and both showing 200; both claim the lock at once, one wins
  // and the other shows it.
  test(`${engine}: the demo's count and claim, from two tabs at once`, { timeout: TEST_TIMEOUT_MS * 2, skip }, async () => {
    await withEngine(engine, async (session, url) => {
      const panelReady = () => session.waitFor(() => !document.querySelector('[data-testid="atomic-claim"]').disabled || null, EVENT_TIMEOUT_MS, "the count-and-claim store to open");
      const first = await session.window();
      await session.goto(url);
      await waitReady(session);
      await panelReady();
      const second = await session.newWindow();
      await session.switchTo(second);
      await session.goto(url);
      await waitReady(session);
      await panelReady();
      // The second tab starts when the first tells it to (a BroadcastChannel message), so both run at once.
      await session.eval(() => {
        window.atomicGo = new BroadcastChannel("atomic-test-go");
        window.atomicGo.onmessage = () => {
          for (const id of ["atomic-burst", "atomic-claim"]) document.querySelector(`[data-testid="${id}"]`).click();
        };
      });
      await session.switchTo(first);
      await session.eval(() => {
        window.atomicGo = new BroadcastChannel("atomic-test-go");
        window.atomicGo.postMessage("go");
        for (const id of ["atomic-burst", "atomic-claim"]) document.querySelector(`[data-testid="${id}"]`).click();
      });
      const readout = () => {
        const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
        const burst = $("atomic-burst-result");
        const lock = $("atomic-lock");
        const claimed = $("atomic-panel").dataset.claimed;
        if ($("atomic-count").dataset.count !== "200" || !["distinct", "repeated"].includes(burst.dataset.state) || !claimed || lock.dataset.state === "free") return null;
        return { tab: $("atomic-panel").dataset.tab, state: burst.dataset.state, results: burst.dataset.results.split(",").map(Number), claimed, lock: lock.dataset.state, holder: lock.dataset.holder };
      };
      const a = await session.waitFor(readout, EVENT_TIMEOUT_MS, "the first tab to show 200 and the lock taken");
      await session.switchTo(second);
      const b = await session.waitFor(readout, EVENT_TIMEOUT_MS, "the second tab to show 200 and the lock taken");
      assert.equal(a.state, "distinct", `first tab's results: ${a.results}`);
      assert.equal(b.state, "distinct", `second tab's results: ${b.results}`);
      assert.deepEqual([...a.results, ...b.results].sort((x, y) => x - y), Array.from({ length: 200 }, (_, i) => i + 1), "no result given twice, none missing");
      assert.deepEqual([a.claimed, b.claimed].sort(), ["false", "true"], "exactly one add() wrote");
      const winner = a.claimed === "true" ? a : b;
      for (const t of [a, b]) {
        assert.equal(t.holder, winner.tab, `${t.tab} shows the holder`);
        assert.equal(t.lock, t === winner ? "mine" : "other");
      }
      // One hit in the second tab: watch() tells the first tab the new count (a live key's incr).
      await session.eval(() => document.querySelector('[data-testid="atomic-hit"]').click());
      await session.switchTo(first);
      await session.waitFor(() => document.querySelector('[data-testid="atomic-count"]').dataset.count === "201" || null, EVENT_TIMEOUT_MS, "the first tab to show the second tab's hit");
    });
  });
}
