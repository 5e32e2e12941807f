// Page tests for the demo's second part (www/collections.js): the `events` collection with a TTL
// index and the `sensors` time series. Debian's Chromium (driven by playwright-core) against www/,
// served by scripts/serve.mjs; run with `node --test tests/page/` after scripts/build.sh.
//
// Each test gets its own server on a free port, its own fresh --user-data-dir (so its IndexedDB
// starts empty and survives page.reload()), and closes both in `finally`. Every wait is bounded.
// What the page shows is checked against reads through `window.store`, on a fresh handle each time
// (`store.collection("events")` / `store.timeSeries("sensors")` without options open the stored
// definition).

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, READY_TIMEOUT_MS, TEST_TIMEOUT_MS, poll, sel, waitForLibrary, waitForReaperSettled, withDemoPage } from "./harness.mjs";

const docRow = (id) => sel("doc-row", `[data-id="${id}"]`);
const sensorRow = (name) => sel("sensor-row", `[data-sensor="${name}"]`);

/**
 * Runs `fn({ page })` with www/ served and a Chromium on a fresh profile, once both panels of the
 * second part are ready. Fails on uncaught page errors and on "error" lines in the page's event log.
 * Cleanup: see harness.mjs.
 */
function withDemo(fn) {
  return withDemoPage(fn, {
    ready: waitForPanels,
    check: async (page) => {
      const logged = await page.$$eval(sel("log-line", '[data-type="error"]'), (ls) => ls.map((l) => l.textContent));
      assert.deepEqual(logged, [], "errors in the page's event log");
    },
  });
}

/** Waits until the library is loaded and both panels are wired; fails with what the page says if not. */
async function waitForPanels(page) {
  await waitForLibrary(page);
  for (const name of ["collection", "series"]) {
    await page.waitForSelector(sel(`${name}-section`, "[data-state]"), { state: "attached", timeout: READY_TIMEOUT_MS });
    const state = await page.getAttribute(sel(`${name}-section`), "data-state");
    if (state !== "ready") assert.fail(`the ${name} panel is "${state}": ${await page.textContent(sel("event-log"))}`);
  }
}

const text = async (page, selector) => (await page.textContent(selector)).trim();
const shownCount = async (page) => Number(await text(page, sel("doc-count")));

/** Reads through `window.store` on a fresh handle of the `events` collection. */
function storeEvents(page, what, arg) {
  return page.evaluate(async ({ what, arg }) => {
    const events = await window.store.collection("events");
    switch (what) {
      case "count": return events.count();
      case "ttlIndex": return events.ttlIndex();
      case "ids": return (await events.values()).map((d) => d.id);
      case "has": return (await events.get(arg)) !== undefined;
      default: throw new Error(what);
    }
  }, { what, arg });
}

/** Counts through `window.store` on a fresh handle of the `sensors` series, plus the newest value per sensor. */
function storeSensors(page) {
  return page.evaluate(async () => {
    const sensors = await window.store.timeSeries("sensors");
    const newest = {};
    for (const meta of ["kitchen", "garage", "attic"]) {
      const events = await sensors.query({ meta });
      newest[meta] = events.length ? events[events.length - 1].value : null;
    }
    return { count: await sensors.count(), buckets: await sensors.bucketCount(), newest };
  });
}

/** What the time-series panel shows. */
async function shownSeries(page) {
  const num = async (testid) => Number(await page.getAttribute(sel(testid), "data-value"));
  return { count: await num("ts-count"), buckets: await num("ts-buckets") };
}

async function setExpireAfter(page, value) {
  await page.fill(sel("expire-input"), value);
  await page.click(sel("expire-set"));
}

async function putDoc(page, { id, ref = "iso", age = "0" }) {
  await page.fill(sel("doc-id"), id);
  await page.check(sel(`ref-${ref}`));
  await page.fill(sel("doc-age"), age);
  await page.click(sel("doc-add"));
}

test("collection: a document in a 3 s window is listed, then gone; one without createdAt stays", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    assert.match(await text(page, sel("ttl-index")), /^\{ field: "createdAt", expireAfter: 30, unit: "s" \}$/);
    // Put and listed in the 30 s window (however slow the clicks are), then the window is made 3 s.
    const before = Date.now();
    await putDoc(page, { id: "short" });
    await page.waitForSelector(docRow("short"), { timeout: EVENT_TIMEOUT_MS });
    const left = await text(page, `${docRow("short")} ${sel("doc-ttl")}`);
    const since = (Date.now() - before) / 1000;
    assert.match(left, /^\d+\.\d s$/, "a countdown in seconds");
    assert.ok(parseFloat(left) <= 30 && parseFloat(left) >= 30 - since - 1, `a countdown from 30 s: ${left}, ${since} s after the put`);
    assert.match(await text(page, `${docRow("short")} ${sel("doc-field")}`), /^string"\d{4}-\d\d-\d\dT[\d:.]+Z"$/);

    await putDoc(page, { id: "forever", ref: "missing" });
    await page.waitForSelector(docRow("forever"), { timeout: EVENT_TIMEOUT_MS });
    assert.equal(await text(page, `${docRow("forever")} ${sel("doc-ttl")}`), "never");

    await setExpireAfter(page, "3");
    await poll(() => text(page, sel("ttl-index")), (t) => t.includes("expireAfter: 3,"), EVENT_TIMEOUT_MS, "ttlIndex() shown");
    assert.deepEqual(await storeEvents(page, "ttlIndex"), { field: "createdAt", expireAfter: 3, unit: "s" });

    await page.waitForSelector(docRow("short"), { state: "detached", timeout: EVENT_TIMEOUT_MS });
    const gone = Date.now() - before;
    assert.ok(gone >= 2_900, `the row vanished after ${gone} ms, before its 3 s window`);
    assert.equal(await storeEvents(page, "has", "short"), false);
    assert.deepEqual(await storeEvents(page, "ids"), ["forever"]);
    assert.equal(await shownCount(page), 1);
    // The reaper's pass is logged with the document's id.
    await page.waitForSelector(sel("log-line", '[data-type="expired"]'), { timeout: EVENT_TIMEOUT_MS });
    assert.match(await text(page, sel("log-line", '[data-type="expired"]')), /collection "events": 1 document \("short"\)/);
  });
});

test("collection: setExpireAfter changes the count at once; with the reaper paused, widening brings documents back", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    // Paused, so the reaper physically removes nothing: what changes is only the cut-off.
    await page.click(sel("reaper-pause"));
    await poll(() => text(page, sel("stat-reaperPaused")), (s) => s === "true", EVENT_TIMEOUT_MS, "reaperPaused");
    await waitForReaperSettled(page); // a pass already under way finishes

    // createdAt 5, 10, 15, 20, 25 s ago, and one without createdAt; expireAfter 30: all live.
    await page.click(sel("doc-samples"));
    await poll(() => shownCount(page), (n) => n === 6, EVENT_TIMEOUT_MS, "documents shown after the samples");
    assert.equal(await storeEvents(page, "count"), 6);

    await setExpireAfter(page, "12");
    // At once: the reaper is paused, so only the new cut-off can have hidden them (how soon the
    // page shows it is the machine's speed; setExpireAfter's own time is in the note below).
    await poll(() => shownCount(page), (n) => n === 3, EVENT_TIMEOUT_MS, "documents shown after setExpireAfter(12)");
    assert.equal(await storeEvents(page, "count"), 3, "store count after setExpireAfter(12)");
    const note = await text(page, sel("expire-note"));
    assert.match(note, /^setExpireAfter\(12\) took [\d.]+ ms: live documents 6 → 3\. No document was rewritten/);
    assert.equal(await page.locator(sel("doc-row")).count(), 3);

    await setExpireAfter(page, "2 minutes");
    await poll(() => shownCount(page), (n) => n === 6, EVENT_TIMEOUT_MS, "documents shown after setExpireAfter(\"2 minutes\")");
    assert.equal(await storeEvents(page, "count"), 6, "store count after widening: nothing was deleted");
    assert.match(await text(page, sel("ttl-index")), /expireAfter: 120,/);
    assert.match(await text(page, sel("expire-note")), /live documents 3 → 6/);
    // The oldest sample (25 s old) now has about 95 s left.
    const oldest = await page.$$eval(sel("doc-row"), (rows) => rows.find((r) => r.textContent.includes("25 s old"))
      ?.querySelector('[data-testid="doc-ttl"]').textContent);
    assert.match(oldest ?? "", /^1m 3\ds$/, `time left of the 25 s old sample: ${oldest}`);

    await page.click(sel("reaper-resume"));
  });
});

test("collection: the field value kinds (ISO, Date, Unix s, missing) and their expiry; Unix ms under unit s refused", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const put = Date.now();
    for (const ref of ["iso", "date", "secs", "missing"]) await putDoc(page, { id: ref, ref, age: "10" });
    await poll(() => shownCount(page), (n) => n === 4, EVENT_TIMEOUT_MS, "documents shown");
    // Unix ms in a unit "s" index is a date after year 9999: refused, naming the unit that fits.
    await putDoc(page, { id: "ms", ref: "ms", age: "10" });
    await page.waitForSelector(`${sel("doc-error")}:not([hidden])`, { timeout: EVENT_TIMEOUT_MS });
    const refused = await text(page, sel("doc-error"));
    assert.match(refused, /^RangeError: document "ms" of collection "events": ttlIndex\.field "createdAt" holds \d+, which read in unit "s" is a date after year 9999/);
    assert.match(refused, /unit: "ms"/);
    const row = async (id) => ({
      kind: await text(page, `${docRow(id)} ${sel("doc-field")} .badge`),
      left: await text(page, `${docRow(id)} ${sel("doc-ttl")}`),
    });
    // Created 10 s ago, expireAfter 30: 20 s left, less the time since the puts (measured).
    for (const [id, kind] of [["iso", "string"], ["date", "Date"], ["secs", "number"]]) {
      const r = await row(id);
      const since = (Date.now() - put) / 1000;
      assert.equal(r.kind, kind, id);
      assert.match(r.left, /^\d+\.\d s$/, `${id}: ${r.left}`);
      assert.ok(parseFloat(r.left) <= 20.1 && parseFloat(r.left) >= 20 - since - 1, `${id}: ${r.left} left, ${since} s after the puts`);
    }
    assert.equal(await page.$(docRow("ms")), null, "the refused document is not there");
    assert.deepEqual(await row("missing"), { kind: "—", left: "never" });
    const stored = await page.evaluate(async () => {
      const d = await (await window.store.collection("events")).get("date");
      return d.createdAt instanceof Date;
    });
    assert.equal(stored, true, "the Date kind is stored as a Date");

    await setExpireAfter(page, "5");
    await poll(() => storeEvents(page, "ids"), (ids) => ids.join() === "missing", EVENT_TIMEOUT_MS, "live ids after setExpireAfter(5)");
    await poll(() => shownCount(page), (n) => n === 1, EVENT_TIMEOUT_MS, "documents shown after setExpireAfter(5)");
  });
});

test("collection: dropTtlIndex survives a reload and the index can be recreated", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    const put = Date.now();
    await putDoc(page, { id: "kept" });
    await page.waitForSelector(docRow("kept"), { timeout: EVENT_TIMEOUT_MS });
    const left = await text(page, `${docRow("kept")} ${sel("doc-ttl")}`);
    const since = (Date.now() - put) / 1000;
    assert.match(left, /^\d+\.\d s$/);
    assert.ok(parseFloat(left) <= 30 && parseFloat(left) >= 30 - since - 1, `${left} left of 30 s, ${since} s after the put`);

    await page.click(sel("ttl-drop"));
    await poll(() => text(page, sel("ttl-index")), (t) => t.startsWith("null"), EVENT_TIMEOUT_MS, "ttlIndex() after drop");
    assert.equal(await storeEvents(page, "ttlIndex"), null);
    await poll(() => text(page, `${docRow("kept")} ${sel("doc-ttl")}`), (t) => t === "never", EVENT_TIMEOUT_MS, "time left after drop");
    assert.match(await text(page, sel("expire-note")), /^dropTtlIndex\(\) → true/);
    assert.equal(await page.isDisabled(sel("expire-set")), true);

    await page.reload();
    await waitForPanels(page);
    await page.waitForSelector(docRow("kept"), { timeout: EVENT_TIMEOUT_MS });
    assert.match(await text(page, sel("ttl-index")), /^null/, "still dropped after the reload");
    assert.equal(await text(page, `${docRow("kept")} ${sel("doc-ttl")}`), "never");

    await page.fill(sel("expire-input"), "45");
    await page.click(sel("ttl-create"));
    await poll(() => text(page, sel("ttl-index")), (t) => t.includes("expireAfter: 45,"), EVENT_TIMEOUT_MS, "ttlIndex() after recreate");
    assert.deepEqual(await storeEvents(page, "ttlIndex"), { field: "createdAt", expireAfter: 45, unit: "s" });
    const recreated = await poll(() => text(page, `${docRow("kept")} ${sel("doc-ttl")}`), (t) => /^\d+\.\d s$/.test(t), EVENT_TIMEOUT_MS, "time left after recreate");
    const sincePut = (Date.now() - put) / 1000;
    assert.ok(parseFloat(recreated) <= 45 && parseFloat(recreated) >= 45 - sincePut - 1, `${recreated} left of 45 s, ${sincePut} s after the put`);

    await page.reload();
    await waitForPanels(page);
    await page.waitForSelector(docRow("kept"), { timeout: EVENT_TIMEOUT_MS });
    assert.match(await text(page, sel("ttl-index")), /expireAfter: 45,/, "the recreated index after a reload");
  });
});

test("time series: a few seconds of stream: events > buckets > 0, as the store reads them, and again after a reload", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    await page.click(sel("stream-toggle"));
    await poll(() => page.getAttribute(sel("stream-state"), "data-streaming"), (s) => s === "true", EVENT_TIMEOUT_MS, "streaming");
    await page.waitForTimeout(3_000);
    await page.click(sel("stream-toggle"));
    await poll(() => page.getAttribute(sel("stream-state"), "data-streaming"), (s) => s === "false", EVENT_TIMEOUT_MS, "stopped");
    await page.waitForTimeout(400); // an insert under way when stopping lands

    // The panel refreshes every 500 ms: wait until it shows what the store reads now.
    const store = await storeSensors(page);
    await poll(() => shownSeries(page), (s) => s.count === store.count && s.buckets === store.buckets, EVENT_TIMEOUT_MS,
      `panel vs store ${JSON.stringify(store)}`);
    assert.ok(store.count > store.buckets && store.buckets > 0, `events ${store.count} > buckets ${store.buckets} > 0`);
    assert.ok(store.count >= 15, `about 3 s of 3 sensors every 200 ms, got ${store.count} events`);
    // One open bucket per sensor (two if an hour boundary fell in the run).
    assert.ok(store.buckets >= 3 && store.buckets <= 6, `bucket records: ${store.buckets}`);
    assert.equal(Number((await text(page, sel("ts-inserted"))).replace(/,/g, "")), store.count, "inserted = live events");
    assert.equal(await text(page, sel("ts-per-bucket")), (store.count / store.buckets).toFixed(1));
    assert.match(await text(page, sel("ratio-line")), new RegExp(`held in ${store.buckets} IndexedDB records`));
    for (const [meta, value] of Object.entries(store.newest)) {
      assert.equal(Number(await page.getAttribute(`${sensorRow(meta)} ${sel("sensor-last")}`, "data-value")), value, meta);
    }

    await page.reload();
    await waitForPanels(page);
    const again = await storeSensors(page);
    assert.equal(again.count, store.count, "the same events after the reload");
    assert.equal(again.buckets, store.buckets, "the same bucket records after the reload");
    await poll(() => shownSeries(page), (s) => s.count === again.count && s.buckets === again.buckets, EVENT_TIMEOUT_MS, "panel after the reload");
    for (const [meta, value] of Object.entries(again.newest)) {
      assert.equal(Number(await page.getAttribute(`${sensorRow(meta)} ${sel("sensor-last")}`, "data-value")), value, meta);
    }
  });
});

test("time series: a 3 000-event burst is 3 bucket records (1000 events each), reaped whole once its latest event is 20 s old", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemo(async ({ page }) => {
    await page.click(sel("stream-burst"));
    await poll(() => shownSeries(page), (s) => s.count === 3000, EVENT_TIMEOUT_MS, "events shown after the burst");
    const start = Date.now();
    // 1000 events a bucket: one full bucket per sensor (two each if an hour boundary fell in the 15 s).
    const { buckets } = await shownSeries(page);
    assert.ok(buckets === 3 || buckets === 6, `bucket records after the burst: ${buckets}`);
    assert.match(await text(page, sel("stream-state")), new RegExp(`insertMany\\(3,000 events\\) → ${buckets} bucket records written`));
    assert.match(await text(page, sel("ratio-line")), new RegExp(`3,000 live events are held in ${buckets} IndexedDB records: ${3000 / buckets}× fewer`));

    // The oldest events (15 s old) leave reads after about 5 s, while their buckets stay stored.
    const decayed = await poll(() => shownSeries(page), (s) => s.count < 3000 && s.count > 0, EVENT_TIMEOUT_MS, "events expiring inside buckets");
    assert.equal(decayed.buckets, buckets, "buckets are not removed while one of their events is live");

    // The newest events were written at the burst; 20 s later plus a reaper interval the buckets go.
    await poll(() => shownSeries(page), (s) => s.buckets === 0, EVENT_TIMEOUT_MS, "bucket records after the window");
    const after = Date.now() - start;
    assert.ok(after >= 18_000, `buckets removed ${after} ms after the burst, before the 20 s window`);
    assert.deepEqual(await storeSensors(page), { count: 0, buckets: 0, newest: { kitchen: null, garage: null, attic: null } });
    await poll(() => page.getAttribute(sel("ts-reaped"), "data-count"), (n) => n === String(buckets), EVENT_TIMEOUT_MS, "buckets reaped");
    const line = await page.$$eval(sel("log-line", '[data-type="expired"]'), (ls) => ls.map((l) => l.textContent).join("\n"));
    assert.match(line, /time series "sensors": \d whole buckets?/);
  });
});
