// idb-ttl/react in a real React app: examples/react-watch (what `npm create vite -- --template
// react` gives, plus `npm i idb-ttl`), installed with the packed tarball (`npm pack pkg/`), built
// by Vite and served as built; with React 19, with React 19 on the lite entry's hooks
// ("idb-ttl/lite/react") and with React 18. In Chromium (Playwright) for each, and with React 19
// in Firefox and WebKit (WebDriver), two tabs of one browser:
//   - an entry written in one tab shows in the other by the first frame after the write's commit
//     (the median of five writes; none later than 6 frames, 100 ms at 60 Hz, after the browser
//     itself brought the news: a plain BroadcastChannel and IndexedDB read in that tab, timed beside
//     it, so that a browser process starved by a loaded machine does not fail it), and leaves both
//     within 6 frames of its expiry (counted in the frames the page draws, so that a loaded
//     machine that draws late does not fail it), with
//     no store call made meanwhile (the store's methods counted) and no reaper pass (autoReap:
//     false: the record is still stored);
//   - five items written in one tab show in the other's useView and leave it one at a time, each
//     within 6 frames of its expiry;
//   - an updater set (`setLikes(n => n + 1)`) clicked 40 times in each tab at once: 80;
//   - a controlled textarea on `useEntry(store, "draft", { initial: "", ttl: "1 day" })` keeps
//     every keystroke as typed, shows in the other tab and survives a reload with its day;
//   - four parts ask useStore for the store: one open; unmounting them all closes it, and
//     mounting them again opens a new one.
// And server rendering (`vite build --ssr`, react-dom/server in Node): every part renders its
// loading state, without error. Run by scripts/test.sh after scripts/build.sh.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVENT_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, poll, raisePriority, startServer, stopServer, withChromium } from "../page/harness.mjs";
import { available, launch } from "../page/webdriver.mjs";

// By the next frame, within 6 frames: this file counts the frames before the pages show a change,
// beside the other page test files (scripts/test.sh runs several at a time). Beside three of them,
// at the same priority, a median of 17 ms and an expiry shown 182 ms late were seen; at a raised
// priority their browsers cannot starve the ones timed here.
raisePriority();

const DEV = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies;
/** The app's variants: React's version and where the hooks come from. */
const APPS = {
  "react 19": { react: DEV.react, hooks: "idb-ttl/react" },
  "react 19 lite": { react: DEV.react, hooks: "idb-ttl/lite/react" },
  "react 18": { react: "18.3.1", hooks: "idb-ttl/react" },
};
/** The versions the example is built with (its package.json takes any later minor). */
const TOOLS = { vite: "8.3.8", "@vitejs/plugin-react": "6.3.0" };
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const work = mkdtempSync(join(tmpdir(), "idb-ttl-react-"));
const appDir = (label) => join(work, label.replaceAll(" ", "-"));

/**
 * The bars, in the frames tab A draws (requestAnimationFrame), not in milliseconds: a write from
 * another tab shows by the first frame after its commit (the median of WRITES: at most one frame
 * began between the commit and the text showing), and nothing takes longer than 100 ms would at
 * 60 Hz (6 frames). Counted in frames, the verdict is the same on a quiet machine (a frame is
 * 16.7 ms) and does not depend on how fast a loaded one draws. The second bar counts from the
 * moment the browser itself could have shown the write (recordPlatform): in a CI run tab A drew
 * 12 frames while a write took 195 ms to show, so what held it up was outside tab A's page (the
 * browser process carries both the channel's messages and IndexedDB's requests). Likewise the end
 * at expiry (the offer's, and each item's leaving the view) counts from the later of the expiry
 * and a plain timer due then running in tab A (recordPlainTimers): a browser that runs the page's
 * timers late delays idb-ttl's as much, and only what comes after is idb-ttl's.
 */
const FRAMES_SHOWN = 1;
const FRAMES_MAX = 6;
const WRITES = 5;

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
  const out = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")} failed: ${out}`);
  return { out, stdout: r.stdout, stderr: r.stderr };
}

function assertNoWarning(out, what) {
  const warnings = out.split("\n").filter((l) => /warn|\(!\)/i.test(l));
  assert.deepEqual(warnings, [], `${what} warned:\n${out}`);
}

const builds = {};

before(() => {
  const name = execFileSync(NPM, ["pack", join(ROOT, "pkg"), "--pack-destination", work, "--silent"], { cwd: work, encoding: "utf8" }).trim().split("\n").pop();
  const tarball = join(work, name);
  for (const [label, { react, hooks }] of Object.entries(APPS)) {
    const app = appDir(label);
    cpSync(join(ROOT, "examples/react-watch"), app, { recursive: true, filter: (p) => !/node_modules|dist/.test(p) });
    const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
    Object.assign(pkg.dependencies, { "idb-ttl": `file:${tarball}`, react, "react-dom": react });
    Object.assign(pkg.devDependencies, TOOLS);
    writeFileSync(join(app, "package.json"), JSON.stringify(pkg, null, 2));
    if (hooks !== "idb-ttl/react") {
      const src = readFileSync(join(app, "src/App.jsx"), "utf8");
      assert.ok(src.includes('from "idb-ttl/react";'), "src/App.jsx imports idb-ttl/react");
      writeFileSync(join(app, "src/App.jsx"), src.replace('from "idb-ttl/react";', `from "${hooks}";`));
    }
    run(NPM, ["install", "--no-audit", "--no-fund", "--loglevel=error"], app);
    // Built once here, checked by the tests below.
    builds[label] = {
      client: run(process.execPath, [join(app, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], app).out,
      server: run(process.execPath, [join(app, "node_modules/vite/bin/vite.js"), "build", "--ssr", "src/server.jsx", "--outDir", "dist-server", "--logLevel", "warn"], app).out,
    };
  }
});

after(() => rmSync(work, { recursive: true, force: true }));

for (const label of Object.keys(APPS)) {
  test(`${label}: vite build of the app and of its server entry, no warning; react-dom/server renders every part loading, without error`, () => {
    assertNoWarning(builds[label].client, `${label} vite build`);
    assertNoWarning(builds[label].server, `${label} vite build --ssr`);
    const app = appDir(label);
    const { stdout, stderr } = run(process.execPath, ["dist-server/server.js"], app);
    assert.equal(stderr, "", "nothing on stderr");
    const { html } = JSON.parse(stdout);
    assert.match(html, /<p data-testid="offer"><i>Opening the store…<\/i><\/p>/, "the offer renders its loading state");
    assert.match(html, /<textarea data-testid="draft"[^>]*><\/textarea>/, "the draft renders its initial value");
    assert.match(html, /<span data-testid="likes">0<\/span>/, "the counter renders its initial value");
    assert.match(html, /data-testid="items-empty"/, "the view renders empty");
    const version = JSON.parse(readFileSync(join(app, "node_modules/react/package.json"), "utf8")).version;
    assert.equal(version, APPS[label].react, "the React the app was built with");
  });
}

// --- In the page: functions sent to a tab (self-contained: they run there) ---

const isReady = () => document.documentElement.dataset.state === "ready";
/** Records every text the offer shows from now on, with when it showed (Unix ms). */
const recordOffer = () => {
  window.offerLog = [];
  const offer = () => document.querySelector('[data-testid="offer"]').textContent;
  new MutationObserver(() => {
    const text = offer();
    if (window.offerLog.at(-1)?.text !== text) window.offerLog.push({ text, at: Date.now() });
  }).observe(document.querySelector("main"), { subtree: true, childList: true, characterData: true });
  // Counts the store's calls from now on: none may poll.
  const store = [...window.stores][0];
  window.storeCalls = [];
  for (const m of Object.getOwnPropertyNames(Object.getPrototypeOf(store))) {
    const f = store[m];
    if (m === "constructor" || typeof f !== "function") continue;
    store[m] = function counted(...args) { window.storeCalls.push(m); return f.apply(this, args); };
  }
};
/** Writes the offer through the store and resolves once committed: [commit time (Unix ms), expiresAt (Unix s)]. */
const writeOffer = async ({ title, ttl }) => {
  const store = [...window.stores][0];
  await store.set("offer", { title }, { ttl });
  const at = Date.now();
  return [at, await store.expiresAt("offer")];
};
const offerLog = () => window.offerLog;
/**
 * What the browser itself takes to bring tab B's news of the offer to tab A and answer a read
 * there, with no idb-ttl code in tab A: a BroadcastChannel of A's own on the store's channel, and
 * on each "change" of the offer a readonly transaction of a plain IndexedDB connection to the
 * same database; when each one completed (Unix ms), in the order the changes came. It reads the
 * store of definitions ("meta"), which no key-value verb writes, so a transaction of idb-ttl's
 * own holding up its read would not hold up this one.
 */
const recordPlatform = () => new Promise((ok, ko) => {
  window.platformLog = [];
  const r = indexedDB.open("react-watch-example");
  r.onerror = () => ko(r.error);
  r.onsuccess = () => {
    const db = r.result;
    db.onversionchange = () => db.close();
    const ch = new BroadcastChannel("idb-ttl react-watch-example");
    ch.onmessage = ({ data }) => {
      if (data?.type !== "change" || !data.detail?.keys?.includes("offer")) return;
      const seen = window.platformLog.push(null) - 1;
      const t = db.transaction("meta");
      t.objectStore("meta").count();
      t.oncomplete = () => { window.platformLog[seen] = Date.now(); };
    };
    ok();
  };
});
const platformLog = () => window.platformLog;
/**
 * Arms a plain timer in the tab for each of `moments` (Unix s) and records when each runs
 * (window.plainTimers.ran, Unix ms): when the browser itself runs a timer due then. A browser
 * that runs the page's timers late (a loaded machine) runs idb-ttl's late too. A moment already
 * past when they were armed (window.plainTimers.armed) has no such timer: null.
 */
const recordPlainTimers = (moments) => {
  const armed = Date.now();
  window.plainTimers = { armed, ran: moments.map(() => undefined) };
  moments.forEach((at, i) => {
    if (at * 1000 <= armed) window.plainTimers.ran[i] = null;
    else setTimeout(() => { window.plainTimers.ran[i] = Date.now(); }, at * 1000 - armed);
  });
};
const plainTimersRan = () => window.plainTimers.ran;
/** Where idb-ttl's own part of an end at `expiresAt` (Unix s) starts: the later of the expiry and the plain timer due then running. */
const ownStart = (expiresAt, plainRan) => Math.max(expiresAt * 1000, plainRan ?? 0);
/** Records when the tab begins each frame (Unix ms), from the first call on. */
const recordFrames = () => {
  if (window.frameLog) return;
  window.frameLog = [];
  const tick = () => { window.frameLog.push(Date.now()); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
};
const frameLog = () => window.frameLog;
const storeCalls = () => window.storeCalls;
/** The entries of the store as plain IndexedDB holds them under `key`. */
const storedRecords = (key) => new Promise((ok, ko) => {
  const r = indexedDB.open("react-watch-example");
  r.onsuccess = () => {
    const q = r.result.transaction("entries").objectStore("entries").getAllKeys();
    q.onsuccess = () => { r.result.close(); ok(q.result.filter((k) => k[1] === key).length); };
    q.onerror = () => ko(q.error);
  };
  r.onerror = () => ko(r.error);
});
const text = (testid) => document.querySelector(`[data-testid="${testid}"]`)?.textContent ?? null;
/** Clicks Like `n` times in one synchronous loop at `at` (Unix ms). */
const likeAt = ({ at, n }) => {
  setTimeout(() => {
    const like = document.querySelector('[data-testid="like"]');
    for (let i = 0; i < n; i++) like.click();
  }, Math.max(0, at - Date.now()));
};
/** Types `typed` into the draft one character at a time, as an input event each; what the textarea held after each. */
const typeDraft = (typed) => {
  const area = document.querySelector('[data-testid="draft"]');
  const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set;
  const seen = [];
  for (let i = 1; i <= typed.length; i++) {
    set.call(area, typed.slice(0, i));
    area.dispatchEvent(new Event("input", { bubbles: true }));
    seen.push(area.value);
  }
  return seen;
};
const draft = () => [document.querySelector('[data-testid="draft"]').value, document.querySelector('[data-testid="draft-ttl"]').textContent];
/** Records every list of item keys the view shows from now on, with when it showed (Unix ms). */
const recordItems = () => {
  window.itemsLog = [];
  const keys = () => [...document.querySelectorAll('[data-testid="item"]')].map((li) => li.dataset.key);
  new MutationObserver(() => {
    const now = keys();
    if (window.itemsLog.at(-1)?.keys.join() !== now.join()) window.itemsLog.push({ keys: now, at: Date.now() });
  }).observe(document.querySelector("main"), { subtree: true, childList: true });
};
const itemsLog = () => window.itemsLog;
/** Writes five items expiring `apart` s apart through the store; their [key, expiresAt (Unix s)]. */
const writeItems = async (apart) => {
  const store = [...window.stores][0];
  const batch = Date.now().toString(36);
  const items = Array.from({ length: 5 }, (_, i) => [`item:${batch}:${i + 1}`, { title: `Item ${i + 1}` }, { ttl: (i + 1) * apart }]);
  await store.setMany(items);
  return Promise.all(items.map(([key]) => store.expiresAt(key).then((at) => [key, at])));
};
const toggleParts = () => document.querySelector('[data-testid="shown"]').click();
/** What the first store useStore gave answers now: "open" or the error's name. */
const firstStoreState = () => [...window.stores][0].get("likes").then(() => "open", (e) => e.name);
const storeCount = () => window.stores.size;
const lastStoreWorks = async () => {
  const store = [...window.stores].at(-1);
  return store.get("likes");
};

// --- The tabs of one browser, the same way in Playwright and in WebDriver ---


/** Runs `fn(openTab)` in `engine` with the built app `label` served; `openTab()` resolves to `{ eval, reload }` once the app is ready. */
async function withApp(engine, label, fn) {
  const server = startServer(join(appDir(label), "dist"));
  try {
    const url = await server.url;
    if (engine === "chromium") {
      await withChromium(join(ROOT, "www"), async ({ context }) => {
        const errors = [];
        const openTab = async () => {
          const page = await context.newPage();
          page.on("pageerror", (e) => errors.push(e.message));
          page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
          const tab = { eval: (f, arg) => page.evaluate(f, arg), reload: () => page.reload() };
          await page.goto(url);
          await poll(() => tab.eval(isReady), Boolean, EVENT_TIMEOUT_MS, "the app is ready");
          return tab;
        };
        await fn(openTab);
        assert.deepEqual(errors, [], "errors in the pages");
      });
      return;
    }
    const session = await launch(engine);
    try {
      let queue = Promise.resolve(); // one WebDriver session: one command at a time, in the right tab
      const inTab = (handle, step) => (queue = queue.then(() => session.switchTo(handle)).then(step));
      let first = true;
      const openTab = async () => {
        // A window, not a tab: each page stays visible (no background-tab timer throttling).
        const handle = first ? await session.window() : await session.newWindow("window");
        first = false;
        const tab = {
          eval: (f, arg) => inTab(handle, () => session.eval(f, arg)),
          reload: () => inTab(handle, () => session.reload()),
        };
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

/**
 * Entries written in tab B show in tab A by the first frame after the commit (the median of five
 * writes; none later than FRAMES_MAX frames) and leave A within FRAMES_MAX frames of their expiry;
 * no store call in A meanwhile.
 */
async function checkShowsAndExpires(a, b, where) {
  await a.eval(recordFrames);
  await a.eval(recordOffer);
  await a.eval(recordPlatform);
  const commits = [];
  for (let i = 1; i <= WRITES; i++) {
    commits.push((await b.eval(writeOffer, { title: `From the other tab #${i}`, ttl: 60 }))[0]);
    await new Promise((r) => setTimeout(r, 100));
  }
  const [, expiresAt] = await b.eval(writeOffer, { title: "From the other tab, briefly", ttl: 1.5 });
  await a.eval(recordPlainTimers, [expiresAt]);
  const log = await poll(() => a.eval(offerLog), (l) => l.some((e) => /ended/.test(e.text)), EVENT_TIMEOUT_MS, `${where}: the offer ends in tab A`);
  const [plainAt] = await poll(() => a.eval(plainTimersRan), (t) => t.every((x) => x !== undefined), EVENT_TIMEOUT_MS, `${where}: the plain timer ran in tab A`);
  const delays = commits.map((at, i) => {
    const shown = log.find((e) => e.text.includes(`#${i + 1} `));
    assert.ok(shown, `${where}: tab A showed write ${i + 1}: ${JSON.stringify(log)}`);
    return shown.at - at;
  });
  const median = [...delays].sort((x, y) => x - y)[Math.floor(WRITES / 2)];
  const ended = log.find((e) => /ended/.test(e.text));
  const late = { ended: ended.at - expiresAt * 1000 };
  const frames = await framesOf(a, ended.at, where);
  const shownF = commits.map((at, i) => framesBetween(frames, at, at + delays[i]));
  const medianF = [...shownF].sort((x, y) => x - y)[Math.floor(WRITES / 2)];
  const endedF = framesBetween(frames, expiresAt * 1000, ended.at);
  // idb-ttl's own part of the end: the frames tab A began between the later of the expiry and a
  // plain timer due then running, and the offer ending.
  const plainLate = plainAt === null ? "(none: armed after the expiry)" : plainAt - expiresAt * 1000;
  const oursEndedF = framesBetween(frames, ownStart(expiresAt, plainAt), ended.at);
  // The platform's own part of each delay (the channel's hop and a read in tab A, recordPlatform),
  // and the frames tab A began between the later of the commit and that read's answer and the
  // write showing: idb-ttl's own part.
  const platform = await a.eval(platformLog);
  assert.ok(platform.length >= WRITES && platform.slice(0, WRITES).every((t) => t !== null), `${where}: the plain channel and read in tab A saw each write: ${JSON.stringify(platform)}`);
  const platformMs = commits.map((at, i) => Math.max(0, platform[i] - at));
  const oursF = commits.map((at, i) => framesBetween(frames, Math.max(at, platform[i]), at + delays[i]));
  console.log(`# ${where}: shown ${delays.join(", ")} ms after each write committed in the other tab (median ${median}; frames begun meanwhile ${shownF.join(", ")}; the browser's own channel hop and read took ${platformMs.join(", ")} ms, after which ${oursF.join(", ")} frames began); ended ${late.ended} ms after its expiry (${endedF} frames; a plain timer due then ran ${plainLate} ms after it, after which ${oursEndedF} frames began)`);
  assert.ok(medianF <= FRAMES_SHOWN, `${where}: shown by the first frame after the write (median ${medianF} frames begun between commit and showing, of ${shownF}; ${delays} ms)`);
  assert.ok(oursF.every((f) => f <= FRAMES_MAX), `${where}: every write shown within ${FRAMES_MAX} frames of the browser bringing it (${oursF} frames after the plain channel and read, which took ${platformMs} ms; ${shownF} frames, ${delays} ms after the commit)`);
  assert.ok(late.ended >= 0, `${where}: ended at its expiry, not before (${late.ended} ms after)`);
  assert.ok(oursEndedF <= FRAMES_MAX, `${where}: ended within ${FRAMES_MAX} frames of its expiry, or of a plain timer due then running (${oursEndedF} frames after that, ${endedF} frames and ${late.ended} ms after the expiry, the plain timer ${plainLate} ms after it)`);
  assert.deepEqual(await a.eval(storeCalls), [], `${where}: no store call in tab A while it waited (no polling)`);
  assert.equal(await a.eval(storedRecords, "offer"), 1, `${where}: the expired record is still stored: no reaper told it`);
  await poll(() => b.eval(text, "offer"), (t) => /ended/.test(t), EVENT_TIMEOUT_MS, `${where}: the offer ends in tab B too`);
}

/** Five items written in tab B show in tab A's view, and leave it one at a time, each within FRAMES_MAX frames of its expiry. */
async function checkView(a, b, where) {
  await a.eval(recordFrames);
  await a.eval(recordItems);
  const written = await b.eval(writeItems, 0.3);
  await a.eval(recordPlainTimers, written.map(([, at]) => at));
  const log = await poll(() => a.eval(itemsLog), (l) => l.length > 0 && l.at(-1).keys.length === 0, EVENT_TIMEOUT_MS, `${where}: the items leave tab A's view`);
  const plain = await poll(() => a.eval(plainTimersRan), (t) => t.every((x) => x !== undefined), EVENT_TIMEOUT_MS, `${where}: the plain timers ran in tab A`);
  assert.deepEqual(log[0].keys, written.map(([k]) => k), `${where}: all five show in tab A, in key order`);
  assert.deepEqual(log.map((e) => e.keys.length), [5, 4, 3, 2, 1, 0], `${where}: one at a time`);
  const late = written.map(([key, at], i) => {
    assert.deepEqual(log[i + 1].keys, written.slice(i + 1).map(([k]) => k), `${where}: the soonest leaves first`);
    return log[i + 1].at - at * 1000;
  });
  const frames = await framesOf(a, log.at(-1).at, where);
  const lateF = written.map(([, at], i) => framesBetween(frames, at * 1000, log[i + 1].at));
  // idb-ttl's own part, as for the offer: from the later of each expiry and a plain timer due then.
  const plainLate = written.map(([, at], i) => (plain[i] === null ? "none" : plain[i] - at * 1000));
  const oursF = written.map(([, at], i) => framesBetween(frames, ownStart(at, plain[i]), log[i + 1].at));
  console.log(`# ${where}: items left ${late.join(", ")} ms after their expiries (${lateF.join(", ")} frames; plain timers due then ran ${plainLate.join(", ")} ms after them, after which ${oursF.join(", ")} frames began)`);
  assert.ok(late.every((d) => d >= 0), `${where}: each left at its expiry, not before: ${late} ms`);
  assert.ok(oursF.every((f) => f <= FRAMES_MAX), `${where}: each left within ${FRAMES_MAX} frames of its expiry, or of a plain timer due then running: ${oursF} frames after that (${lateF} frames and ${late} ms after the expiries; the plain timers ${plainLate} ms after them)`);
}

/**
 * Tab A's frame times once it has drawn a frame after `last` (so a count up to `last` is
 * complete, and a page that drew no frames, whose counts would all be 0, fails instead).
 */
async function framesOf(a, last, where) {
  return poll(() => a.eval(frameLog), (f) => f.some((t) => t > last), EVENT_TIMEOUT_MS, `${where}: tab A draws frames (requestAnimationFrame)`);
}
/** How many frames began after `from` and by `to` (Unix ms). */
const framesBetween = (frames, from, to) => frames.filter((t) => t > from && t <= to).length;

/** Likes clicked 40 times in each tab at once (updaters in one transaction each): 80, in both. */
async function checkUpdaters(a, b, where) {
  const at = Date.now() + 500;
  await Promise.all([a.eval(likeAt, { at, n: 40 }), b.eval(likeAt, { at, n: 40 })]);
  for (const tab of [a, b]) await poll(() => tab.eval(text, "likes"), (t) => t === "80", EVENT_TIMEOUT_MS, `${where}: 80 likes shown`);
  assert.equal(await a.eval(() => [...window.stores][0].get("likes")), 80, `${where}: 80 stored`);
}

/** The draft keeps each keystroke as typed, shows in tab B, and survives a reload with its day. */
async function checkDraft(a, b, where) {
  const typed = "Shelf life";
  const seen = await a.eval(typeDraft, typed);
  assert.deepEqual(seen, [...typed].map((_, i) => typed.slice(0, i + 1)), `${where}: every keystroke shows as typed`);
  await poll(() => b.eval(draft), ([v]) => v === typed, EVENT_TIMEOUT_MS, `${where}: the draft shows in tab B`);
  await a.reload();
  await poll(() => a.eval(isReady), Boolean, EVENT_TIMEOUT_MS, `${where}: the app is ready after a reload`);
  const [value, ttl] = await poll(() => a.eval(draft), ([v]) => v === typed, EVENT_TIMEOUT_MS, `${where}: the draft after a reload`);
  assert.equal(value, typed);
  assert.match(ttl, /Kept 24 h more/, `${where}: kept a day`);
}

/** Four parts share one open store; unmounting them all closes it; mounting them again opens another. */
async function checkCloses(a, where) {
  assert.equal(await a.eval(storeCount), 1, `${where}: one store for the four parts`);
  await a.eval(toggleParts);
  await poll(() => a.eval(firstStoreState), (s) => s === "StoreClosedError", EVENT_TIMEOUT_MS, `${where}: the store is closed once no part uses it`);
  await a.eval(toggleParts);
  await poll(() => a.eval(storeCount), (n) => n === 2, EVENT_TIMEOUT_MS, `${where}: mounting the parts again opens a store`);
  assert.equal(await a.eval(lastStoreWorks), 80, `${where}: the new store reads what was written`);
}

for (const label of Object.keys(APPS)) {
  test(`${label} in Chromium, two tabs: an entry from the other tab by the next frame, gone within 6 frames of its expiry with no store call; a view's items leave at their expiries; updaters from both tabs at once lose nothing; a draft keeps each keystroke and a reload; unmounting every part closes the store`, { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    await withApp("chromium", label, async (openTab) => {
      const a = await openTab();
      const b = await openTab();
      await checkShowsAndExpires(a, b, `${label}, Chromium`);
      await checkView(a, b, `${label}, Chromium`);
      await checkUpdaters(a, b, `${label}, Chromium`);
      await checkDraft(a, b, `${label}, Chromium`);
      await checkCloses(a, `${label}, Chromium`);
    });
  });
}

for (const engine of ["firefox", "webkit"]) {
  test(`react 19 in ${engine}, two tabs: the same`, { timeout: TEST_TIMEOUT_MS * 3, skip: !available(engine) && `${engine} is not installed (scripts/setup.sh installs it)` }, async () => {
    await withApp(engine, "react 19", async (openTab) => {
      const a = await openTab();
      const b = await openTab();
      await checkShowsAndExpires(a, b, `react 19, ${engine}`);
      await checkView(a, b, `react 19, ${engine}`);
      await checkUpdaters(a, b, `react 19, ${engine}`);
      await checkDraft(a, b, `react 19, ${engine}`);
      await checkCloses(a, `react 19, ${engine}`);
    });
  });
}
