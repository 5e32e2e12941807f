// Page tests for the demo's "Live view" panel (www/views.js): store.observe({ prefix: "task:" })
// keeps the list; "Add 4 entries" writes four entries expiring `apart` seconds after each other,
// and they leave the list one at a time, each at its expiry (the view's timer: the list is only
// what the listener was told), and an entry added in a second tab of the demo shows in the first.
// Debian's Chromium (playwright-core) against www/, served by scripts/serve.mjs; run with
// `node --test tests/page/` after scripts/build.sh.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, DEMO_VIEWPORT, TEST_TIMEOUT_MS, WWW, poll, sel, waitForLibrary, withChromium } from "./harness.mjs";

/** Opens the demo in a new tab of `context` and waits for the panel's store; collects page errors. */
async function openDemo(context, url, pageErrors) {
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(url);
  await waitForLibrary(page);
  await page.waitForSelector(`${sel("views-add")}:not([disabled])`);
  return page;
}

/** The rows the panel shows, in order: [key, expiresAt (Unix seconds)]. */
const rows = (page) => page.$$eval(sel("views-row"), (rs) => rs.map((r) => [r.dataset.key, Number(r.dataset.expiresAt)]));

const calls = async (page) => Number(await page.textContent(sel("views-calls")));

/** Adds four entries `apart` seconds apart from `page`. */
async function add(page, apart) {
  await page.fill(sel("views-apart"), String(apart));
  await page.click(sel("views-add"));
}

test("added entries show at once and leave one at a time, each at its expiry", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(WWW, async ({ context, url }) => {
    const pageErrors = [];
    const page = await openDemo(context, url, pageErrors);
    assert.equal(await page.textContent(sel("views-preview")), 'store.observe({ prefix: "task:" }, (entries) => …)');
    await poll(() => calls(page), (n) => n === 1, EVENT_TIMEOUT_MS, "told once, at once (empty)");
    assert.equal(await page.isVisible(sel("views-empty")), true);

    await add(page, 1.5);
    const first = await poll(() => rows(page), (l) => l.length === 4, EVENT_TIMEOUT_MS, "the four entries shown");
    assert.ok(first.every(([k]) => k.startsWith("task:")), JSON.stringify(first));
    const spacing = first.slice(1).map(([, at], i) => at - first[i][1]);
    assert.ok(spacing.every((s) => Math.abs(s - 1.5) < 0.05), `expiring 1.5 s apart: ${spacing}`);
    assert.equal(await calls(page), 2, "one call for the write");
    assert.equal(await page.textContent(sel("views-stat-entries")), "4");
    await poll(() => page.textContent(sel("views-left")), (t) => /^\d\.\d s$/.test(t), EVENT_TIMEOUT_MS, "the seconds left");

    // Each row leaves at its expiry, the soonest first, one at a time, never before it.
    const left = [];
    let last = first;
    while (last.length > 0) {
      const now = await rows(page);
      const t = Date.now() / 1000;
      if (now.length !== last.length) {
        assert.deepEqual(now.map(([k]) => k), last.slice(1).map(([k]) => k), `one row at a time, the soonest first (was ${last.length})`);
        left.push(t - last[0][1]);
        last = now;
      }
      assert.ok(t < first[3][1] + 3, `still shown 3 s after the last expiry: ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(left.length, 4);
    assert.ok(left.every((d) => d > -0.05 && d < 0.6), `each left 0-0.6 s after its expiry: ${left.map((d) => d.toFixed(2))}`);
    // One call per step: the list is only what the listener was told.
    assert.equal(await calls(page), 6, "told at once, for the write, and at each of the four expiries");
    assert.equal(await page.isVisible(sel("views-empty")), true);
    assert.equal(await page.textContent(sel("views-stat-timer")), "null");
    assert.match(await page.textContent(sel("views-said")), /told 0 entries: none$/);
    assert.deepEqual(pageErrors, [], "uncaught errors in the page");
  }, { viewport: DEMO_VIEWPORT });
});

test("entries added in another tab of the demo show in this one, and leave both", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(WWW, async ({ context, url }) => {
    const pageErrors = [];
    const a = await openDemo(context, url, pageErrors);
    const b = await openDemo(context, url, pageErrors);
    await add(b, 1);
    const inB = await poll(() => rows(b), (l) => l.length === 4, EVENT_TIMEOUT_MS, "tab B shows its entries");
    const inA = await poll(() => rows(a), (l) => l.length >= 3, EVENT_TIMEOUT_MS, "tab A shows tab B's entries");
    assert.deepEqual(inA, inB.slice(4 - inA.length), "the same entries, expiries and order");
    // Another prefix in tab A: B's "task:" entries are not shown there.
    await a.fill(sel("views-prefix"), "other:");
    await a.press(sel("views-prefix"), "Enter");
    await poll(() => a.textContent(sel("views-preview")), (t) => t.includes('"other:"'), EVENT_TIMEOUT_MS, "the new query");
    await poll(() => rows(a), (l) => l.length === 0, EVENT_TIMEOUT_MS, "nothing under other:");
    await add(b, 3);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await rows(a), [], "B's task: entries are not under other:");
    assert.equal(await a.textContent(sel("views-stat-views")), "1", "the old view was stopped");
    await a.fill(sel("views-prefix"), "task:");
    await a.press(sel("views-prefix"), "Enter");
    await poll(() => rows(a), (l) => l.length >= 4, EVENT_TIMEOUT_MS, "back on task:, B's second batch shows");
    await poll(() => rows(a), (l) => l.length === 0, EVENT_TIMEOUT_MS, "and leaves tab A as it expires");
    await poll(() => rows(b), (l) => l.length === 0, EVENT_TIMEOUT_MS, "and tab B");
    assert.deepEqual(pageErrors, [], "uncaught errors in the pages");
  }, { viewport: DEMO_VIEWPORT });
});
