// The hostile-values catalogue (tests/hostile/catalogue.js) in Chromium, Firefox and WebKit, against
// the built package: every public method and option object against undefined, null, symbols,
// BigInt, -0, 2^53, 1e21, NaN, ±Infinity, 10 MB strings, revoked and throwing Proxies, throwing
// getters, cyclic objects, functions, DOM nodes, Dates, ArrayBuffers, boxed primitives, arrays with
// holes and 100 000-key arrays. Each case is refused with a TypeError or RangeError naming the
// argument, or accepted as documented; a refusal writes nothing; the store works afterwards.
// Chromium runs it against both of the package's entries, idb-ttl (www/pkg/index.js) and idb-ttl/lite
// (www/pkg/lite/index.js), on Chromium's SQLite backend, and what it stores on LevelDB, in
// chromium-hostile.test.mjs. Here Firefox and WebKit run it against the
// default entry only: idb-ttl/lite's own cases (its members absent, their options refused) are about
// the entry, not the engine, and its key-value members are the same code as the default entry's,
// which these engines run here. Each run is in shards (hostile-report.mjs), each a test with a
// WebDriver session of its own, then a test that the shards together ran the whole catalogue.

import { ROOT, startServer, stopServer } from "./harness.mjs";
import { readProgress, shardTests, totalTest, waitForReport } from "./hostile-report.mjs";
import { available, launch } from "./webdriver.mjs";

// Chromium: chromium-hostile.test.mjs.
for (const engine of ["firefox", "webkit"]) {
  const skip = !available(engine) && `${engine} is not installed`;
  const reports = shardTests(engine, "default", async (path, what) => {
    const server = startServer(ROOT);
    let session;
    try {
      const url = await server.url;
      session = await launch(engine);
      await session.goto(url + path);
      return await waitForReport(() => session.eval(readProgress), what);
    } finally {
      if (session) await session.quit();
      await stopServer(server.child);
    }
  }, { skip });
  totalTest(engine, "default", reports, { skip });
}
