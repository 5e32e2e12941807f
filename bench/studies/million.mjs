#!/usr/bin/env node
// Question: Do setMany and import() of 1 000 000 entries complete with default options, and in how long?
// setMany and import() of 1 000 000 entries with default options, in one headless Chromium
// (issue 19: such a setMany failed with a TimeoutError at the default 30 s while its requests
// kept answering; the watchdog now tells a running transaction from a stuck one). Prints one
// JSON line: each call's outcome and time, and the counts. Several minutes; not a test and not
// the benchmark. Needs scripts/build.sh first (it loads www/pkg through the blank test fixture).
//   node bench/studies/million.mjs
import { CHROMIUM_FULL, withChromium, ROOT } from "../../tests/page/harness.mjs";
await withChromium(ROOT, async ({ context, url }) => {
  const page = await context.newPage();
  await page.goto(new URL("tests/page/fixtures/blank.html", url).href);
  await page.waitForSelector("html[data-state=ready]", { state: "attached", timeout: 30000 });
  page.setDefaultTimeout(0);
  const out = await page.evaluate(async () => {
    const { TtlStore } = window.idbTtl;
    const N = 1_000_000;
    const res = {};
    const s = await TtlStore.open("million", { autoReap: false });
    const rows = Array.from({ length: N }, (_, i) => [`key-${i}`, { i, text: "x".repeat(100) }, { ttl: 3600 + (i % 1000) }]);
    let t = performance.now();
    try { await s.setMany(rows); res.setMany = { ok: true, ms: Math.round(performance.now() - t) }; }
    catch (e) { res.setMany = { ok: false, ms: Math.round(performance.now() - t), error: `${e.name}: ${e.message}` }; }
    t = performance.now(); res.count = await s.count(); res.countMs = Math.round(performance.now() - t);
    t = performance.now(); const snap = await s.export(); res.exportMs = Math.round(performance.now() - t);
    res.exported = snap.entries.length;
    s.close();
    const d = await TtlStore.open("million-2", { autoReap: false });
    t = performance.now();
    try { await d.import(snap); res.import = { ok: true, ms: Math.round(performance.now() - t) }; }
    catch (e) { res.import = { ok: false, ms: Math.round(performance.now() - t), error: `${e.name}: ${e.message}` }; }
    res.importedCount = await d.count();
    d.close();
    return res;
  });
  console.log(JSON.stringify(out));
}, { executablePath: CHROMIUM_FULL });
