// The hooks of idb-ttl/react one by one, in Chromium with the repository's React 19 and the
// release build (tests/page/fixtures/react-hooks.mjs, bundled here): what they show while the
// store opens, bad input refused with the store's own errors and nothing written, the setter's
// forms and expiry options, a key that changes, one open per name and options under StrictMode
// and its close, a failed open and a bad query to the error boundary, and the lite entry's hooks;
// and the React guide's example (docs/react.md) as it stands there. The app-level bars (two tabs, expiry timing,
// three engines, React 18, SSR) are tests/package/react.test.mjs. Run with
// `node --test tests/page/` after scripts/build.sh.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { EVENT_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, withChromium } from "./harness.mjs";

const OUT = join(ROOT, "target/fixtures");

before(async () => {
  // "idb-ttl" resolved as a user's bundler resolves the package: www/pkg through its "exports".
  const modules = join(OUT, "node_modules");
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(modules, { recursive: true });
  symlinkSync(join(ROOT, "www/pkg"), join(modules, "idb-ttl"), "dir");
  // The React guide's example as it stands there (TypeScript: esbuild strips its types), in the
  // same bundle (one React): its components on window.readme.
  const guide = readFileSync(join(ROOT, "docs/react.md"), "utf8");
  const example = /```tsx\n([\s\S]*?)```/.exec(guide);
  assert.ok(example, "docs/react.md has no tsx example");
  writeFileSync(join(OUT, "readme-react.tsx"), `${example[1]}\nwindow.readme = { Draft, Offer, Likes, Sessions };\n`);
  writeFileSync(join(OUT, "react-hooks-entry.mjs"), `import ${JSON.stringify(join(ROOT, "tests/page/fixtures/react-hooks.mjs"))};\nimport "./readme-react.tsx";\n`);
  await build({
    entryPoints: [join(OUT, "react-hooks-entry.mjs")],
    jsx: "automatic",
    outfile: join(OUT, "react-hooks.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    nodePaths: [modules, join(ROOT, "node_modules")],
    define: { "process.env.NODE_ENV": '"development"' }, // React's checks on
    logOverride: { "duplicate-object-key": "silent" }, // wasm-bindgen's glue lists a snippet twice
    logLevel: "warning",
  });
});

/** Runs `scenario` (an async function, sent to the page) in a fresh Chromium on the fixture; what it resolves to. */
async function inPage(scenario, arg) {
  let result;
  await withChromium(ROOT, async ({ context, url }) => {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(new URL("tests/page/fixtures/react-hooks.html", url).href);
    await page.waitForSelector("html[data-state=ready]", { state: "attached", timeout: EVENT_TIMEOUT_MS });
    result = await page.evaluate(scenario, arg);
    assert.deepEqual(errors, [], "uncaught errors in the page");
  });
  return result;
}

test("the React guide's example (docs/react.md), as it stands there: its four components render, share one store, count, start an offer, list sessions", { timeout: TEST_TIMEOUT_MS }, async () => {
  const r = await inPage(async () => {
    const { React: { createElement: h }, TtlStore } = window.lib;
    const { Draft, Offer, Likes, Sessions } = window.readme;
    window.mount(h("div", null, h(Draft), h(Offer), h(Likes), h(Sessions)));
    const likes = await window.until(() => [...document.querySelectorAll("button")].find((b) => /likes/.test(b.textContent)));
    await window.until(() => likes.textContent === "0 likes" && !likes.disabled);
    likes.click();
    likes.click();
    await window.until(() => likes.textContent === "2 likes");
    const start = await window.until(() => [...document.querySelectorAll("button")].find((b) => b.textContent === "Start"));
    start.click();
    const offer = await window.until(() => document.querySelector("b")?.textContent);
    const other = await TtlStore.open("app");
    await other.set("session:1", { user: "ada" }, { ttl: 60 });
    const sessions = await window.until(() => document.querySelector("li")?.textContent);
    return { offer, sessions, likes: await other.get("likes"), ttl: await other.ttl("offer"), textarea: !!document.querySelector("textarea"), caught: window.caught };
  });
  assert.match(r.offer, /^Spring sale until /);
  assert.ok(r.ttl > 890 && r.ttl <= 900, `the offer's 15 min (${r.ttl})`);
  assert.equal(r.likes, 2);
  assert.equal(r.sessions, "ada");
  assert.equal(r.textarea, true);
  assert.deepEqual(r.caught, []);
});

test("useEntry while the store opens: options.initial, loading, no error; a write then is refused with a message saying so, and the hook shows it", { timeout: TEST_TIMEOUT_MS }, async () => {
  const r = await inPage(async () => {
    const { React: { createElement: h }, hooks: { useEntry } } = window.lib;
    const seen = [];
    let setter;
    function C() {
      const [value, set, { expiresAt, ttl, loading, error }] = useEntry(undefined, "draft", { initial: "" });
      setter = set;
      seen.push({ value, expiresAt, ttl, loading, error: error && error.message });
      return null;
    }
    window.mount(h(C));
    await window.until(() => seen.length > 0);
    const refused = await setter("hello").then(() => "written", (e) => e.message);
    await window.until(() => seen.at(-1).error);
    return { first: seen[0], refused, last: seen.at(-1) };
  });
  assert.deepEqual(r.first, { value: "", expiresAt: undefined, ttl: undefined, loading: true, error: undefined });
  assert.match(r.refused, /useEntry\(store, "draft"\): the store is still opening \(useStore gives undefined until it is open\)/);
  assert.equal(r.last.error, r.refused);
  assert.equal(r.last.loading, true);
});

test("useEntry: a key the store refuses is the hook's error (a TypeError naming it), never thrown into render; bad write options and an async updater are refused, the value shown reverts, nothing is written", { timeout: TEST_TIMEOUT_MS }, async () => {
  const r = await inPage(async () => {
    const { React: { createElement: h }, hooks: { useEntry }, TtlStore } = window.lib;
    const store = await TtlStore.open("hooks-bad-input");
    const seen = { bad: [], good: [] };
    let set;
    function Bad() {
      const [value, , { loading, error }] = useEntry(store, { not: "a key" }, { initial: 0 });
      seen.bad.push({ value, loading, error: error && `${error.name}: ${error.message}` });
      return null;
    }
    function Good() {
      const [value, s, { loading, error }] = useEntry(store, "n", { initial: 1 });
      set = s;
      seen.good.push({ value, loading, error: error && `${error.name}: ${error.message}` });
      return null;
    }
    window.mount(h("div", null, h(Bad), h(Good)));
    await window.until(() => seen.bad.length > 0 && seen.good.length > 0 && !seen.bad.at(-1).loading && !seen.good.at(-1).loading);
    const refusals = [];
    for (const [next, options] of [[2, { ttl: "7 dayz" }], [3, { ttl: -5 }], [4, { expiresAt: Date.now() + 60_000 }], [() => Promise.resolve(5), undefined]]) {
      refusals.push(await set(next, options).then(() => "written", (e) => `${e.name}: ${e.message}`));
    }
    await window.until(() => seen.good.at(-1).error);
    const afterRefusals = seen.good.at(-1);
    const stored = await store.has("n");
    await set(7);
    await window.until(() => seen.good.at(-1).value === 7 && !seen.good.at(-1).error);
    return { bad: seen.bad.at(-1), refusals, afterRefusals, stored, last: seen.good.at(-1), caught: window.caught };
  });
  assert.equal(r.bad.loading, false);
  assert.equal(r.bad.value, 0, "the initial value while the key is refused");
  assert.match(r.bad.error, /^TypeError: .*key/i, `the bad key's error: ${r.bad.error}`);
  assert.match(r.refusals[0], /^TypeError: .*7 dayz/);
  assert.match(r.refusals[1], /^(TypeError|RangeError): .*-5/);
  assert.match(r.refusals[2], /^RangeError: .*millisecond/i, `a ms timestamp: ${r.refusals[2]}`);
  assert.match(r.refusals[3], /^TypeError: .*Promise/, `an async updater: ${r.refusals[3]}`);
  assert.equal(r.afterRefusals.value, 1, "the value shown went back to what is stored (the initial)");
  assert.equal(r.afterRefusals.error, r.refusals[3], "the last failure is the hook's error");
  assert.equal(r.stored, false, "nothing was written");
  assert.deepEqual(r.last, { value: 7, loading: false, error: undefined }, "a write that succeeds clears the error");
  assert.deepEqual(r.caught, [], "nothing reached the error boundary");
});

test("useEntry with hostile input: a revoked Proxy as key, options whose getter throws: the hook's error, never thrown into render, nothing written", { timeout: TEST_TIMEOUT_MS }, async () => {
  const r = await inPage(async () => {
    const { React: { createElement: h }, hooks: { useEntry }, TtlStore } = window.lib;
    const store = await TtlStore.open("hooks-hostile");
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const throwing = { get initial() { throw new Error("getter says no"); } };
    const seen = {};
    let set;
    function Revoked() {
      const [value, , { loading, error }] = useEntry(store, proxy);
      seen.revoked = { value, loading, error: error && `${error.name}: ${error.message}` };
      return null;
    }
    function Throwing() {
      const [value, s, { error }] = useEntry(store, "k", throwing);
      set = s;
      seen.throwing = { value, error: error && `${error.name}: ${error.message}` };
      return null;
    }
    window.mount(h("div", null, h(Revoked), h(Throwing)));
    await window.until(() => seen.revoked && !seen.revoked.loading && seen.throwing);
    const write = await set(1).then(() => "written", (e) => `${e.name}: ${e.message}`);
    return { ...seen, write, stored: await store.has("k"), caught: window.caught };
  });
  assert.match(r.revoked.error, /^TypeError: useEntry\(store, key\): key \(a object that cannot be shown\) is not accepted; expected a string or a number$/);
  assert.equal(r.revoked.value, undefined);
  assert.deepEqual(r.throwing, { value: undefined, error: "Error: getter says no" });
  assert.equal(r.write, "Error: getter says no");
  assert.equal(r.stored, false);
  assert.deepEqual(r.caught, []);
});

test("useEntry's setter: a value shows at once and is written with the hook's default expiry or the call's (ttl, idle, keepTtl); an updater runs in the store; keepTtl keeps the expiry; undefined deletes; expiry shows as gone", { timeout: TEST_TIMEOUT_MS }, async () => {
  const r = await inPage(async () => {
    const { React: { createElement: h }, hooks: { useEntry }, TtlStore } = window.lib;
    const store = await TtlStore.open("hooks-setter");
    const seen = [];
    let set;
    let committed = null; // while a write is awaited: whether it has resolved
    const rendered = [];
    function C() {
      const [value, s, { expiresAt, ttl, loading }] = useEntry(store, "n", { initial: 0, ttl: "1 hour" });
      set = s;
      seen.push({ value, expiresAt, ttl, loading });
      rendered.push([value, committed]);
      return null;
    }
    window.mount(h(C));
    await window.until(() => !seen.at(-1).loading);
    const out = {};
    committed = false;
    const written = set(10).then((v) => { committed = true; return v; });
    out.resolved = await written;
    out.shownAtOnce = rendered.find(([v]) => v === 10)?.[1];
    committed = null;
    out.defaultTtl = await store.ttl("n");
    out.updated = await set((n) => n + 1);
    await window.until(() => seen.at(-1).value === 11);
    out.keptTtl = await store.ttl("n");
    await set((n) => n * 2, { ttl: 60 });
    await window.until(() => seen.at(-1).value === 22);
    out.updaterTtl = await store.ttl("n");
    await set(23, { keepTtl: true });
    await window.until(() => seen.at(-1).value === 23);
    out.keepTtl = await store.ttl("n");
    out.shown = seen.at(-1);
    await set(24, { idle: "30 min", ttl: "2 h" });
    await window.until(() => seen.at(-1).value === 24);
    out.idle = await store.ttl("n", { detail: true });
    await set(25, { keepTtl: true });
    out.idleKept = (await store.ttl("n", { detail: true })).idle;
    await set(undefined);
    await window.until(() => seen.at(-1).value === 0);
    out.deleted = [await store.has("n"), seen.at(-1)];
    await set((n) => n + 100, { ttl: 0.3 });
    await window.until(() => seen.at(-1).value === 100);
    const at = Date.now();
    await window.until(() => seen.at(-1).value === 0, 3_000);
    out.expiredAfterMs = Date.now() - at;
    await set(5);
    await set(() => undefined);
    await window.until(() => seen.at(-1).value === 0);
    out.updaterDeleted = await store.has("n");
    return out;
  });
  assert.equal(r.shownAtOnce, false, "a value set shows before the write commits");
  assert.equal(r.resolved, 10);
  assert.ok(r.defaultTtl > 3590 && r.defaultTtl <= 3600, `the hook's ttl applies (${r.defaultTtl})`);
  assert.equal(r.updated, 11, "an updater's result");
  assert.ok(r.keptTtl > 3590 && r.keptTtl <= 3600, `the hook's ttl applies to an updater too (${r.keptTtl})`);
  assert.ok(r.updaterTtl > 55 && r.updaterTtl <= 60, `the call's ttl (${r.updaterTtl})`);
  assert.ok(r.keepTtl > 55 && r.keepTtl <= 60, `keepTtl keeps it (${r.keepTtl})`);
  assert.equal(r.idle.idle, 1800, "an idle window from the setter's options");
  assert.ok(r.idle.cap - Date.now() / 1000 > 7100, `with its cap (${r.idle.cap})`);
  assert.equal(r.idleKept, 1800, "keepTtl keeps the window too");
  assert.equal(r.shown.loading, false);
  assert.ok(r.shown.ttl > 55 && r.shown.ttl <= 60, `ttl shown (${r.shown.ttl})`);
  assert.ok(Math.abs(r.shown.expiresAt - (Date.now() / 1000 + r.shown.ttl)) < 30, "expiresAt shown, Unix seconds");
  assert.deepEqual(r.deleted, [false, { value: 0, expiresAt: undefined, ttl: undefined, loading: false }], "undefined deletes; the initial shows again");
  assert.ok(r.expiredAfterMs < 1_500, `an expiry shows as gone (${r.expiredAfterMs} ms after the write resolved, ttl 0.3 s)`);
  assert.equal(r.updaterDeleted, false, "an updater returning undefined deletes");
});

test("useEntry follows a key that changes; useView follows a query that changes; a query the store refuses goes to the error boundary", { timeout: TEST_TIMEOUT_MS }, async () => {
  const r = await inPage(async () => {
    const { React: { createElement: h, useState }, hooks: { useEntry, useView }, TtlStore } = window.lib;
    const store = await TtlStore.open("hooks-keys");
    await store.setMany([["a", "A"], ["b", "B"], ["p:1", 1], ["q:1", 2]]);
    const seen = [];
    let pick;
    function C() {
      const [key, setKey] = useState("a");
      pick = setKey;
      const [value, , { loading }] = useEntry(store, key);
      const list = useView(store, { prefix: key === "a" ? "p:" : "q:" });
      seen.push({ key, value, loading, list: list.map((e) => e.key) });
      return null;
    }
    window.mount(h(C));
    await window.until(() => seen.at(-1).value === "A" && seen.at(-1).list.length === 1);
    const first = seen.at(-1);
    pick("b");
    await window.until(() => seen.at(-1).value === "B" && seen.at(-1).list[0] === "q:1");
    function BadView() {
      useView(store, { prefix: "x", keys: ["y"] });
      return null;
    }
    window.mount(h(BadView));
    await window.until(() => window.caught.length > 0);
    return { first, last: seen.at(-1), caught: window.caught };
  });
  assert.deepEqual(r.first, { key: "a", value: "A", loading: false, list: ["p:1"] });
  assert.deepEqual(r.last, { key: "b", value: "B", loading: false, list: ["q:1"] });
  assert.equal(r.caught.length, 1);
  assert.match(r.caught[0], /^TypeError: .*(prefix|keys)/, r.caught[0]);
});

test("useStore under StrictMode: one open for ten components, undefined while it opens; unmounting them all closes it; other options open another; a failed open goes to the error boundary, and a later ask opens again", { timeout: TEST_TIMEOUT_MS }, async () => {
  const r = await inPage(async () => {
    const { React: { createElement: h }, hooks: { useStore }, TtlStore } = window.lib;
    const open = TtlStore.open;
    const opens = [];
    TtlStore.open = (name, options) => { opens.push([name, options]); return open.call(TtlStore, name, options); };
    const stores = [];
    const firsts = [];
    function C({ options }) {
      const store = useStore("hooks-store", options);
      if (firsts.length < 10) firsts.push(store);
      if (store && !stores.includes(store)) stores.push(store);
      return null;
    }
    const unmount = window.mount(h("div", null, Array.from({ length: 10 }, (_, i) => h(C, { key: i, options: { reapIntervalMs: 60_000 } }))), { strict: true });
    await window.until(() => stores.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    const out = { opens: opens.length, firstUndefined: firsts.every((s) => s === undefined), stores: stores.length };
    const other = window.mount(h(C, { options: { reapIntervalMs: 30_000 } }));
    await window.until(() => stores.length === 2);
    out.opensWithOther = opens.length;
    unmount();
    const closed = await window.until(() => stores[0].get("x").then(() => "open", (e) => e.name), 100).catch(() => null);
    await new Promise((r) => setTimeout(r, 50));
    out.firstState = await stores[0].get("x").then(() => "open", (e) => e.name);
    out.otherState = await stores[1].get("x").then(() => "open", (e) => e.name);
    other();
    await new Promise((r) => setTimeout(r, 50));
    out.otherAfter = await stores[1].get("x").then(() => "open", (e) => e.name);
    function Failing() {
      useStore("hooks-store", { defaultTtl: "forever" });
      return null;
    }
    window.mount(h(Failing));
    await window.until(() => window.caught.length > 0);
    out.caught = window.caught;
    window.mount(h(C, {}));
    await window.until(() => stores.length === 3);
    out.opensAtEnd = opens.length;
    return out;
  });
  assert.equal(r.opens, 1, "one TtlStore.open for ten components under StrictMode");
  assert.equal(r.firstUndefined, true, "undefined while it opens");
  assert.equal(r.stores, 1);
  assert.equal(r.opensWithOther, 2, "other options: another store");
  assert.equal(r.firstState, "StoreClosedError", "closed once its last user unmounted");
  assert.equal(r.otherState, "open", "the other store is still used");
  assert.equal(r.otherAfter, "StoreClosedError");
  assert.equal(r.caught.length, 1);
  assert.match(r.caught[0], /^TypeError: .*forever/, r.caught[0]);
  assert.equal(r.opensAtEnd, 4, "the failed open, then a new one");
});

test("idb-ttl/lite/react: useStore opens the lite entry's store; useEntry and useView work on it, and the default entry's hooks take it too", { timeout: TEST_TIMEOUT_MS }, async () => {
  const r = await inPage(async () => {
    const { React: { createElement: h }, liteHooks, hooks, LiteStore } = window.lib;
    const seen = [];
    let store;
    function C() {
      store = liteHooks.useStore("hooks-lite");
      const [value, set] = liteHooks.useEntry(store, "k", { initial: 0 });
      const list = hooks.useView(store, { prefix: "k" });
      seen.push({ value, list: list.length, set });
      return null;
    }
    window.mount(h(C));
    await window.until(() => store);
    await seen.at(-1).set((n) => n + 1, { ttl: 60 });
    await window.until(() => seen.at(-1).value === 1 && seen.at(-1).list === 1);
    return { lite: store instanceof LiteStore, collection: typeof store.collection, ttl: await store.ttl("k") };
  });
  assert.equal(r.lite, true, "a store of idb-ttl/lite");
  assert.equal(r.collection, "undefined");
  assert.ok(r.ttl > 55 && r.ttl <= 60);
});
