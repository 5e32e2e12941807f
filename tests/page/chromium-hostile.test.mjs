// The hostile-values catalogue (tests/hostile/catalogue.js) in Chromium, against both of the
// package's entries (idb-ttl and idb-ttl/lite) at once, each in a Chromium of its own: the run is
// mostly IndexedDB round trips, so the two overlap (110 s for both at once against 186 + 142 s one
// after the other, at a load average of 7 on 2 cores). hostile.test.mjs runs it in Firefox and
// WebKit, where it says what the catalogue covers. A file of its own, and named to sort before the
// others: it is the longest page test, and node's test runner starts files in name order, so with
// several files at a time (scripts/test.sh) it starts first instead of holding up the end of the run.

import { describe, it } from "node:test";
import { ROOT, TEST_TIMEOUT_MS, withChromium } from "./harness.mjs";
import { ENTRIES, WAIT_MS, check, fixture } from "./hostile-report.mjs";

describe("hostile values, Chromium", { concurrency: true }, () => {
  for (const entry of ENTRIES) {
    it(`hostile values, Chromium, ${entry} entry`, { timeout: WAIT_MS + TEST_TIMEOUT_MS }, async (t) => {
      await withChromium(ROOT, async ({ context, url }) => {
        const page = await context.newPage();
        await page.goto(url + fixture(entry));
        await page.waitForFunction(() => document.documentElement.dataset.report, null, { timeout: WAIT_MS });
        check(t, "chromium", JSON.parse(await page.evaluate(() => document.documentElement.dataset.report)), entry);
      });
    });
  }
});
