// Shared harness for the page tests in tests/page/*.test.mjs: a static server (scripts/serve.mjs)
// on a free port, Debian's Chromium driven by playwright-core on a fresh --user-data-dir, bounded
// waits, and cleanup of all three in `finally`. Not a test file itself (`node --test` only runs
// *.test.mjs here).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

/** Absolute path of the repository root, with a trailing separator. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The demo page's directory (www/), which `scripts/build.sh` fills with pkg/. */
export const WWW = join(ROOT, "www");

/**
 * The Chromium binary: Debian's /usr/bin/chromium-headless-shell unless `CHROMIUM_PATH` says
 * otherwise. The headless shell is Chromium's automation build (what Playwright runs for headless
 * Chromium): the same Blink, V8 and IndexedDB backends as /usr/bin/chromium, without the browser
 * UI around them, and lighter on the CPU (CONTRIBUTING.md, "Which Chromium"). The browser suite
 * runs in the full /usr/bin/chromium on LevelDB (scripts/test.sh), as do the benchmarks and the
 * soak (CHROMIUM_FULL).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium-headless-shell";

/** Debian's full Chromium, what Chrome users run (`CHROMIUM_PATH` overrides it too). */
export const CHROMIUM_FULL = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/**
 * Chromium's command-line flags. TOOLCHAIN.md #8: without the networking flags Chromium floods
 * the closed network.
 */
export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ...backendFlags(),
];

/**
 * Which IndexedDB backend wrote the profile `profile`: "leveldb" (an origin's
 * `<origin>.indexeddb.leveldb` directory), "sqlite" (an origin's directory of database files),
 * or null (nothing written yet).
 */
export function backendOnDisk(profile) {
  const dir = join(profile, "Default", "IndexedDB");
  if (!existsSync(dir)) return null;
  const names = readdirSync(dir);
  if (names.some((n) => n.endsWith(".indexeddb.leveldb"))) return "leveldb";
  return names.some((n) => !n.includes(".indexeddb.") && !n.endsWith(".blob")) ? "sqlite" : null;
}

/**
 * Chromium's IndexedDB backend for these tests: LevelDB by default; `IDB_BACKEND=sqlite` turns on
 * the SQLite backing store Chrome is rolling out for new data (scripts/test.sh runs the browser
 * suite and the crash test on both).
 */
export function backendFlags(backend = process.env.IDB_BACKEND || "leveldb") {
  if (backend === "leveldb") return [];
  if (backend === "sqlite") return ["--enable-features=IdbSqliteBackingStore,IdbSqliteOnDiskRollout"];
  throw new Error(`IDB_BACKEND=${backend}: expected leveldb or sqlite`);
}

/** Chromium's flags with the IndexedDB backend `backend` ("leveldb" or "sqlite") in place of IDB_BACKEND's. */
export function chromiumArgsOn(backend) {
  const sqlite = new Set(backendFlags("sqlite"));
  return [...CHROMIUM_ARGS.filter((a) => !sqlite.has(a)), ...backendFlags(backend)];
}

/**
 * `node:test` timeout of every page test: a bound on a hang, not on speed. A fresh or loaded
 * machine (2 cores, CPU hogs beside it, four page files at once, each with its own browser) runs a
 * test several times slower than an idle one.
 */
export const TEST_TIMEOUT_MS = 180_000;

/** Longest wait for a page (or fixture) to report that the library has loaded: a bound on a hang. */
export const READY_TIMEOUT_MS = 60_000;

/**
 * Longest wait for something that will happen (a row listed after a click, a log line, a reaper
 * pass, a tab hearing another): a bound on a hang, far above what it needs on a slow machine. A wait
 * that ends early on success costs nothing on a fast one. Checks that something does NOT happen
 * before a time are lower bounds, and keep their own times.
 */
export const EVENT_TIMEOUT_MS = 60_000;

/** The page's viewport in the demo tests. */
export const DEMO_VIEWPORT = { width: 1400, height: 900 };

/** CSS selector of the element with `data-testid="<testid>"`, followed by `extra` (e.g. `[data-key="k"]`). */
export const sel = (testid, extra = "") => `[data-testid="${testid}"]${extra}`;

/**
 * Starts `node scripts/serve.mjs <dir> 0` and returns `{ child, url }`: the server process and a
 * promise of its URL, read from its stdout line. The promise rejects if no URL is printed within
 * 60 s (a hang) or the server exits first.
 */
export function startServer(dir) {
  const child = spawn(process.execPath, [join(ROOT, "scripts/serve.mjs"), dir, "0"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve.mjs printed no URL within 60 s: ${out}${err}`)), 60_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /serving .* at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.stderr.on("data", (d) => { err += d; });
    child.on("error", (e) => { clearTimeout(timer); reject(e); });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`serve.mjs exited (${code}): ${err}`)); });
  });
  return { child, url };
}

/** Stops a server from `startServer`: SIGTERM, then SIGKILL after 3 s; resolves once it has exited. */
export async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const t = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(t);
}

/**
 * Runs `fn({ context, url, profile })` with `dir` served by `startServer` (`url` is its root URL)
 * and a Chromium persistent context on a fresh --user-data-dir (`profile`; `viewport`, if given,
 * is passed to Playwright, otherwise its default applies; `args`, if given, are Chromium's flags
 * instead of CHROMIUM_ARGS; `executablePath`, the binary instead of CHROMIUM). The browser, the
 * server and the profile directory are always cleaned up, in that order.
 */
export async function withChromium(dir, fn, { viewport, args = CHROMIUM_ARGS, executablePath = CHROMIUM } = {}) {
  const profile = mkdtempSync(join(tmpdir(), "idb-ttl-page-"));
  const server = startServer(dir);
  let context;
  try {
    const url = await server.url;
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      args,
      headless: true,
      ...(viewport ? { viewport } : {}),
    });
    await fn({ context, url, profile });
  } finally {
    if (context) await context.close().catch(() => {});
    await stopServer(server.child);
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Runs `fn({ page, url, pageErrors })` on the demo page: `dir` (default www/) served and opened in
 * the first tab of a Chromium on a fresh profile, at `DEMO_VIEWPORT`. `ready(page)`, if given,
 * runs after the page is loaded and before `fn`. After `fn`, fails on uncaught page errors, then
 * runs `check(page)` if given. Everything is cleaned up as in `withChromium`.
 */
export async function withDemoPage(fn, { dir = WWW, ready, check } = {}) {
  await withChromium(dir, async ({ context, url }) => {
    const page = context.pages()[0] ?? (await context.newPage());
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(url);
    if (ready) await ready(page);
    await fn({ page, url, pageErrors });
    assert.deepEqual(pageErrors, [], "uncaught errors in the page");
    if (check) await check(page);
  }, { viewport: DEMO_VIEWPORT });
}

/**
 * Waits until the demo page's status says the library is ready; fails with the page's own error
 * banner if it says "error" instead.
 */
export async function waitForLibrary(page) {
  await page.waitForSelector(sel("status", ':is([data-state="ready"], [data-state="error"])'), {
    timeout: READY_TIMEOUT_MS,
  });
  const state = await page.getAttribute(sel("status"), "data-state");
  if (state !== "ready") {
    const banner = await page.textContent(sel("error-banner"));
    assert.fail(`the demo page did not load the library (is www/pkg built? run scripts/build.sh): ${banner}`);
  }
}

/**
 * Polls `read()` every 100 ms until `ok(value)`, for at most `timeoutMs`; returns the last value.
 * Fails naming `what` and the last value if the time runs out.
 */
export async function poll(read, ok, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await read();
    if (ok(last)) return last;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(last)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * On the demo page, once its reaper is paused: waits until a pass already under way has finished,
 * i.e. the page's reaperRuns stat has not changed for more than one reaper interval (2 s). A fixed
 * short wait was too short on a loaded machine, where a pass takes longer.
 */
export async function waitForReaperSettled(page) {
  const runs = () => page.textContent(sel("stat-reaperRuns"));
  let last = await runs();
  let since = Date.now();
  await poll(async () => {
    const now = await runs();
    if (now !== last) { last = now; since = Date.now(); }
    return Date.now() - since;
  }, (ms) => ms >= 2_500, EVENT_TIMEOUT_MS, "the reaper's runs steady after the pause");
}

/**
 * Raises this test file's CPU priority to nice -10, which the browsers, drivers and servers it
 * starts afterwards inherit, where the system allows it (root, or CAP_SYS_NICE); elsewhere it stays
 * as it was. For a file whose checks time what a page shows ("within a frame", "within 100 ms of
 * its expiry") and that runs beside other files: their browsers, or any other load on the
 * machine, then cannot starve the renderer it times. Returns whether it was raised.
 */
export function raisePriority() {
  try {
    setPriority(-10);
    return true;
  } catch {
    return false;
  }
}
