// The service-worker example (examples/service-worker/: sw.js, index.html, server.mjs) against the
// built package (pkg/, scripts/build.sh): the page registers the worker, which answers /api/ from
// idb-ttl with each response's ttlFromHeaders expiry. Cache hits are counted at the origin server;
// a short max-age expires and the next fetch goes to the network; no-store passes through; and a
// worker that is stopped (Chromium: CDP ServiceWorker.stopAllWorkers; Firefox: an idle timeout of
// one second; WebKitGTK: its page gone for 20 s) while its entries expire catches up when it
// wakes: the entries leave IndexedDB, which the test reads directly. Chromium, Firefox, WebKit.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { EVENT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, ROOT, TEST_TIMEOUT_MS, stopServer } from "./harness.mjs";
import { available, launch } from "./webdriver.mjs";

const DB = "sw-http-cache"; // examples/service-worker/sw.js

/** Starts the example's origin server on a free port with the built package; `{ child, url }`. */
function startOrigin() {
  const child = spawn(process.execPath, [join(ROOT, "examples/service-worker/server.mjs"), "0", join(ROOT, "pkg")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server.mjs printed no URL within 10 s: ${out}`)), 10_000);
    const read = (d) => {
      out += d;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`server.mjs exited (${code}): ${out}`)); });
  });
  return { child, url };
}

// Page-side helpers, sent as source to either driver. Each resolves to plain JSON.
const PAGE = {
  // The page registered the worker and is controlled by it (index.html sets data-state).
  ready: `async () => document.getElementById("status").dataset.state === "ready" && !!navigator.serviceWorker.controller`,
  // fetch(path) through the worker: whether it answered from idb-ttl, and the origin's count.
  get: `async (path) => {
    const r = await fetch(path);
    const body = await r.json();
    const counts = await (await fetch("/origin/count")).json();
    return { hit: r.headers.get("x-idb-ttl") === "hit", age: r.headers.get("age"), served: body.served, count: counts[new URL(path, location.href).pathname] ?? 0 };
  }`,
  // The URLs stored in the worker's database, read with plain IndexedDB ([] if none yet).
  stored: `async (db) => {
    const names = (await indexedDB.databases?.())?.map((d) => d.name);
    if (names && !names.includes(db)) return [];
    const conn = await new Promise((resolve, reject) => {
      const open = indexedDB.open(db);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      if (!conn.objectStoreNames.contains("entries")) return [];
      const keys = await new Promise((resolve, reject) => {
        const req = conn.transaction("entries").objectStore("entries").getAllKeys();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      return keys.map(([, url]) => new URL(url).pathname + new URL(url).search).sort();
    } finally {
      conn.close();
    }
  }`,
  // Which life of the worker answers (sw.js's /sw/life); asking wakes a stopped worker.
  life: `async () => (await (await fetch("/sw/life")).json()).born`,
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `read()` until `ok(value)`, up to `ms`; fails naming `what` with the last value. */
async function until(read, ok, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(v)} after ${ms} ms`);
    await sleep(200);
  }
}

/**
 * The scenario, driven through `run(helper, ...args)` (the page's helpers above), with
 * `stopWorker()` stopping the service worker by the engine's means. `t` gets diagnostics.
 */
async function scenario(t, run, stopWorker) {
  await until(() => run(PAGE.ready), Boolean, EVENT_TIMEOUT_MS, "the worker controls the page");
  // The worker stores a response after it has answered the page (waitUntil), so a fetch right
  // after can overtake that write: the worker then misses and its own fetch() is answered by the
  // browser's HTTP cache (max-age), neither a hit nor a request to the server (seen in Firefox on
  // a loaded machine). Before asking again, wait for the write to land.
  const landed = (path) => until(async () => (await run(PAGE.stored, DB)).includes(path), Boolean, EVENT_TIMEOUT_MS, `${path} stored`);

  // A hit: the second fetch is answered by the worker from idb-ttl; the server saw one request.
  let r = await run(PAGE.get, "/api/hit?max-age=60");
  assert.deepEqual([r.hit, r.count], [false, 1], "first fetch: from the server");
  await landed("/api/hit?max-age=60");
  r = await run(PAGE.get, "/api/hit?max-age=60");
  assert.deepEqual([r.hit, r.count, r.served], [true, 1, 1], "second fetch: from idb-ttl, the server not asked");
  assert.ok(Number(r.age) >= 0, `a hit says its Age: ${r.age}`);
  assert.deepEqual(await run(PAGE.stored, DB), ["/api/hit?max-age=60"], "stored in IndexedDB under its URL");

  // Expiry: max-age=2 is a hit at once, and goes to the server after it, while the expired entry
  // is still in IndexedDB (the reaper has not run): reads never return it. (Not max-age=1: the
  // Date header has whole seconds, so the age subtracted from max-age can be up to a second.)
  r = await run(PAGE.get, "/api/short?max-age=2");
  assert.equal(r.count, 1);
  await landed("/api/short?max-age=2");
  r = await run(PAGE.get, "/api/short?max-age=2");
  assert.deepEqual([r.hit, r.count], [true, 1], "within its max-age: a hit");
  await sleep(2_300);
  assert.ok((await run(PAGE.stored, DB)).includes("/api/short?max-age=2"), "expired, not yet reaped");
  r = await run(PAGE.get, "/api/short?max-age=2");
  assert.deepEqual([r.hit, r.count], [false, 2], "after its max-age: from the server again");

  // no-store and no-cache pass through, and nothing of them is stored.
  for (const path of ["/api/private?no-store", "/api/fresh?no-cache", "/api/plain"]) {
    await run(PAGE.get, path);
    r = await run(PAGE.get, path);
    assert.deepEqual([r.hit, r.count], [false, 2], `${path}: both fetches reach the server`);
  }
  const stored = await run(PAGE.stored, DB);
  assert.ok(!stored.some((u) => /private|fresh|plain/.test(u)), `uncacheable responses are not stored: ${stored}`);

  // A restart: entries stored, the worker stopped while they expire (nothing can reap them:
  // its timers are gone and no page has the store open), then woken: it catches up.
  for (const p of ["/api/r1?max-age=2", "/api/r2?max-age=2"]) await run(PAGE.get, p);
  for (const p of ["/api/r1?max-age=2", "/api/r2?max-age=2"]) await landed(p);
  const before = await run(PAGE.life);
  await stopWorker();
  await sleep(2_500);
  const expired = await run(PAGE.stored, DB);
  assert.ok(["/api/r1?max-age=2", "/api/r2?max-age=2"].every((u) => expired.includes(u)), `expired entries wait while the worker is stopped: ${expired}`);
  const after = await run(PAGE.life);
  assert.notEqual(after, before, "the worker was stopped and started again");
  const left = await until(() => run(PAGE.stored, DB), (s) => !s.some((u) => /r1|r2|short/.test(u)), EVENT_TIMEOUT_MS, "the woken worker reaps what expired");
  assert.deepEqual(left, ["/api/hit?max-age=60"], "what is still fresh stays");
  r = await run(PAGE.get, "/api/hit?max-age=60");
  assert.deepEqual([r.hit, r.count], [true, 1], "the restarted worker still answers from idb-ttl");
  t.diagnostic(`worker lives: ${before} -> ${after}`);
}

test("service worker: cache hits, expiry, no-store, a restart that catches up (Chromium)", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const profile = mkdtempSync(join(tmpdir(), "idb-ttl-sw-"));
  const origin = startOrigin();
  let context;
  try {
    const url = await origin.url;
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    const cdp = await context.newCDPSession(page);
    await cdp.send("ServiceWorker.enable");
    const run = (src, arg) => page.evaluate(([s, a]) => (0, eval)(`(${s})`)(a), [src, arg]);
    await scenario(t, run, () => cdp.send("ServiceWorker.stopAllWorkers"));
    assert.deepEqual(errors, [], "uncaught errors in the page");
  } finally {
    if (context) await context.close().catch(() => {});
    await stopServer(origin.child);
    rmSync(profile, { recursive: true, force: true });
  }
});

for (const engine of ["firefox", "webkit"]) {
  test(`service worker: cache hits, expiry, no-store, a restart that catches up (${engine})`, { timeout: TEST_TIMEOUT_MS, skip: !available(engine) && `${engine} is not installed` }, async (t) => {
    const origin = startOrigin();
    let session;
    try {
      const url = await origin.url;
      // Firefox stops a service worker idle for dom.serviceWorkers.idle_timeout ms (30 s by default).
      session = await launch(engine, engine === "firefox" ? { prefs: { "dom.serviceWorkers.idle_timeout": 1000, "dom.serviceWorkers.idle_extended_timeout": 1000 } } : {});
      await session.goto(url);
      const run = (src, arg) => session.eval(src, arg);
      // Firefox stops the worker once it has had no event for the idle timeout; WebKit stops a
      // worker some seconds after its last client went (seen: after 5 to 10 s), so the page
      // leaves for about:blank and comes back.
      const stopWorker = engine === "firefox" ? () => sleep(3_000) : async () => {
        await session.goto("about:blank");
        await sleep(20_000);
        await session.goto(url);
        await until(() => run(PAGE.ready), Boolean, EVENT_TIMEOUT_MS, "the worker controls the page again");
      };
      await scenario(t, run, stopWorker);
    } finally {
      if (session) await session.quit();
      await stopServer(origin.child);
    }
  });
}
