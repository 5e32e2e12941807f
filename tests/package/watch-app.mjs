// What tests/package/vue.test.mjs and svelte.test.mjs share (not a test file itself: `node --test`
// runs *.test.mjs): a framework's example app (examples/vue-watch, examples/svelte-watch) installed
// with the packed tarball (`npm pack pkg/`) and the framework's version of the root package.json,
// built by its own build.mjs with the root's esbuild (the app's devDependency, linked rather than
// installed again), for the browser, for Node (server rendering) and on the lite entry; then two
// tabs of one browser (Chromium by Playwright, Firefox and WebKit by WebDriver) timed in frames as
// tests/package/react.test.mjs does:
//   - an offer written in tab B shows in tab A by the first frame after the write's commit (the
//     median of five writes; none later than 6 frames after the browser itself brought the news:
//     a plain BroadcastChannel and IndexedDB read in tab A, timed beside it) - the bar is
//     a second;
//   - it leaves tab A at its expiry, not before, and within 6 frames of it (or of a plain timer due
//     then running, when the browser runs the page's timers late) - the bar is 0.4 s;
//   - with no call to the store's methods in tab A meanwhile (each counted: no polling) and the
//     expired record still stored (autoReap: false: no reaper pass told it);
//   - unmounting the parts that show it stops the store's watch (stats().watchedKeys 1 -> 0), and
//     mounting them again shows what was written meanwhile;
// and the components of the framework's guide (docs/vue.md, docs/svelte.md) compile.
// The frames are the verdict (a loaded machine draws late, and that must not fail a test); the
// milliseconds are printed beside them.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVENT_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, poll, raisePriority, startServer, stopServer, withChromium } from "../page/harness.mjs";
import { available, launch } from "../page/webdriver.mjs";

const FRAMES_SHOWN = 1;
const FRAMES_MAX = 6;
const WRITES = 5;
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const DEV = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies;

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
  const out = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")} failed: ${out}`);
  return { out, stdout: r.stdout, stderr: r.stderr };
}

// --- In the page: functions sent to a tab (self-contained: they run there) ---

const isReady = () => document.documentElement.dataset.state === "ready";
/** Records every text the offer shows from now on (Unix ms), and counts the store's calls: none may poll. */
const recordOffer = () => {
  window.offerLog = [];
  const offer = () => document.querySelector('[data-testid="offer"]')?.textContent.trim() ?? null; // null: unmounted
  new MutationObserver(() => {
    const text = offer();
    if (window.offerLog.at(-1)?.text !== text) window.offerLog.push({ text, at: Date.now() });
  }).observe(document.querySelector("main"), { subtree: true, childList: true, characterData: true });
  const store = [...window.stores][0];
  window.storeCalls = [];
  for (const m of Object.getOwnPropertyNames(Object.getPrototypeOf(store))) {
    const f = store[m];
    if (m === "constructor" || typeof f !== "function") continue;
    store[m] = function counted(...args) { window.storeCalls.push(m); return f.apply(this, args); };
  }
};
/** Writes the offer and resolves once committed: [commit time (Unix ms), expiresAt (Unix s)]. */
const writeOffer = async ({ title, ttl }) => {
  const store = [...window.stores][0];
  await store.set("offer", { title }, { ttl });
  const at = Date.now();
  return [at, await store.expiresAt("offer")];
};
const offerLog = () => window.offerLog;
/**
 * What the browser itself takes to bring tab B's news of the offer to tab A and answer a read
 * there, with no idb-ttl code: a BroadcastChannel of A's own on the store's channel, and on each
 * "change" of the offer a readonly transaction of a plain connection (on "meta", which no
 * key-value verb writes); when each completed (Unix ms), in order.
 */
const recordPlatform = (db) => new Promise((ok, ko) => {
  window.platformLog = [];
  const r = indexedDB.open(db);
  r.onerror = () => ko(r.error);
  r.onsuccess = () => {
    const conn = r.result;
    conn.onversionchange = () => conn.close();
    const ch = new BroadcastChannel(`idb-ttl ${db}`);
    ch.onmessage = ({ data }) => {
      if (data?.type !== "change" || !data.detail?.keys?.includes("offer")) return;
      const seen = window.platformLog.push(null) - 1;
      const t = conn.transaction("meta");
      t.objectStore("meta").count();
      t.oncomplete = () => { window.platformLog[seen] = Date.now(); };
    };
    ok();
  };
});
const platformLog = () => window.platformLog;
/** A plain timer due at `at` (Unix s); when it ran (Unix ms), or null when `at` had passed already. */
const recordPlainTimer = (at) => {
  const armed = Date.now();
  window.plainTimer = undefined;
  if (at * 1000 <= armed) window.plainTimer = null;
  else setTimeout(() => { window.plainTimer = Date.now(); }, at * 1000 - armed);
};
const plainTimerRan = () => window.plainTimer;
/** Records when the tab begins each frame (Unix ms), from the first call on. */
const recordFrames = () => {
  if (window.frameLog) return;
  window.frameLog = [];
  const tick = () => { window.frameLog.push(Date.now()); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
};
const frameLog = () => window.frameLog;
const storeCalls = () => window.storeCalls;
/** How many records plain IndexedDB holds under `key` in database `db`. */
const storedRecords = ({ db, key }) => new Promise((ok, ko) => {
  const r = indexedDB.open(db);
  r.onsuccess = () => {
    const q = r.result.transaction("entries").objectStore("entries").getAllKeys();
    q.onsuccess = () => { r.result.close(); ok(q.result.filter((k) => k[1] === key).length); };
    q.onerror = () => ko(q.error);
  };
  r.onerror = () => ko(r.error);
});
const text = (testid) => document.querySelector(`[data-testid="${testid}"]`)?.textContent.trim() ?? null;
const toggleParts = () => document.querySelector('[data-testid="shown"]').click();
/** Keys with a watch on the store of tab A (stats().watchedKeys). */
const watchedKeys = () => [...window.stores][0].stats().watchedKeys;

/** How many frames began after `from` and by `to` (Unix ms). */
const framesBetween = (frames, from, to) => frames.filter((t) => t > from && t <= to).length;

/**
 * One framework's suite: `name` ("vue" or "svelte"), its example folder, the version of the root
 * package.json it is built with, how its sources name the entries (rewritten for the lite app), and
 * what its server rendering must show.
 */
export function watchAppSuite({ name, example, db, liteImports, serverHtml, guide, ended = /^No offer$/, alsoShown = [] }) {
  // By the next frame, within 6 frames: beside other page test files, at a raised priority, their
  // browsers cannot starve the ones timed here (as in react.test.mjs).
  raisePriority();
  const work = mkdtempSync(join(tmpdir(), `idb-ttl-${name}-`));
  const app = join(work, "app");
  const liteApp = join(work, "app-lite");
  const builds = {};

  before(() => {
    const tgz = execFileSync(NPM, ["pack", join(ROOT, "pkg"), "--pack-destination", work, "--silent"], { cwd: work, encoding: "utf8" }).trim().split("\n").pop();
    cpSync(join(ROOT, "examples", example), app, { recursive: true, filter: (p) => !/node_modules|dist/.test(p) });
    const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
    assert.deepEqual(Object.keys(pkg.devDependencies), ["esbuild"], "the example builds with esbuild alone");
    Object.assign(pkg.dependencies, { "idb-ttl": `file:${join(work, tgz)}`, [name]: DEV[name] });
    delete pkg.devDependencies; // esbuild: the root's, linked below (one install fewer)
    writeFileSync(join(app, "package.json"), JSON.stringify(pkg, null, 2));
    run(NPM, ["install", "--no-audit", "--no-fund", "--loglevel=error"], app);
    symlinkSync(join(ROOT, "node_modules/esbuild"), join(app, "node_modules/esbuild"), "dir");
    // The same app on the lite entry: its sources with the imports rewritten, the same node_modules.
    cpSync(app, liteApp, { recursive: true, filter: (p) => !p.includes("node_modules") });
    symlinkSync(join(app, "node_modules"), join(liteApp, "node_modules"), "dir");
    for (const [file, pairs] of Object.entries(liteImports)) {
      let src = readFileSync(join(liteApp, file), "utf8");
      for (const [from, to] of pairs) {
        assert.ok(src.includes(from), `${example}/${file} has ${from}`);
        src = src.replaceAll(from, to);
      }
      writeFileSync(join(liteApp, file), src);
    }
    builds.client = run(process.execPath, ["build.mjs"], app).out;
    builds.server = run(process.execPath, ["build.mjs", "--ssr"], app).out;
    builds.lite = run(process.execPath, ["build.mjs"], liteApp).out;
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  test(`${name}: the app builds without a warning (browser, server, lite entry); in Node (no window, no IndexedDB) idb-ttl/${name} loads and the app renders every value undefined, without error`, () => {
    for (const [what, out] of Object.entries(builds)) assert.equal(out, "", `${what} build printed nothing (no warning)`);
    const installed = JSON.parse(readFileSync(join(app, "node_modules", name, "package.json"), "utf8")).version;
    assert.equal(installed, DEV[name], `the ${name} the app was built with`);
    // The server bundle imports the binding from the package, so Node loads pkg's module itself.
    const server = readFileSync(join(app, "dist-server/server.js"), "utf8");
    assert.match(server, new RegExp(`from "idb-ttl/${name}"`), `the server bundle imports idb-ttl/${name}`);
    const { stdout, stderr } = run(process.execPath, ["-e", "if (typeof window !== 'undefined' || typeof indexedDB !== 'undefined') process.exit(3)"], app);
    assert.equal(stdout + stderr, "", "Node here has no window and no IndexedDB");
    const ssr = run(process.execPath, ["dist-server/server.js"], app);
    assert.equal(ssr.stderr, "", "nothing on stderr");
    // Without the hydration markers (HTML comments) Svelte and Vue put around blocks.
    const html = JSON.parse(ssr.stdout).html.replace(/<!--[^]*?-->/g, "");
    for (const re of serverHtml) assert.match(html, re, `the server rendering: ${html}`);
    // The lite app holds the lite entry's wasm, not the default one's (about 150 kB smaller).
    const size = (dir) => statSync(join(dir, "dist/app.js")).size;
    assert.ok(size(liteApp) < size(app) - 100_000, `the lite app is the smaller (${size(liteApp)} B, default ${size(app)} B)`);
  });

  test(`${name}: the components of ${guide.page} compile with the app's ${name} compiler, without a warning`, () => {
    // The guide's ts/js blocks are compiled against the typings by scripts/docs-check.mjs; its
    // components are compiled here, each as a file of the app, by `guide.check` run in the app.
    const blocks = [...readFileSync(join(ROOT, guide.page), "utf8").matchAll(new RegExp(`^\`\`\`${guide.lang}\n([^]*?)^\`\`\`$`, "gm"))].map((m) => m[1]);
    assert.ok(blocks.length > 0, `${guide.page} has ${guide.lang} blocks`);
    const files = blocks.map((code, i) => {
      const file = `guide-${i + 1}.${guide.lang}`;
      writeFileSync(join(app, file), code);
      return file;
    });
    writeFileSync(join(app, "guide-check.mjs"), guide.check);
    const { stdout, stderr } = run(process.execPath, ["guide-check.mjs", ...files], app);
    assert.equal(stdout + stderr, "", `${guide.page}: the compiler said nothing`);
  });

  /** Runs `fn(openTab)` in `engine` with `dist` served; `openTab()` resolves to `{ eval }` once the app is ready. */
  async function withApp(engine, dist, fn) {
    if (engine === "chromium") {
      await withChromium(dist, async ({ context, url }) => {
        const errors = [];
        const openTab = async () => {
          const page = await context.newPage();
          page.on("pageerror", (e) => errors.push(e.message));
          page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") errors.push(m.text()); });
          const tab = { eval: (f, arg) => page.evaluate(f, arg) };
          await page.goto(url);
          await poll(() => tab.eval(isReady), Boolean, EVENT_TIMEOUT_MS, "the app is ready");
          return tab;
        };
        await fn(openTab);
        assert.deepEqual(errors, [], "errors or warnings in the pages");
      });
      return;
    }
    const server = startServer(dist);
    try {
      const url = await server.url;
      const session = await launch(engine);
      try {
        let queue = Promise.resolve(); // one WebDriver session: one command at a time, in the right window
        const inTab = (handle, step) => (queue = queue.then(() => session.switchTo(handle)).then(step));
        let first = true;
        const openTab = async () => {
          // A window, not a tab: each page stays visible (no background-tab timer throttling).
          const handle = first ? await session.window() : await session.newWindow("window");
          first = false;
          const tab = { eval: (f, arg) => inTab(handle, () => session.eval(f, arg)) };
          await inTab(handle, () => session.goto(url));
          await poll(() => tab.eval(isReady), Boolean, EVENT_TIMEOUT_MS, "the app is ready");
          return tab;
        };
        await fn(openTab);
      } finally {
        await session.quit();
      }
    } finally {
      await stopServer(server.child);
    }
  }

  /** The offer from tab B shows in tab A by the next frame and leaves at its expiry, with no store call in A. */
  async function checkShowsAndExpires(a, b, where) {
    await a.eval(recordFrames);
    await a.eval(recordOffer);
    await a.eval(recordPlatform, db);
    const commits = [];
    for (let i = 1; i <= WRITES; i++) {
      const title = `From the other tab #${i}`;
      commits.push((await b.eval(writeOffer, { title, ttl: 60 }))[0]);
      // The next write only once this one shows: on a loaded machine a watch's read that comes
      // after the next commit reads the newer value (rightly), and this write would never show.
      // When it showed is the MutationObserver's time, not this poll's.
      await poll(() => a.eval(offerLog), (l) => l.some((e) => e.text === title), EVENT_TIMEOUT_MS, `${where}: tab A shows write ${i}`);
    }
    const [, expiresAt] = await b.eval(writeOffer, { title: "From the other tab, briefly", ttl: 1.5 });
    await a.eval(recordPlainTimer, expiresAt);
    const log = await poll(() => a.eval(offerLog), (l) => l.some((e) => ended.test(e.text)), EVENT_TIMEOUT_MS, `${where}: the offer ends in tab A`);
    const plainAt = await poll(() => a.eval(plainTimerRan), (t) => t !== undefined, EVENT_TIMEOUT_MS, `${where}: the plain timer ran in tab A`);
    const end = log.find((e) => ended.test(e.text));
    const frames = await poll(() => a.eval(frameLog), (f) => f.some((t) => t > end.at), EVENT_TIMEOUT_MS, `${where}: tab A draws frames (requestAnimationFrame)`);
    const platform = await a.eval(platformLog);
    assert.ok(platform.length >= WRITES && platform.slice(0, WRITES).every((t) => t !== null), `${where}: the plain channel and read in tab A saw each write: ${JSON.stringify(platform)}`);
    const delays = commits.map((at, i) => {
      const shown = log.find((e) => e.text === `From the other tab #${i + 1}`);
      assert.ok(shown, `${where}: tab A showed write ${i + 1}: ${JSON.stringify(log)}`);
      return shown.at - at;
    });
    const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const shownF = commits.map((at, i) => framesBetween(frames, at, at + delays[i]));
    const platformMs = commits.map((at, i) => Math.max(0, platform[i] - at));
    const oursF = commits.map((at, i) => framesBetween(frames, Math.max(at, platform[i]), at + delays[i]));
    const lateMs = end.at - expiresAt * 1000;
    const endedF = framesBetween(frames, expiresAt * 1000, end.at);
    const oursEndedF = framesBetween(frames, Math.max(expiresAt * 1000, plainAt ?? 0), end.at);
    const plainLate = plainAt === null ? "(none: armed after the expiry)" : `${plainAt - expiresAt * 1000} ms`;
    console.log(`# ${where}: shown ${delays.join(", ")} ms after each write committed in the other tab (median ${median(delays)}; frames begun meanwhile ${shownF.join(", ")}; the browser's own channel hop and read took ${platformMs.join(", ")} ms, after which ${oursF.join(", ")} frames began); gone ${lateMs} ms after its expiry (${endedF} frames; a plain timer due then ran ${plainLate} after it, after which ${oursEndedF} frames began)`);
    assert.ok(median(shownF) <= FRAMES_SHOWN, `${where}: shown by the first frame after the write (median ${median(shownF)} frames begun between commit and showing, of ${shownF}; ${delays} ms)`);
    assert.ok(oursF.every((f) => f <= FRAMES_MAX), `${where}: every write shown within ${FRAMES_MAX} frames of the browser bringing it (${oursF} frames after the plain channel and read, which took ${platformMs} ms; ${shownF} frames, ${delays} ms after the commit)`);
    assert.ok(lateMs >= 0, `${where}: gone at its expiry, not before (${lateMs} ms after)`);
    assert.ok(oursEndedF <= FRAMES_MAX, `${where}: gone within ${FRAMES_MAX} frames of its expiry, or of a plain timer due then running (${oursEndedF} frames after that; ${endedF} frames and ${lateMs} ms after the expiry, the plain timer ${plainLate} after it)`);
    assert.deepEqual(await a.eval(storeCalls), [], `${where}: no store call in tab A while it waited (no polling)`);
    assert.equal(await a.eval(storedRecords, { db, key: "offer" }), 1, `${where}: the expired record is still stored: no reaper told it`);
    for (const [testid, re] of alsoShown) assert.match(await a.eval(text, testid), re, `${where}: ${testid} in tab A`);
    await poll(() => b.eval(text, "offer"), (t) => ended.test(t), EVENT_TIMEOUT_MS, `${where}: the offer ends in tab B too`);
  }

  /** Unmounting the parts stops the watch; mounting them again shows what was written meanwhile. */
  async function checkUnmount(a, b, where) {
    assert.equal(await a.eval(watchedKeys), 1, `${where}: one key watched while the parts are shown`);
    await a.eval(toggleParts);
    await poll(() => a.eval(watchedKeys), (n) => n === 0, EVENT_TIMEOUT_MS, `${where}: no key watched once the parts are unmounted`);
    await b.eval(writeOffer, { title: "Written while hidden", ttl: 60 });
    await a.eval(toggleParts);
    await poll(() => a.eval(text, "offer"), (t) => t === "Written while hidden", EVENT_TIMEOUT_MS, `${where}: mounted again, the offer shows what was written meanwhile`);
    assert.equal(await a.eval(watchedKeys), 1, `${where}: watched again`);
  }

  for (const engine of ["chromium", "firefox", "webkit"]) {
    const skip = engine !== "chromium" && !available(engine) && `${engine} is not installed (scripts/setup.sh installs it)`;
    test(`${name} in ${engine}, two tabs: an offer from the other tab by the next frame, gone at its expiry within 6 frames with no store call; unmounting stops the watch`, { timeout: TEST_TIMEOUT_MS, skip }, async () => {
      await withApp(engine, join(app, "dist"), async (openTab) => {
        const a = await openTab();
        const b = await openTab();
        await checkShowsAndExpires(a, b, `${name}, ${engine}`);
        await checkUnmount(a, b, `${name}, ${engine}`);
      });
    });
  }

  test(`${name} on the lite entry (idb-ttl/lite, idb-ttl/lite/${name}) in chromium, two tabs: the same`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await withApp("chromium", join(liteApp, "dist"), async (openTab) => {
      const a = await openTab();
      const b = await openTab();
      await checkShowsAndExpires(a, b, `${name} lite, chromium`);
      await checkUnmount(a, b, `${name} lite, chromium`);
    });
  });
}
