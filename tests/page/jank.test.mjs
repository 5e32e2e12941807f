// No jank (docs/tabs-and-workers.md): reaping a backlog of 100 000 expired entries causes no
// long task (> 50 ms, Chromium's PerformanceObserver "longtask") on the page, whatever the caps.
// A setTimeout(0) probe measures the longest gap the page's own tasks saw; the test prints it
// with the time the backlog took, and fails only on a long task (tests check behaviour, not
// speed). A gap with no long task is time the renderer was not scheduled (a busy machine), not
// work of the page. The observer is first shown an 80 ms busy loop, so its silence means something. Run with `node --test tests/page/` after scripts/build.sh (scripts/test.sh does both).

import { test } from "node:test";
import assert from "node:assert/strict";
import { value, withBrowser } from "./tabs-harness.mjs";

const ENTRIES = 100_000;

/** Fills `name` with ENTRIES entries that expire at once, then reaps them all under `options`. */
async function reapBacklog(tab, name, options) {
  return value(tab, `
    const s = await TtlStore.open(arg.name, { ...arg.options, autoReap: false });
    await s.setMany(Array.from({ length: arg.n }, (_, i) => ["k" + i, { i, body: "x".repeat(40) }, { ttl: 0.05 }]));
    await new Promise((r) => setTimeout(r, 100));
    let longTasks = [];
    const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => Math.round(e.duration))));
    observer.observe({ type: "longtask" });
    // The observer must see a long task for its silence to mean anything: make one, wait for it.
    const busyUntil = performance.now() + 80;
    while (performance.now() < busyUntil);
    await new Promise((r) => setTimeout(r, 200));
    const calibration = longTasks;
    longTasks = [];
    let gap = 0, last = performance.now(), probing = true;
    const probe = () => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
      if (probing) setTimeout(probe, 0);
    };
    setTimeout(probe, 0);
    const t0 = performance.now();
    let removed = 0, passes = 0;
    for (;;) {
      const r = await s.reap();
      removed += r.removed;
      passes += 1;
      if (r.remaining === 0) break;
    }
    const ms = Math.round(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 100)); // the observer reports after the task
    probing = false;
    observer.disconnect();
    const left = await s.count();
    s.close();
    return { removed, passes, ms, gap: Math.round(gap), longTasks, left, calibration };`,
  { name, options, n: ENTRIES }, 180_000);
}

for (const [label, options] of [
  ["default caps", {}],
  ["one pass of 100 000 in batches of 10 000", { maxRemovesPerRun: 100_000, batchSize: 10_000 }],
]) {
  test(`reaping ${ENTRIES} expired entries, ${label}: no long task`, { timeout: 240_000 }, async () => {
    await withBrowser(async ({ openTab }) => {
      const tab = await openTab();
      const r = await reapBacklog(tab, `jank-${label.length}`, options);
      console.log(`jank (${label}): ${r.removed} removed in ${r.passes} passes, ${r.ms} ms; longest gap ${r.gap} ms; long tasks ${JSON.stringify(r.longTasks)}`);
      assert.ok(r.calibration.length === 1 && r.calibration[0] >= 80, `the observer saw the 80 ms calibration task: ${r.calibration}`);
      assert.equal(r.removed, ENTRIES);
      assert.equal(r.left, 0);
      assert.deepEqual(r.longTasks, [], "long tasks (ms) while reaping");
    });
  });
}

// Live views (docs/idle-views-encryption.md, "Follow a key or a list as it changes and expires"):
// 1 000 observed entries expiring one every 10 ms, the reaper running beside them, told through
// three views at once: no long task, and no list a view is given ever holds an expired entry.
test("1 000 observed entries expiring one every 10 ms: no long task, nothing expired shown", { timeout: 120_000 }, async () => {
  await withBrowser(async ({ openTab }) => {
    const tab = await openTab();
    const r = await value(tab, `
      const s = await TtlStore.open("jank-views", { reapIntervalMs: 200 });
      await s.clear();
      const start = Date.now() / 1000 + 1;
      await s.setMany(Array.from({ length: 1000 }, (_, i) => ["v" + String(i).padStart(4, "0"), { i }, { expiresAt: start + i / 100 }]));
      let longTasks = [];
      const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => Math.round(e.duration))));
      observer.observe({ type: "longtask" });
      const busyUntil = performance.now() + 80;
      while (performance.now() < busyUntil);
      await new Promise((r) => setTimeout(r, 200));
      const calibration = longTasks;
      longTasks = [];
      let lists = 0, shownExpired = 0, empty;
      const done = new Promise((resolve) => { empty = resolve; });
      const listener = (list) => {
        lists += 1;
        // Strictly before now: seconds times 1000 may land a fraction of a millisecond off.
        const now = Date.now();
        for (const e of list) if (e.expiresAt * 1000 < now) shownExpired += 1;
        if (list.length === 0 && lists > 1) empty();
      };
      const stops = [s.observe({ prefix: "v" }, listener), s.observe({ from: "v0500", to: "v0999" }, () => {}),
        s.observe({ keys: ["v0001", "v0999"] }, () => {})];
      await done;
      await new Promise((r) => setTimeout(r, 100));
      observer.disconnect();
      for (const stop of stops) stop();
      const stats = s.stats();
      s.close();
      return { lists, shownExpired, longTasks, calibration, views: stats.views };`, undefined, 90_000);
    console.log(`views jank: ${r.lists} lists told; long tasks ${JSON.stringify(r.longTasks)}`);
    assert.ok(r.calibration.length === 1 && r.calibration[0] >= 80, `the observer saw the 80 ms calibration task: ${r.calibration}`);
    assert.deepEqual(r.longTasks, [], "long tasks (ms) while 1 000 observed entries expired");
    assert.equal(r.shownExpired, 0, "entries shown after their expiry");
    assert.ok(r.lists > 100, `the view was told as entries went (${r.lists} lists)`);
    assert.equal(r.views, 0);
  });
});
