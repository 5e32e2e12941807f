// The hostile-values catalogue (tests/hostile/catalogue.js) in Chromium, Firefox and WebKit, against
// the built package: every public method and option object against undefined, null, symbols,
// BigInt, -0, 2^53, 1e21, NaN, ±Infinity, 10 MB strings, revoked and throwing Proxies, throwing
// getters, cyclic objects, functions, DOM nodes, Dates, ArrayBuffers, boxed primitives, arrays with
// holes and 100 000-key arrays. Each case is refused with a TypeError or RangeError naming the
// argument, or accepted as documented; a refusal writes nothing; the store works afterwards.
// Each engine runs it against both of the package's entries: idb-ttl (www/pkg/index.js) and,
// without the default entry's members, idb-ttl/lite (www/pkg/lite/index.js). Here in Firefox and
// WebKit; in Chromium in chromium-hostile.test.mjs.

import { test } from "node:test";
import { ROOT, TEST_TIMEOUT_MS, startServer, stopServer } from "./harness.mjs";
import { ENTRIES, WAIT_MS, check, fixture } from "./hostile-report.mjs";
import { available, launch } from "./webdriver.mjs";

// Chromium: chromium-hostile.test.mjs.
for (const engine of ["firefox", "webkit"]) {
  for (const entry of ENTRIES) {
    test(`hostile values, ${engine}, ${entry} entry`, { timeout: WAIT_MS + TEST_TIMEOUT_MS, skip: !available(engine) && `${engine} is not installed` }, async (t) => {
      const server = startServer(ROOT);
      let session;
      try {
        const url = await server.url;
        session = await launch(engine);
        await session.goto(url + fixture(entry));
        const report = await session.waitFor(() => document.documentElement.dataset.report || null, WAIT_MS, "the catalogue to finish");
        check(t, engine, JSON.parse(report), entry);
      } finally {
        if (session) await session.quit();
        await stopServer(server.child);
      }
    });
  }
}
