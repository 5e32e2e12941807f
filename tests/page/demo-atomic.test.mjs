// Page tests for the demo's "Count and claim" panel (www/atomic.js), in two tabs of one browser:
// both burst 100 incr("hits") at once, and both show the sum, every result different (together
// exactly 1..200), each tab's log naming the other tab's writes; both claim the lock at once:
// exactly one add() gets true, and the other tab shows which tab holds it; renewed, its expiry
// moves on; released, the other tab's claim wins. Debian's Chromium (playwright-core) against
// www/, served by scripts/serve.mjs; run with `node --test tests/page/` after scripts/build.sh.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, DEMO_VIEWPORT, TEST_TIMEOUT_MS, WWW, poll, sel, waitForLibrary, withChromium } from "./harness.mjs";

/** Opens the demo in a new tab of `context` and waits for the panel's store; collects page errors. */
async function openDemo(context, url, pageErrors) {
  const page = await context.newPage();
  const n = context.pages().length;
  page.on("pageerror", (e) => pageErrors.push(`tab ${n}: ${e.message}`));
  await page.goto(url);
  await waitForLibrary(page);
  await page.waitForSelector(`${sel("atomic-claim")}:not([disabled])`);
  return page;
}

/** Clicks `testid` in each page, each click one script run in its page: as near at once as two tabs allow. */
const clickAll = (pages, testid) => Promise.all(pages.map((p) => p.$eval(sel(testid), (b) => b.click())));

const count = async (page) => Number(await page.getAttribute(sel("atomic-count"), "data-count"));
/** The rate limit readout's state: "none", "allowed" or "limited". */
const limitState = (page) => page.getAttribute(sel("atomic-limit"), "data-state");
const tabOf = (page) => page.getAttribute(sel("atomic-panel"), "data-tab");
const said = (page) => page.textContent(sel("atomic-said"));
const lock = (page) => page.$eval(sel("atomic-lock"), (el) => ({ state: el.dataset.state, holder: el.dataset.holder, text: el.textContent }));

/** The burst readout once its calls are done: `{ state, results }`. */
const burst = (page) => poll(
  () => page.$eval(sel("atomic-burst-result"), (el) => ({ state: el.dataset.state, results: (el.dataset.results ?? "").split(",").filter(Boolean).map(Number) })),
  (b) => b.state !== "none" && b.state !== "running", EVENT_TIMEOUT_MS, "the burst's results");

/** How many writes the log counts from `who` with `text` (lines add up their "×n"). */
const logged = (page, who, text) => page.$$eval(sel("atomic-log-line"), (ls, [who, text]) => ls
  .filter((l) => l.dataset.who === who && l.dataset.text === text)
  .reduce((n, l) => n + Number(l.dataset.count), 0), [who, text]);

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test("a burst of 100 incr from each of two tabs at once: both show 200, every result different", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(WWW, async ({ context, url }) => {
    const pageErrors = [];
    const a = await openDemo(context, url, pageErrors);
    const b = await openDemo(context, url, pageErrors);
    assert.notEqual(await tabOf(a), await tabOf(b), "each tab has a name of its own");
    assert.equal(await count(a), 0);
    assert.equal(await limitState(a), "none");

    await clickAll([a, b], "atomic-burst");
    const [inA, inB] = [await burst(a), await burst(b)];
    assert.equal(inA.state, "distinct", `tab A's results: ${inA.results}`);
    assert.equal(inB.state, "distinct", `tab B's results: ${inB.results}`);
    assert.equal(inA.results.length, 100);
    assert.equal(inB.results.length, 100);
    assert.deepEqual([...inA.results, ...inB.results].sort((x, y) => x - y), range(1, 200), "no result given twice, none missing");
    await poll(() => count(a), (n) => n === 200, EVENT_TIMEOUT_MS, "tab A shows the sum");
    await poll(() => count(b), (n) => n === 200, EVENT_TIMEOUT_MS, "tab B shows the sum");
    for (const page of [a, b]) {
      assert.equal(await limitState(page), "limited");
      assert.match(await page.textContent(sel("atomic-window")), /^the window ends in \d+\.\d s, and the count with it$/);
    }
    const left = await a.evaluate(() => window.atomicStore.ttl("hits"));
    assert.ok(left > 40 && left <= 60, `the window opened by the first incr, 60 s: ${left} s left`);

    // Each tab's log: its own 100 writes, and the other tab's 100 told by "change" events.
    for (const page of [a, b]) {
      await poll(() => logged(page, "another tab", 'incr "hits"'), (n) => n === 100, EVENT_TIMEOUT_MS, "the other tab's incr in the log");
      assert.equal(await logged(page, "this tab", 'incr "hits"'), 100);
    }

    // One more hit: the count goes on from the sum, in both tabs.
    await b.click(sel("atomic-hit"));
    await poll(() => said(b), (t) => t.includes("→ 201"), EVENT_TIMEOUT_MS, "tab B's hit answered");
    assert.match(await said(b), /incr\("hits", 1, \{ ttl: 60 \}\) → 201: limited/);
    await poll(() => count(a), (n) => n === 201, EVENT_TIMEOUT_MS, "tab A shows tab B's hit");
    assert.deepEqual(pageErrors, [], "uncaught errors in the pages");
  }, { viewport: DEMO_VIEWPORT });
});

test("both tabs claim the lock at once: one holds it and the other shows which; released, the other claims it", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withChromium(WWW, async ({ context, url }) => {
    const pageErrors = [];
    const a = await openDemo(context, url, pageErrors);
    const b = await openDemo(context, url, pageErrors);
    const names = new Map([[a, await tabOf(a)], [b, await tabOf(b)]]);
    assert.equal((await lock(a)).state, "free");

    await clickAll([a, b], "atomic-claim");
    const claimed = await Promise.all([a, b].map((p) => poll(() => p.getAttribute(sel("atomic-panel"), "data-claimed"), (c) => c !== null, EVENT_TIMEOUT_MS, "add() answered")));
    assert.deepEqual([...claimed].sort(), ["false", "true"], "exactly one add() wrote");
    const [winner, loser] = claimed[0] === "true" ? [a, b] : [b, a];
    const w = names.get(winner);
    await poll(() => lock(winner), (l) => l.state === "mine" && l.holder === w, EVENT_TIMEOUT_MS, "the winner holds the lock");
    const shown = await poll(() => lock(loser), (l) => l.state === "other" && l.holder === w, EVENT_TIMEOUT_MS, "the loser shows who holds it");
    assert.ok(shown.text.includes(w), shown.text);
    assert.match(await said(loser), new RegExp(`add\\("lock", "${names.get(loser)}", \\{ ttl: 30 \\}\\) → false: ${w} holds it`));
    for (const page of [winner, loser]) {
      const left = await poll(() => page.textContent(sel("atomic-lock-left")), (t) => t.startsWith("frees itself in "), EVENT_TIMEOUT_MS, "the lock's time left");
      const secs = Number(/[\d.]+/.exec(left)[0]);
      assert.ok(secs > 25 && secs <= 30, left);
    }
    assert.equal(await loser.isDisabled(sel("atomic-release")), true, "only the holder can release");
    assert.equal(await loser.isDisabled(sel("atomic-renew")), true, "only the holder can renew");
    assert.ok(await logged(loser, w, "claimed the lock") >= 1, "the loser's log names the tab that claimed it");

    // Renew: expire(..., only: "hasExpiry") gives it 30 s from now, in both tabs' readouts.
    const before = await winner.evaluate(() => window.atomicStore.expiresAt("lock"));
    await new Promise((r) => setTimeout(r, 500));
    await winner.click(sel("atomic-renew"));
    await poll(() => said(winner), (t) => t.includes("→ true: 30 s more"), EVENT_TIMEOUT_MS, "the renewal answered");
    const after = await winner.evaluate(() => window.atomicStore.expiresAt("lock"));
    assert.ok(after - before >= 0.4, `the expiry moved on: ${before} -> ${after}`);
    await poll(() => logged(loser, w, "renewed the lock: expire → 30 s"), (n) => n === 1, EVENT_TIMEOUT_MS, "the loser's log names the renewal");

    // A claim while held changes nothing; after the holder releases, the other tab's claim wins.
    await loser.click(sel("atomic-claim"));
    await poll(() => said(loser), (t) => / → false: /.test(t), EVENT_TIMEOUT_MS, "a second claim refused");
    await winner.click(sel("atomic-release"));
    await poll(() => said(winner), (t) => t.endsWith(": released"), EVENT_TIMEOUT_MS, "released");
    await poll(() => lock(loser), (l) => l.state === "free", EVENT_TIMEOUT_MS, "the loser sees the lock free");
    assert.ok(await logged(loser, w, "released the lock") >= 1, "the loser's log names the tab that released it");
    await loser.click(sel("atomic-claim"));
    await poll(() => said(loser), (t) => t.includes("→ true"), EVENT_TIMEOUT_MS, "the other tab's claim wins");
    const l = names.get(loser);
    await poll(() => lock(loser), (s) => s.state === "mine" && s.holder === l, EVENT_TIMEOUT_MS, "the other tab holds it");
    await poll(() => lock(winner), (s) => s.state === "other" && s.holder === l, EVENT_TIMEOUT_MS, "and the first tab shows it");
    assert.deepEqual(pageErrors, [], "uncaught errors in the pages");
  }, { viewport: DEMO_VIEWPORT });
});
