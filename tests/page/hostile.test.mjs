// The hostile-values catalogue (tests/hostile/catalogue.js) in Chromium, Firefox and WebKit, against
// the built package: every public method and option object against undefined, null, symbols,
// BigInt, -0, 2^53, 1e21, NaN, ±Infinity, 10 MB strings, revoked and throwing Proxies, throwing
// getters, cyclic objects, functions, DOM nodes, Dates, ArrayBuffers, boxed primitives, arrays with
// holes and 100 000-key arrays. Each case is refused with a TypeError or RangeError naming the
// argument, or accepted as documented; a refusal writes nothing; the store works afterwards.

import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, TEST_TIMEOUT_MS, startServer, stopServer, withChromium } from "./harness.mjs";
import { available, launch } from "./webdriver.mjs";

const FIXTURE = "tests/page/fixtures/hostile.html";
const WAIT_MS = 240_000;

function check(t, engine, report) {
  assert.equal(report.crashed, undefined, `${engine}: the catalogue crashed: ${report.crashed}`);
  const { cases, outcomes, failures } = report;
  t.diagnostic(`${engine}: ${cases} cases: ${outcomes.accepted} accepted as documented, ${outcomes.TypeError} TypeError, ` +
    `${outcomes.RangeError} RangeError; ${failures.length} failures`);
  assert.ok(cases > 1000, `${engine}: the catalogue ran (${cases} cases)`);
  assert.deepEqual(failures, [], `${engine}: ${failures.length} cases went wrong`);
}

test("hostile values, Chromium", { timeout: WAIT_MS + TEST_TIMEOUT_MS }, async (t) => {
  await withChromium(ROOT, async ({ context, url }) => {
    const page = await context.newPage();
    await page.goto(url + FIXTURE);
    await page.waitForFunction(() => document.documentElement.dataset.report, null, { timeout: WAIT_MS });
    check(t, "chromium", JSON.parse(await page.evaluate(() => document.documentElement.dataset.report)));
  });
});

for (const engine of ["firefox", "webkit"]) {
  test(`hostile values, ${engine}`, { timeout: WAIT_MS + TEST_TIMEOUT_MS, skip: !available(engine) && `${engine} is not installed` }, async (t) => {
    const server = startServer(ROOT);
    let session;
    try {
      const url = await server.url;
      session = await launch(engine);
      await session.goto(url + FIXTURE);
      const report = await session.waitFor(() => document.documentElement.dataset.report || null, WAIT_MS, "the catalogue to finish");
      check(t, engine, JSON.parse(report));
    } finally {
      if (session) await session.quit();
      await stopServer(server.child);
    }
  });
}
