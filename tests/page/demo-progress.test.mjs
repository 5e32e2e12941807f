// Page tests for the demo's "Long work" panel (www/long.js): "Import 100 000 entries" runs
// store.import() with { signal, onProgress }, and the <progress> bar rises while it runs; Cancel
// aborts it part way, and the store holds nothing of it (all or nothing); imported again to the
// end, the store holds 100 000 entries; "Export as file" gives an NDJSON file of them, one
// snapshot per line. Progress is read from the DOM (a MutationObserver on the bar), never timed.
// Debian's Chromium (playwright-core) against www/, served by scripts/serve.mjs; run with
// `node --test tests/page/` after scripts/build.sh.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, poll, sel, waitForLibrary, withDemoPage } from "./harness.mjs";

const N = 100_000;
/** 100 000 writes take seconds, more on a loaded machine: generous bounds, nothing timed. */
const LONG_MS = 150_000;

const state = (page) => page.getAttribute(sel("long-state"), "data-state");
const shownCount = (page) => page.getAttribute(sel("long-count"), "data-count");
const storeCount = (page) => page.evaluate(() => window.longStore.count());

/** Starts recording every { value, max } the bar shows, from now on. */
const recordBar = (page) => page.evaluate(() => {
  const bar = document.querySelector('[data-testid="long-progress"]');
  window.barSeen = [];
  window.barObserver?.disconnect();
  window.barObserver = new MutationObserver(() => window.barSeen.push({ value: bar.value, max: bar.max }));
  window.barObserver.observe(bar, { attributes: true, attributeFilter: ["value", "max"] });
});
const barSeen = (page) => page.evaluate(() => window.barSeen);

/** Waits until the call has ended (its state no longer "running"); returns the state. */
const ended = (page) => poll(() => state(page), (s) => s !== "running", LONG_MS, "the call ended");

test("an import of 100 000 entries shows its progress, Cancel writes nothing, and run to its end it writes them all",
  { timeout: 4 * LONG_MS }, async (t) => {
    await withDemoPage(async ({ page }) => {
      await waitForLibrary(page);
      await page.waitForSelector(`${sel("long-import")}:not([disabled])`);
      await poll(() => shownCount(page), (c) => c === "0", EVENT_TIMEOUT_MS, "the count shown");
      assert.ok(await page.isDisabled(sel("long-cancel")), "Cancel is off while nothing runs");

      // Cancelled part way: once the bar shows some progress, and not all.
      await recordBar(page);
      await page.click(sel("long-import"));
      const at = await (await page.waitForFunction((n) => {
        const bar = document.querySelector('[data-testid="long-progress"]');
        return bar.max === n && bar.value > 0 && bar.value < n && bar.value;
      }, N, { polling: 50, timeout: LONG_MS })).jsonValue();
      assert.equal(await state(page), "running");
      assert.ok(await page.isDisabled(sel("long-import")), "Import is off while it runs");
      await page.click(sel("long-cancel"));
      t.diagnostic(`Cancel pressed with the bar at ${at} / ${N}`);
      assert.equal(await ended(page), "cancelled", await page.textContent(sel("long-state")));
      assert.match(await page.textContent(sel("long-state")), /^import\(\): cancelled: nothing written \(count\(\) unchanged: 0\)$/);
      const cancelled = await barSeen(page);
      assert.ok(cancelled.some((p) => p.max === N && p.value > 0 && p.value < N), `progress shown part way: ${JSON.stringify(cancelled)}`);
      assert.equal(await shownCount(page), "0", "the count shown after the cancel");
      assert.equal(await storeCount(page), 0, "count(): nothing of the cancelled import was written");
      assert.equal(await page.evaluate(() => window.longStore.get("item:000000")), undefined, "not even its first entry");
      assert.ok(!(await page.isDisabled(sel("long-import"))), "Import is on again");
      assert.ok(await page.isDisabled(sel("long-cancel")), "Cancel is off again");

      // Again, to the end: the bar rises to the total, and the store holds every entry.
      await recordBar(page);
      await page.click(sel("long-import"));
      assert.equal(await ended(page), "done", await page.textContent(sel("long-state")));
      assert.match(await page.textContent(sel("long-state")), /^import\(\): 100,000 entries written in \d+\.\d s$/);
      t.diagnostic(await page.textContent(sel("long-state")));
      const full = (await barSeen(page)).filter((p) => p.max === N);
      assert.ok(full.length > 0 && full.at(-1).value === N, `the bar ends full: ${JSON.stringify(full.slice(-3))}`);
      assert.ok(full.every((p, i) => i === 0 || p.value >= full[i - 1].value), `the bar never goes back: ${JSON.stringify(full)}`);
      assert.equal(await shownCount(page), String(N));
      assert.equal(await storeCount(page), N, "count() after the import");
      assert.deepEqual(await page.evaluate(() => window.longStore.get("item:099999")), { i: 99_999, text: "entry 99999" });

      // Export as file: one snapshot per line, every entry once.
      await page.click(sel("long-export"));
      assert.equal(await ended(page), "done", await page.textContent(sel("long-state")));
      assert.match(await page.textContent(sel("long-state")), /^exportStream\(\): 100,000 entries read as \d+ snapshots in \d+\.\d s$/);
      assert.equal(await page.getAttribute(sel("long-download"), "download"), "idb-ttl-demo-long.ndjson");
      const file = await page.evaluate(async () => {
        const text = await (await fetch(document.querySelector('[data-testid="long-download"]').href)).text();
        const lines = text.split("\n");
        const last = lines.pop();
        const snapshots = lines.map((l) => JSON.parse(l));
        const keys = new Set(snapshots.flatMap((s) => s.entries.map((e) => e.key)));
        return { last, lines: lines.length, formats: [...new Set(snapshots.map((s) => s.format))], most: Math.max(...snapshots.map((s) => s.entries.length)), keys: keys.size };
      });
      assert.equal(file.last, "", "the file ends with a newline");
      assert.deepEqual(file.formats, ["idb-ttl-snapshot"]);
      assert.ok(file.most <= 1000, `snapshots of up to 1 000 entries: ${file.most}`);
      assert.equal(file.keys, N, "every entry once");
      assert.match(await page.textContent(sel("long-download")), new RegExp(`^idb-ttl-demo-long\\.ndjson \\([\\d,]+ bytes, ${file.lines} lines\\)$`));
    });
  });
