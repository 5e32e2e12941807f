// Page tests: Debian's Chromium (driven by playwright-core) against the demo page in www/, served by
// scripts/serve.mjs. Run with `node --test tests/page/` after scripts/build.sh has put the wasm
// module in www/pkg/ (scripts/test.sh does both).
//
// Each test gets its own server on a free port, its own fresh --user-data-dir (so its IndexedDB
// starts empty and survives page.reload()), and closes both in `finally`. Every wait is bounded.

import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DEMO_VIEWPORT, READY_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, WWW, poll, sel, waitForLibrary as waitForReady, withChromium,
  withDemoPage,
} from "./harness.mjs";

const rowSel = (key) => sel("entry-row", `[data-key="${key}"]`);

/**
 * Runs `fn({ page, url, pageErrors })` with a served `dir` (default www/) and a Chromium on a fresh
 * profile, once the library is ready unless `waitReady` is false. Cleanup: see harness.mjs.
 */
function withDemo(fn, { dir, waitReady = true } = {}) {
  return withDemoPage(fn, { dir, ready: waitReady ? waitForReady : undefined });
}

/** Fills the form and submits it. `mode` is "none" | "ttl" | "expiresAt". */
async function addEntry(page, { key, value, mode = "none", expiry = "", asObject = false }) {
  await page.fill(sel("key-input"), key);
  await page.fill(sel("value-input"), value);
  await page.setChecked(sel("object-checkbox"), asObject);
  await page.check(sel(`expiry-${mode}`));
  if (mode !== "none") await page.fill(sel("expiry-input"), expiry);
  await page.click(sel("add-button"));
}

async function rowText(page, key, testid) {
  return (await page.textContent(`${rowSel(key)} ${sel(testid)}`)).trim();
}

const statNumber = async (page, name) => Number(await page.textContent(sel(`stat-${name}`)));

test("an entry with a 3 s ttl survives a reload, then vanishes after its expiry", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const key = "greeting";
    const before = Date.now();
    await addEntry(page, { key, value: "survives a reload", mode: "ttl", expiry: "3" });
    await page.waitForSelector(rowSel(key), { timeout: 5_000 });
    assert.match(await rowText(page, key, "entry-value"), /"survives a reload"/);
    assert.match(await rowText(page, key, "entry-ttl"), /^\d\.\d s$/, "a countdown in seconds");

    await page.reload();
    await waitForReady(page);
    const afterReload = Date.now() - before;
    await page.waitForSelector(rowSel(key), { timeout: 2_000 }).catch(() => {
      assert.fail(`the entry was not listed after the reload (${afterReload} ms after it was set with ttl 3 s)`);
    });
    assert.match(await rowText(page, key, "entry-value"), /"survives a reload"/);

    await page.waitForSelector(rowSel(key), { state: "detached", timeout: 10_000 });
    const gone = Date.now() - before;
    assert.ok(gone >= 2_900, `the row vanished after ${gone} ms, before its 3 s ttl`);
    assert.equal(await page.locator(sel("entry-row")).count(), 0);
  });
});

test("an entry without expiry survives a reload and shows 'never'", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const key = "prefs";
    await addEntry(page, { key, value: "dark mode" });
    await page.waitForSelector(rowSel(key), { timeout: 5_000 });

    await page.reload();
    await waitForReady(page);
    await page.waitForSelector(rowSel(key), { timeout: 5_000 });
    assert.match(await rowText(page, key, "entry-value"), /"dark mode"/);
    assert.equal(await rowText(page, key, "entry-ttl"), "never");
    assert.equal(await page.evaluate(() => window.store.expiresAt("prefs")), null);
  });
});

test("an object value keeps its Date through IndexedDB (structured clone) across a reload", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const key = "note";
    await addEntry(page, { key, value: "with a date", mode: "ttl", expiry: "PT10M", asObject: true });
    await page.waitForSelector(rowSel(key), { timeout: 5_000 });

    await page.reload();
    await waitForReady(page);
    await page.waitForSelector(rowSel(key), { timeout: 5_000 });
    assert.match(await rowText(page, key, "entry-value"), /\{ text: "with a date", savedAt: Date\(\d{4}-/);
    const isDate = await page.evaluate(async () => (await window.store.get("note")).savedAt instanceof Date);
    assert.equal(isDate, true, "savedAt read back as a Date");
    const left = await page.evaluate(() => window.store.ttl("note"));
    assert.ok(left > 590 && left <= 600, `ttl("note") = ${left}, expected about 600 s`);
  });
});

test("a millisecond expiresAt (Date.now()) shows the library's RangeError and adds no row", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const key = "token";
    const ms = String(Date.now());
    await addEntry(page, { key, value: "abc", mode: "expiresAt", expiry: ms });
    await page.waitForSelector(sel("form-error"), { state: "visible", timeout: 5_000 });
    const message = (await page.textContent(sel("form-error"))).trim();
    assert.match(message, /^RangeError: /, "shown as the library threw it");
    assert.match(message, /millisecond/i, "says it looks like milliseconds");
    assert.ok(message.includes(ms), `quotes the value ${ms}: ${message}`);

    await page.waitForTimeout(600); // a few table refreshes
    assert.equal(await page.locator(rowSel(key)).count(), 0);
    assert.equal(await page.textContent(sel("entry-count")), "0");
    assert.equal(await page.evaluate(() => window.store.has("token")), false, "nothing was written");
  });
});

test("the reaper panel shows passes and logs an 'expired' event", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    // The page says "ready" before it first draws the stats panel (after a read of the store): on
    // a loaded machine the panel can still show its placeholder "–" here. Wait for it to be drawn.
    await poll(() => page.textContent(sel("stat-reaperPaused")), (t) => t !== "–", 3_000, "the stats panel drawn");
    const runs0 = await statNumber(page, "reaperRuns");
    const removed0 = await statNumber(page, "removedTotal");
    assert.ok(Number.isInteger(runs0) && Number.isInteger(removed0), `stats shown: runs ${runs0}, removed ${removed0}`);
    assert.equal(await page.textContent(sel("stat-reaperPaused")), "false");

    const key = "short-lived";
    await addEntry(page, { key, value: "x", mode: "ttl", expiry: "1" });
    await page.waitForSelector(sel("log-line", '[data-type="change"]'), { timeout: 5_000 });

    // reapIntervalMs is 2000: within 10 s a pass removes the entry and fires "expired".
    const expiredLine = sel("log-line", '[data-type="expired"]');
    await page.waitForSelector(expiredLine, { timeout: 10_000 });
    assert.match(await page.textContent(expiredLine), /short-lived/);

    await poll(() => statNumber(page, "removedTotal"), (n) => n >= removed0 + 1, 3_000, "removedTotal");
    await poll(() => statNumber(page, "reaperRuns"), (n) => n >= runs0 + 2, 10_000, "reaperRuns");
    assert.match(await page.textContent(sel("stat-lastRun")), /removed \d+, remaining \d+, [\d.]+ ms/);
    assert.equal(await page.locator(rowSel(key)).count(), 0);
  });
});

test("row actions: persist, expire in 10 s, delete", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const key = "row";
    await addEntry(page, { key, value: "v", mode: "ttl", expiry: "2 minutes" });
    await page.waitForSelector(rowSel(key), { timeout: 5_000 });
    assert.match(await rowText(page, key, "entry-ttl"), /^1m 5\ds$|^2m 00s$/);

    await page.click(`${rowSel(key)} ${sel("entry-persist")}`);
    await poll(() => rowText(page, key, "entry-ttl"), (t) => t === "never", 3_000, "time left after persist");

    await page.click(`${rowSel(key)} ${sel("entry-expire10")}`);
    await poll(() => rowText(page, key, "entry-ttl"), (t) => /^\d\.\d s$|^10\.0 s$/.test(t), 3_000, "time left after expire");
    const left = await page.evaluate(() => window.store.ttl("row"));
    assert.ok(left > 7 && left <= 10, `ttl("row") = ${left}, expected about 10 s`);

    await page.click(`${rowSel(key)} ${sel("entry-delete")}`);
    await page.waitForSelector(rowSel(key), { state: "detached", timeout: 3_000 });
    assert.equal(await page.evaluate(() => window.store.has("row")), false);
  });
});

test("pause stops the reaper, reap now still runs a pass", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    await page.click(sel("reaper-pause"));
    await poll(() => page.textContent(sel("stat-reaperPaused")), (s) => s === "true", 2_000, "reaperPaused");
    await page.waitForTimeout(300); // let a pass already under way finish
    const runs = await statNumber(page, "reaperRuns");
    await page.waitForTimeout(4_500); // two reaper intervals
    assert.equal(await statNumber(page, "reaperRuns"), runs, "no pass while paused");

    await page.click(sel("reap-now"));
    const reapLine = sel("log-line", '[data-type="reap"]');
    await page.waitForSelector(reapLine, { timeout: 5_000 });
    assert.match(await page.textContent(reapLine), /reap\(\) → removed 0, remaining 0, [\d.]+ ms/);

    await page.click(sel("reaper-resume"));
    await poll(() => page.textContent(sel("stat-reaperPaused")), (s) => s === "false", 2_000, "reaperPaused");
  });
});

test("without the wasm build the page shows an error banner naming the fix", { timeout: TEST_TIMEOUT_MS }, async () => {
  // Serve a copy of the page without pkg/, as on a fresh clone before the build.
  const bare = mkdtempSync(join(tmpdir(), "idb-ttl-www-"));
  try {
    for (const f of readdirSync(join(ROOT, "www"))) {
      if (f !== "pkg") cpSync(join(ROOT, "www", f), join(bare, f), { recursive: true });
    }
    await withDemo(async ({ page }) => {
      await page.waitForSelector(sel("status", '[data-state="error"]'), { timeout: READY_TIMEOUT_MS });
      await page.waitForSelector(sel("error-banner"), { state: "visible", timeout: 2_000 });
      assert.match(await page.textContent(sel("error-banner")), /run scripts\/demo\.sh/);
      assert.equal(await page.isDisabled(sel("add-button")), true);
    }, { dir: bare, waitReady: false });
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
});

test("the timeline places entries at their expiry and shows the reaper's passes", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    await addEntry(page, { key: "soon", value: "x", mode: "ttl", expiry: "6" });
    await addEntry(page, { key: "later", value: "y", mode: "ttl", expiry: "60" });
    await addEntry(page, { key: "kept", value: "z" });
    const mark = (key) => sel("timeline-entry", `[data-key="${key}"]`);
    await page.waitForSelector(mark("later"), { timeout: 5_000 });
    const left = async (key) => parseFloat(await page.$eval(mark(key), (el) => el.style.left));
    // The axis runs from 30 s ago (0%) to 90 s ahead (100%): now is at 25%.
    const soon = await left("soon");
    const later = await left("later");
    assert.ok(soon > 25 && soon < 25 + (6 / 120) * 100 + 0.5, `"soon" (6 s) at ${soon}%`);
    assert.ok(later > 25 + (55 / 120) * 100 && later < 25 + (60 / 120) * 100 + 0.5, `"later" (60 s) at ${later}%`);
    // "kept" was added after "later": wait for the refresh that lists it (bounded), same check.
    await poll(() => page.textContent(sel("timeline-later")), (text) => /kept \(never\)/.test(text), 5_000, "the timeline to list kept (never)");
    // Once "soon" has expired and a pass removed it: off the timeline, and a pass marked "−1".
    await page.waitForSelector(mark("soon"), { state: "detached", timeout: 12_000 });
    await poll(() => page.$$eval(sel("timeline-pass"), (els) => els.map((e) => Number(e.dataset.removed))),
      (removed) => removed.some((n) => n >= 1), 6_000, "a reaper pass that removed the entry");
    const passes = await page.locator(sel("timeline-pass")).count();
    assert.ok(passes >= 3, `passes every 2 s are shown (${passes})`);
  });
});

test("two demo tabs: one shows it leads, the other hears its events and takes over when it closes", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(WWW, async ({ context, url }) => {
    const pageErrors = [];
    const openDemo = async () => {
      const page = await context.newPage();
      page.on("pageerror", (e) => pageErrors.push(e.message));
      await page.goto(url);
      await waitForReady(page);
      return page;
    };
    const a = await openDemo();
    await poll(() => a.textContent(sel("stat-leader")), (t) => t === "this tab", 5_000, "tab A shows it leads");
    const b = await openDemo();
    await poll(() => b.textContent(sel("stat-leader")), (t) => t === "another tab", 5_000, "tab B shows another tab leads");

    await addEntry(a, { key: "from-a", value: "x", mode: "ttl", expiry: "1" });
    const remote = (type) => sel("log-line", `[data-type="${type}"]:has-text("from another tab")`);
    await b.waitForSelector(remote("change"), { timeout: 5_000 });
    assert.match(await b.textContent(remote("change")), /from-a/);
    // reapIntervalMs is 2000: tab A's pass removes the entry and tab B hears it.
    await b.waitForSelector(remote("expired"), { timeout: 10_000 });
    assert.match(await b.textContent(remote("expired")), /from-a/);
    assert.equal(await statNumber(b, "reaperRuns"), 0, "the follower runs no pass");

    await a.close();
    await poll(() => b.textContent(sel("stat-leader")), (t) => t === "this tab", 5_000, "tab B takes over");
    await b.waitForSelector(sel("log-line", '[data-type="leader"]'), { timeout: 5_000 });
    assert.deepEqual(pageErrors, [], "uncaught errors in the pages");
  }, { viewport: DEMO_VIEWPORT });
});
