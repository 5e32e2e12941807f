// Page tests: Debian's Chromium (driven by playwright-core) against the demo page in www/, served by
// scripts/serve.mjs. Run with `node --test tests/page/` after scripts/build.sh has put the wasm
// module in www/pkg/ (scripts/test.sh does both).
//
// Each test gets its own server on a free port, its own fresh --user-data-dir (so its IndexedDB
// starts empty and survives page.reload()), and closes both in `finally`. Every wait is bounded, by
// a bound on a hang (EVENT_TIMEOUT_MS), not on speed; a short ttl is given only after the slow steps
// it must outlive (a reload, several clicks), and a time left read back is checked against the time
// measured since it was set.

import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DEMO_VIEWPORT, EVENT_TIMEOUT_MS, READY_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, WWW, poll, sel, waitForLibrary as waitForReady,
  waitForReaperSettled, withChromium, withDemoPage,
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

/** A countdown as the demo shows it ("4.2 s", "3m 07s") in seconds, or NaN. */
function countdownSeconds(text) {
  let m = /^(\d+\.\d) s$/.exec(text);
  if (m) return Number(m[1]);
  m = /^(\d+)m (\d\d)s$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
}

/** The row of `key`'s countdown text, or null once the row is gone (no wait). */
const countdownOf = (page, key) => page.evaluate((s) => {
  const el = document.querySelector(s);
  return el ? el.textContent.trim() : null;
}, `${rowSel(key)} ${sel("entry-ttl")}`);

test("an entry survives a reload, then, given a 3 s ttl, vanishes after its expiry", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    // Set with a ttl that outlives the reload however slow it is; the 3 s ttl is given after it.
    const key = "greeting";
    const set = Date.now();
    await addEntry(page, { key, value: "survives a reload", mode: "ttl", expiry: "10 minutes" });
    await page.waitForSelector(rowSel(key), { timeout: EVENT_TIMEOUT_MS });
    assert.match(await rowText(page, key, "entry-value"), /"survives a reload"/);
    const shown = await rowText(page, key, "entry-ttl");
    const listedAfter = (Date.now() - set) / 1000;
    const secs = countdownSeconds(shown);
    assert.ok(secs <= 600 && secs >= 600 - listedAfter - 1, `a countdown from 10 minutes: ${shown}, ${listedAfter} s after it was set`);

    await page.reload();
    await waitForReady(page);
    await page.waitForSelector(rowSel(key), { timeout: EVENT_TIMEOUT_MS }).catch(() => {
      assert.fail(`the entry was not listed after the reload (${Date.now() - set} ms after it was set with ttl 10 minutes)`);
    });
    assert.match(await rowText(page, key, "entry-value"), /"survives a reload"/);

    // 30 s first, to see the countdown in seconds (a 3 s one could pass between two reads on a
    // loaded machine), then 3 s: gone no earlier than its expiry.
    await page.evaluate((k) => window.store.expire(k, { ttl: 30 }), key);
    await poll(() => countdownOf(page, key), (t) => /^\d+\.\d s$/.test(t ?? ""), EVENT_TIMEOUT_MS, "a countdown in seconds after expire({ ttl: 30 })");
    const before = Date.now();
    assert.equal(await page.evaluate((k) => window.store.expire(k, { ttl: 3 }), key), true, "expire({ ttl: 3 }) found the entry");
    await page.waitForSelector(rowSel(key), { state: "detached", timeout: EVENT_TIMEOUT_MS });
    const gone = Date.now() - before;
    assert.ok(gone >= 2_900, `the row vanished after ${gone} ms, before its 3 s ttl`);
    assert.equal(await page.locator(sel("entry-row")).count(), 0);
  });
});

test("an entry without expiry survives a reload and shows 'never'", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const key = "prefs";
    await addEntry(page, { key, value: "dark mode" });
    await page.waitForSelector(rowSel(key), { timeout: EVENT_TIMEOUT_MS });

    await page.reload();
    await waitForReady(page);
    await page.waitForSelector(rowSel(key), { timeout: EVENT_TIMEOUT_MS });
    assert.match(await rowText(page, key, "entry-value"), /"dark mode"/);
    assert.equal(await rowText(page, key, "entry-ttl"), "never");
    assert.equal(await page.evaluate(() => window.store.expiresAt("prefs")), null);
  });
});

test("an object value keeps its Date through IndexedDB (structured clone) across a reload", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const key = "note";
    const set = Date.now();
    await addEntry(page, { key, value: "with a date", mode: "ttl", expiry: "PT10M", asObject: true });
    await page.waitForSelector(rowSel(key), { timeout: EVENT_TIMEOUT_MS });

    await page.reload();
    await waitForReady(page);
    await page.waitForSelector(rowSel(key), { timeout: EVENT_TIMEOUT_MS });
    assert.match(await rowText(page, key, "entry-value"), /\{ text: "with a date", savedAt: Date\(\d{4}-/);
    const isDate = await page.evaluate(async () => (await window.store.get("note")).savedAt instanceof Date);
    assert.equal(isDate, true, "savedAt read back as a Date");
    const left = await page.evaluate(() => window.store.ttl("note"));
    const since = (Date.now() - set) / 1000;
    assert.ok(left >= 600 - since - 1 && left <= 600, `ttl("note") = ${left}, expected 600 s less the ${since} s since it was set`);
  });
});

test("a millisecond expiresAt (Date.now()) shows the library's RangeError and adds no row", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const key = "token";
    const ms = String(Date.now());
    await addEntry(page, { key, value: "abc", mode: "expiresAt", expiry: ms });
    await page.waitForSelector(sel("form-error"), { state: "visible", timeout: EVENT_TIMEOUT_MS });
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
    await poll(() => page.textContent(sel("stat-reaperPaused")), (t) => t !== "–", EVENT_TIMEOUT_MS, "the stats panel drawn");
    const runs0 = await statNumber(page, "reaperRuns");
    const removed0 = await statNumber(page, "removedTotal");
    assert.ok(Number.isInteger(runs0) && Number.isInteger(removed0), `stats shown: runs ${runs0}, removed ${removed0}`);
    assert.equal(await page.textContent(sel("stat-reaperPaused")), "false");

    const key = "short-lived";
    await addEntry(page, { key, value: "x", mode: "ttl", expiry: "1" });
    await page.waitForSelector(sel("log-line", '[data-type="change"]'), { timeout: EVENT_TIMEOUT_MS });

    // reapIntervalMs is 2000: a pass after its expiry removes the entry and fires "expired".
    const expiredLine = sel("log-line", '[data-type="expired"]');
    await page.waitForSelector(expiredLine, { timeout: EVENT_TIMEOUT_MS });
    assert.match(await page.textContent(expiredLine), /short-lived/);

    await poll(() => statNumber(page, "removedTotal"), (n) => n >= removed0 + 1, EVENT_TIMEOUT_MS, "removedTotal");
    await poll(() => statNumber(page, "reaperRuns"), (n) => n >= runs0 + 2, EVENT_TIMEOUT_MS, "reaperRuns");
    assert.match(await page.textContent(sel("stat-lastRun")), /removed \d+, remaining \d+, [\d.]+ ms/);
    assert.equal(await page.locator(rowSel(key)).count(), 0);
  });
});

test("row actions: persist, expire in 10 s, delete", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const key = "row";
    const set = Date.now();
    await addEntry(page, { key, value: "v", mode: "ttl", expiry: "2 minutes" });
    await page.waitForSelector(rowSel(key), { timeout: EVENT_TIMEOUT_MS });
    const shown = await rowText(page, key, "entry-ttl");
    const since = (Date.now() - set) / 1000;
    assert.match(shown, /^\dm \d\ds$/, "a countdown in minutes");
    assert.ok(countdownSeconds(shown) <= 120 && countdownSeconds(shown) >= 120 - since - 1, `${shown} left, ${since} s after it was set for 2 minutes`);

    await page.click(`${rowSel(key)} ${sel("entry-persist")}`);
    await poll(() => rowText(page, key, "entry-ttl"), (t) => t === "never", EVENT_TIMEOUT_MS, "time left after persist");

    // The button's 10 s start at the click: checked against the time since then.
    const clicked = Date.now();
    await page.click(`${rowSel(key)} ${sel("entry-expire10")}`);
    await poll(() => rowText(page, key, "entry-ttl"), (t) => /^\d\.\d s$|^10\.0 s$/.test(t), EVENT_TIMEOUT_MS, "time left after expire");
    const left = await page.evaluate(() => window.store.ttl("row"));
    const sinceClick = (Date.now() - clicked) / 1000;
    assert.ok(typeof left === "number" && left > 10 - sinceClick - 0.5 && left <= 10, `ttl("row") = ${left}, expected 10 s less the ${sinceClick} s since the click`);

    await page.click(`${rowSel(key)} ${sel("entry-delete")}`);
    await page.waitForSelector(rowSel(key), { state: "detached", timeout: EVENT_TIMEOUT_MS });
    assert.equal(await page.evaluate(() => window.store.has("row")), false);
  });
});

test("pause stops the reaper, reap now still runs a pass", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    await page.click(sel("reaper-pause"));
    await poll(() => page.textContent(sel("stat-reaperPaused")), (s) => s === "true", EVENT_TIMEOUT_MS, "reaperPaused");
    await waitForReaperSettled(page); // a pass already under way finishes
    const runs = await statNumber(page, "reaperRuns");
    await page.waitForTimeout(4_500); // two reaper intervals
    assert.equal(await statNumber(page, "reaperRuns"), runs, "no pass while paused");

    await page.click(sel("reap-now"));
    const reapLine = sel("log-line", '[data-type="reap"]');
    await page.waitForSelector(reapLine, { timeout: EVENT_TIMEOUT_MS });
    assert.match(await page.textContent(reapLine), /reap\(\) → removed 0, remaining 0, [\d.]+ ms/);

    await page.click(sel("reaper-resume"));
    await poll(() => page.textContent(sel("stat-reaperPaused")), (s) => s === "false", EVENT_TIMEOUT_MS, "reaperPaused");
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
      await page.waitForSelector(sel("error-banner"), { state: "visible", timeout: EVENT_TIMEOUT_MS });
      assert.match(await page.textContent(sel("error-banner")), /run scripts\/demo\.sh/);
      assert.equal(await page.isDisabled(sel("add-button")), true);
    }, { dir: bare, waitReady: false });
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
});

test("the timeline places entries at their expiry and shows the reaper's passes", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    // ttls long enough to outlive the three clicks and the reads however slow; "soon" is given a
    // short one afterwards, to see it leave.
    const set = Date.now();
    await addEntry(page, { key: "soon", value: "x", mode: "ttl", expiry: "30" });
    await addEntry(page, { key: "later", value: "y", mode: "ttl", expiry: "60" });
    await addEntry(page, { key: "kept", value: "z" });
    const mark = (key) => sel("timeline-entry", `[data-key="${key}"]`);
    await page.waitForSelector(mark("later"), { timeout: EVENT_TIMEOUT_MS });
    const left = async (key) => parseFloat(await page.$eval(mark(key), (el) => el.style.left));
    // The axis runs from 30 s ago (0%) to 90 s ahead (100%): now is at 25%. Each mark is at its
    // ttl less the time since it was set (measured), within half a percent.
    const soon = await left("soon");
    const later = await left("later");
    const since = (Date.now() - set) / 1000;
    const at = (secs) => 25 + (secs / 120) * 100;
    assert.ok(soon > at(30 - since) - 0.5 && soon < at(30) + 0.5, `"soon" (30 s) at ${soon}%, ${since} s after it was set`);
    assert.ok(later > at(60 - since) - 0.5 && later < at(60) + 0.5, `"later" (60 s) at ${later}%, ${since} s after it was set`);
    // "kept" was added after "later": wait for the refresh that lists it (bounded), same check.
    await poll(() => page.textContent(sel("timeline-later")), (text) => /kept \(never\)/.test(text), EVENT_TIMEOUT_MS, "the timeline to list kept (never)");
    // Once "soon" has expired and a pass removed it: off the timeline, and a pass marked "−1".
    await page.evaluate(() => window.store.expire("soon", { ttl: 2 }));
    await page.waitForSelector(mark("soon"), { state: "detached", timeout: EVENT_TIMEOUT_MS });
    await poll(() => page.$$eval(sel("timeline-pass"), (els) => els.map((e) => Number(e.dataset.removed))),
      (removed) => removed.some((n) => n >= 1), EVENT_TIMEOUT_MS, "a reaper pass that removed the entry");
    // Passes every 2 s are shown.
    await poll(() => page.locator(sel("timeline-pass")).count(), (n) => n >= 3, EVENT_TIMEOUT_MS, "three passes shown");
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
    await poll(() => a.textContent(sel("stat-leader")), (t) => t === "this tab", EVENT_TIMEOUT_MS, "tab A shows it leads");
    const b = await openDemo();
    await poll(() => b.textContent(sel("stat-leader")), (t) => t === "another tab", EVENT_TIMEOUT_MS, "tab B shows another tab leads");

    await addEntry(a, { key: "from-a", value: "x", mode: "ttl", expiry: "1" });
    const remote = (type) => sel("log-line", `[data-type="${type}"]:has-text("from another tab")`);
    await b.waitForSelector(remote("change"), { timeout: EVENT_TIMEOUT_MS });
    assert.match(await b.textContent(remote("change")), /from-a/);
    // reapIntervalMs is 2000: tab A's pass removes the entry and tab B hears it.
    await b.waitForSelector(remote("expired"), { timeout: EVENT_TIMEOUT_MS });
    assert.match(await b.textContent(remote("expired")), /from-a/);
    assert.equal(await statNumber(b, "reaperRuns"), 0, "the follower runs no pass");

    await a.close();
    await poll(() => b.textContent(sel("stat-leader")), (t) => t === "this tab", EVENT_TIMEOUT_MS, "tab B takes over");
    await b.waitForSelector(sel("log-line", '[data-type="leader"]'), { timeout: EVENT_TIMEOUT_MS });
    assert.deepEqual(pageErrors, [], "uncaught errors in the pages");
  }, { viewport: DEMO_VIEWPORT });
});
