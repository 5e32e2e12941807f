// examples/react-watch: store.watch() and store.observe() behind React's useSyncExternalStore,
// the real React 19 from npm (pinned in package.json; scripts/setup.sh installs it), bundled by
// the example's own build.mjs. In Chromium: the offer flips to "The offer has ended" when its key
// expires while the record is still in IndexedDB (autoReap: false: no reaper pass told it), "End
// it now" flips it at once, and an offer started in a second tab shows and ends in both; items
// added in one tab show in the other and leave both one at a time as they expire.

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { ROOT, TEST_TIMEOUT_MS, poll, sel, withChromium } from "./harness.mjs";
import { buildExample } from "../../examples/react-watch/build.mjs";

before(buildExample);

const PAGE = "examples/react-watch/index.html";

async function open(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(new URL(PAGE, url).href);
  await page.waitForSelector("html[data-state=ready]", { state: "attached", timeout: 30_000 });
  return { page, errors };
}

const offerText = (page) => page.textContent(sel("offer"));

/** The offer's record as plain IndexedDB has it: [expiry ms, key] of every entry keyed "offer". */
const stored = (page) => page.evaluate(() => new Promise((ok, ko) => {
  const r = indexedDB.open("react-watch-example");
  r.onsuccess = () => {
    const db = r.result;
    const q = db.transaction("entries").objectStore("entries").getAllKeys();
    q.onsuccess = () => { db.close(); ok(q.result.filter((k) => k[1] === "offer")); };
    q.onerror = () => ko(q.error);
  };
  r.onerror = () => ko(r.error);
}));

test("an offer counts down and ends when its key expires, before any reaper pass", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(ROOT, async ({ context, url }) => {
    const { page, errors } = await open(context, url);
    assert.match(await offerText(page), /The offer has ended/);
    await page.fill(sel("seconds"), "2");
    await page.click(sel("start"));
    await poll(() => offerText(page), (t) => /Offer of .* ends in [12] s/.test(t), 5_000, "the offer shows with its countdown");
    await poll(() => offerText(page), (t) => /The offer has ended/.test(t), 6_000, "the offer ends when its key expires");
    // Told at expiry, not by the reaper: the expired record is still stored.
    assert.equal((await stored(page)).length, 1, "the expired record is still in IndexedDB (autoReap: false)");
    assert.equal(await page.evaluate(() => window.store.get("offer")), undefined);
    // Ended by hand.
    await page.fill(sel("seconds"), "60");
    await page.click(sel("start"));
    await poll(() => offerText(page), (t) => /ends in (60|59) s/.test(t), 5_000, "a 60 s offer shows");
    await page.click(sel("end"));
    await poll(() => offerText(page), (t) => /The offer has ended/.test(t), 5_000, "End it now flips it");
    assert.deepEqual(errors, []);
  });
});

test("an offer started in another tab shows and ends in both", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(ROOT, async ({ context, url }) => {
    const a = await open(context, url);
    const b = await open(context, url);
    await b.page.fill(sel("seconds"), "3");
    await b.page.click(sel("start"));
    for (const { page } of [a, b]) {
      await poll(() => offerText(page), (t) => /Offer of .* ends in/.test(t), 5_000, "the offer shows in both tabs");
    }
    for (const { page } of [a, b]) {
      await poll(() => offerText(page), (t) => /The offer has ended/.test(t), 8_000, "the offer ends in both tabs");
    }
    assert.deepEqual([...a.errors, ...b.errors], []);
  });
});

/** The keys the item list shows, in order, with when each expires (Unix seconds). */
const shown = (page) => page.$$eval(sel("item"), (ls) => ls.map((l) => [l.dataset.key, Number(l.dataset.expiresAt)]));

test("items added in one tab show in another and leave both one by one as they expire, with no reaper", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(ROOT, async ({ context, url }) => {
    const a = await open(context, url);
    const b = await open(context, url);
    await a.page.waitForSelector(sel("items-empty"));
    await b.page.fill(sel("apart"), "1.5");
    await b.page.click(sel("add-items"));
    const first = await poll(() => shown(a.page), (l) => l.length === 5, 3_000, "tab A shows tab B's 5 items");
    assert.deepEqual((await shown(b.page)).map(([k]) => k), first.map(([k]) => k), "the same list in both tabs");
    const spacing = first.map(([, at], i) => (i === 0 ? 1.5 : at - first[i - 1][1]));
    assert.ok(spacing.every((s) => Math.abs(s - 1.5) < 0.1), `expiring 1.5 s apart: ${spacing}`);

    // Each leaves at its expiry, in order, never before it: the view's timer, not the reaper.
    const left = [];
    let last = first;
    while (last.length > 0) {
      const now = await shown(a.page);
      const t = Date.now() / 1000;
      if (now.length !== last.length) {
        assert.deepEqual(now.map(([k]) => k), last.slice(1).map(([k]) => k), `one item at a time, the soonest first (was ${last.length})`);
        left.push(t - last[0][1]);
        last = now;
      }
      assert.ok(t < first[4][1] + 3, `the list still holds ${JSON.stringify(last)} 3 s after the last expiry`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(left.length, 5, "five steps");
    assert.ok(left.every((d) => d > -0.05 && d < 0.6), `each left 0-0.6 s after its expiry: ${left.map((d) => d.toFixed(2))}`);
    await b.page.waitForSelector(sel("items-empty"), { timeout: 2_000 });
    await a.page.waitForSelector(sel("items-empty"), { timeout: 2_000 });
    assert.equal(await a.page.evaluate(() => window.store.stats().reaperRuns), 0, "no reaper pass (autoReap: false)");
    const records = await a.page.evaluate(() => new Promise((ok, ko) => {
      const r = indexedDB.open("react-watch-example");
      r.onsuccess = () => {
        const db = r.result;
        const q = db.transaction("entries").objectStore("entries").getAllKeys();
        q.onsuccess = () => { db.close(); ok(q.result.filter((k) => String(k[1]).startsWith("item:")).length); };
        q.onerror = () => ko(q.error);
      };
      r.onerror = () => ko(r.error);
    }));
    assert.equal(records, 5, "the expired records are still in IndexedDB");
    assert.equal(await a.page.evaluate(() => window.store.stats().viewTimerAt), null, "no timer left");
    assert.deepEqual([...a.errors, ...b.errors], []);
  });
});
