// Page tests for the demo's "Watch a key" panel (www/watch.js): store.watch("offer", ...) drives a
// countdown that flips to "The offer has ended" when the offer's expiry comes, with the reaper
// paused (so the flip is the watch timer's, not a reaper pass's), and an offer started in a second
// tab of the demo shows and ends in the first. Debian's Chromium (playwright-core) against www/,
// served by scripts/serve.mjs; run with `node --test tests/page/` after scripts/build.sh.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, DEMO_VIEWPORT, TEST_TIMEOUT_MS, WWW, poll, sel, waitForLibrary, withChromium } from "./harness.mjs";

/** Opens the demo in a new tab of `context` and waits for the library; collects page errors. */
async function openDemo(context, url, pageErrors) {
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(url);
  await waitForLibrary(page);
  await page.waitForSelector(`${sel("watch-start")}:not([disabled])`);
  return page;
}

const state = (page) => page.getAttribute(sel("watch-state"), "data-state");

/** Sets the panel's ttl and starts an offer. */
async function startOffer(page, ttl) {
  await page.fill(sel("watch-ttl"), String(ttl));
  await page.click(sel("watch-start"));
}

test("the countdown flips when the offer expires, told by watch() with the reaper paused", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(WWW, async ({ context, url }) => {
    const pageErrors = [];
    const opening = Date.now();
    const page = await openDemo(context, url, pageErrors);
    // The offer must outlive the steps that see it live: 2 s and three times what opening the page
    // took (seconds on a loaded machine).
    const ttl = Math.ceil(2 + (3 * (Date.now() - opening)) / 1000);
    assert.equal(await state(page), "none");
    await page.click(sel("reaper-pause"));
    await poll(() => page.textContent(sel("stat-reaperPaused")), (s) => s === "true", EVENT_TIMEOUT_MS, "reaperPaused");
    const runs = await page.evaluate(() => window.store.stats().reaperRuns);

    await startOffer(page, ttl);
    await poll(() => state(page), (s) => s === "live", EVENT_TIMEOUT_MS, "the offer shown");
    assert.match(await page.textContent(sel("watch-state")), /2 for 1/);
    const expiresAtMs = (await page.evaluate(() => window.store.expiresAt("offer"))) * 1000;
    const left = await poll(() => page.textContent(sel("watch-countdown")), (t) => /^ends in \d+\.\d s$/.test(t), EVENT_TIMEOUT_MS, "the countdown");
    assert.ok(Number(/[\d.]+/.exec(left)[0]) <= ttl, `${left}, of ${ttl} s`);

    await poll(() => state(page), (s) => s === "expired", EVENT_TIMEOUT_MS, "the flip to expired");
    assert.equal(await page.textContent(sel("watch-state")), "The offer has ended.");
    const toldAt = Number(await page.getAttribute(sel("watch-state"), "data-told-at"));
    assert.ok(toldAt >= expiresAtMs - 1, `told at ${toldAt}, before the expiry ${expiresAtMs}`);
    // The reaper did not run: the expired record is still stored; the flip was watch()'s timer.
    assert.equal(await page.evaluate(() => window.store.stats().reaperRuns), runs, "no reaper pass while paused");
    assert.equal(await page.evaluate(async () => (await window.store.get("offer")) === undefined), true, "get() agrees");
    const stored = await page.evaluate(() => new Promise((resolve, reject) => {
      const open = indexedDB.open("idb-ttl-demo");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const req = open.result.transaction("entries").objectStore("entries").getAll();
        req.onsuccess = () => { open.result.close(); resolve(req.result.map((r) => r.k)); };
      };
    }));
    assert.ok(stored.includes("offer"), `the expired record waits for the reaper: ${stored}`);
    assert.equal(await page.textContent(sel("watch-countdown")), "");

    await page.click(sel("reaper-resume"));
    assert.deepEqual(pageErrors, [], "uncaught errors in the page");
    const logged = await page.$$eval(sel("log-line", '[data-type="error"]'), (ls) => ls.map((l) => l.textContent));
    assert.deepEqual(logged, [], "errors in the page's event log");
  }, { viewport: DEMO_VIEWPORT });
});

test("an offer started in another tab shows in this one, and ends here too", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(WWW, async ({ context, url }) => {
    const pageErrors = [];
    const opening = Date.now();
    const a = await openDemo(context, url, pageErrors);
    const b = await openDemo(context, url, pageErrors);
    // Live long enough for tab A to see it: 2 s and three times what opening a page took.
    await startOffer(b, Math.ceil(2 + (3 * (Date.now() - opening)) / 2 / 1000));
    await poll(() => state(a), (s) => s === "live", EVENT_TIMEOUT_MS, "tab A shows tab B's offer");
    await poll(() => state(a), (s) => s === "expired", EVENT_TIMEOUT_MS, "tab A's countdown flips when it expires");
    await poll(() => state(b), (s) => s === "expired", EVENT_TIMEOUT_MS, "so does tab B's");
    assert.deepEqual(pageErrors, [], "uncaught errors in the pages");
  }, { viewport: DEMO_VIEWPORT });
});
