// Tests of examples/redis-handoff: the Node server that takes a page's hand-off (the records the
// store's `onExpire` hook posts) and writes each into a real Redis with its absolute expiry.
//
// - "static files": the server's static routes (/, /pkg/, --static); needs no Redis.
// - "server alone": Debian's redis-server on a free port (its own AOF in a temporary directory,
//   fsync'd on every write, so killing it with SIGKILL loses nothing acknowledged), server.mjs, and
//   a real Redis client checking what landed: once per record, TTL and PEXPIRETIME from expiresAt,
//   values round-tripping, past records skipped, bad batches refused whole with a 400 naming the
//   record and field, a fast 503 while Redis is down, and the same POST succeeding once Redis is
//   back on the same port, with nothing lost or duplicated.
// - "server before Redis": the server starts while Redis is not up yet, answers 503, and picks
//   Redis up by itself.
// - "page end to end": Debian's Chromium (playwright-core, as in harness.mjs) on the example page,
//   served by server.mjs with --pkg www/pkg: entries expire, a reap hands them off and archives
//   them; with Redis killed a reap loses nothing; after a restart everything arrives exactly once.
//   Needs the package built with `onExpire` (scripts/build.sh); skipped until it is.
//   REDIS_HANDOFF_PKG=DIR serves another build instead of www/pkg.
//
// Skipped, with the reason, when redis-server is not installed (scripts/setup.sh step 7 installs
// it and the example's node_modules).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { EVENT_TIMEOUT_MS } from "./harness.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLE = join(ROOT, "examples/redis-handoff");
const SERVER = join(EXAMPLE, "server.mjs");
// The package the end-to-end test serves at /pkg/: scripts/build.sh's www/pkg, or another build.
const WWW_PKG = process.env.REDIS_HANDOFF_PKG || join(ROOT, "www/pkg");
const REDIS_SERVER = process.env.REDIS_SERVER || "redis-server";
const PREFIX = "idb-ttl:";

const redisMissing = spawnSync(REDIS_SERVER, ["--version"], { stdio: "ignore" }).error
  ? `${REDIS_SERVER} is not installed (scripts/setup.sh step 7 installs Debian's redis-server)`
  : null;

/** The `redis` client from the example's own node_modules. */
async function redisModule() {
  let path;
  try {
    path = createRequire(join(EXAMPLE, "package.json")).resolve("redis");
  } catch {
    assert.fail(`examples/redis-handoff/node_modules has no 'redis': run scripts/setup.sh (or npm ci in ${EXAMPLE})`);
  }
  return import(pathToFileURL(path).href);
}

/** A port that was free a moment ago on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Resolves with the first match of `re` in the child's stdout, rejects on exit or after `ms`. */
function waitForLine(child, re, ms, what) {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const done = (f, v) => { clearTimeout(timer); child.stdout.off("data", onOut); child.off("exit", onExit); f(v); };
    const onOut = (d) => { out += d; const m = re.exec(out); if (m) done(resolve, m); };
    const onExit = (code, signal) => done(reject, new Error(`${what} exited (${code ?? signal}) before it was ready: ${out}${err}`));
    const timer = setTimeout(() => done(reject, new Error(`${what} not ready within ${ms} ms: ${out}${err}`)), ms);
    child.stdout.on("data", onOut);
    child.stderr.on("data", (d) => { err += d; });
    child.on("exit", onExit);
  });
}

/**
 * Starts redis-server on `port` with its data (an AOF, fsync'd on every write) in `dir`, and waits
 * until it accepts connections. A restart on the same `dir` loads what was written before.
 */
async function startRedis(port, dir) {
  const child = spawn(REDIS_SERVER, [
    "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--daemonize", "no",
    "--appendonly", "yes", "--appendfsync", "always", "--dir", dir,
  ], { stdio: ["ignore", "pipe", "pipe"] });
  await waitForLine(child, /Ready to accept connections/, EVENT_TIMEOUT_MS, `redis-server on port ${port}`);
  return child;
}

/** Stops a child process (SIGKILL by default: a crash) and resolves once it has exited. */
async function stop(child, signal = "SIGKILL") {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  const t = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(t);
}

/** Starts server.mjs with `args` on a free port; returns { child, url, log() } (log: its stderr). */
async function startHandoff(args) {
  const child = spawn(process.execPath, [SERVER, "--port", "0", ...args], {
    cwd: EXAMPLE,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (d) => { err += d; });
  const m = await waitForLine(child, /^redis-handoff listening at (http:\/\/127\.0\.0\.1:\d+\/)\n/, EVENT_TIMEOUT_MS, "server.mjs");
  return { child, url: m[1], log: () => err };
}

/** A connected Redis client (for checking what the server wrote); `destroy()` it after use. */
async function redisClient(port) {
  const { createClient } = await redisModule();
  const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** POSTs `body` (JSON-stringified unless a string) to /handoff; returns { status, text, json, ms }. */
async function post(url, body) {
  const t0 = Date.now();
  const r = await fetch(new URL("handoff", url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await r.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: r.status, text, json, ms: Date.now() - t0 };
}

/** The Redis key server.mjs writes for a record. */
const keyOf = (r) => `${PREFIX}${r.kind}:${r.name ?? ""}:${JSON.stringify(r.key)}`;

/** Every key under the prefix (SCAN, not KEYS). */
async function allKeys(client, match = `${PREFIX}*`) {
  const keys = [];
  for await (const batch of client.scanIterator({ MATCH: match, COUNT: 1000 })) keys.push(...batch);
  return keys.sort();
}

/**
 * Checks that each record of `records` is in Redis once, with its payload and its expiry:
 * PEXPIRETIME exactly Math.round(expiresAt * 1000), PTTL within ±1 s of expiresAt from now.
 */
async function assertStored(client, records) {
  for (const r of records) {
    const key = keyOf(r);
    const raw = await client.get(key);
    assert.ok(raw !== null, `${key} is in Redis`);
    const { name, ...rest } = r;
    assert.deepEqual(JSON.parse(raw), r.kind === "entry" ? rest : { ...rest, name }, `${key}: payload round-trips`);
    assert.equal(Number(await client.pExpireTime(key)), Math.round(r.expiresAt * 1000), `${key}: PEXPIRETIME is expiresAt`);
    const pttl = Number(await client.pTTL(key));
    const want = r.expiresAt * 1000 - Date.now();
    assert.ok(Math.abs(pttl - want) <= 1_000, `${key}: PTTL ${pttl} ms, expiresAt is ${Math.round(want)} ms from now`);
  }
}

const now = () => Date.now() / 1000;
const rec = (kind, name, key, value, expiresAt, action) =>
  kind === "entry" ? { kind, key, value, expiresAt, action } : { kind, name, key, value, expiresAt, action };

// ---------------------------------------------------------------------------------------------

test("redis-handoff: static files (page at /, package at /pkg/, --static), no traversal", { timeout: EVENT_TIMEOUT_MS }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), "redis-handoff-static-"));
  let server;
  try {
    const pkg = join(tmp, "pkg");
    const extra = join(tmp, "extra");
    mkdirSync(pkg);
    mkdirSync(extra);
    writeFileSync(join(pkg, "index.js"), "export const x = 1;\n");
    writeFileSync(join(pkg, "a.mjs"), "export {};\n");
    writeFileSync(join(pkg, "m.wasm"), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
    writeFileSync(join(extra, "hello.txt"), "hi\n");
    // No Redis on this port: the static routes do not need it.
    server = await startHandoff(["--redis", `redis://127.0.0.1:${await freePort()}`, "--pkg", pkg, "--static", extra]);
    const get = (p) => fetch(new URL(p, server.url), { signal: AbortSignal.timeout(5_000) });

    let r = await get("/");
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type"), /^text\/html/);
    assert.equal(await r.text(), readFileSync(join(EXAMPLE, "page.html"), "utf8"));
    r = await get("/pkg/index.js");
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type"), /^text\/javascript/);
    assert.equal(await r.text(), "export const x = 1;\n");
    r = await get("/pkg/a.mjs");
    assert.match(r.headers.get("content-type"), /^text\/javascript/);
    r = await get("/pkg/m.wasm");
    assert.equal(r.headers.get("content-type"), "application/wasm");
    assert.equal(r.headers.get("cache-control"), "no-store");
    r = await get("/hello.txt");
    assert.equal(await r.text(), "hi\n");
    for (const p of ["/pkg/missing.js", "/pkg/%2e%2e/extra/hello.txt", "/pkg/..%2f..%2fserver.mjs", "/server.mjs"]) {
      r = await get(p);
      assert.equal(r.status, 404, `${p} is not served`);
      await r.text();
    }
    r = await get("/handoff");
    assert.equal(r.status, 405, "GET /handoff");
    await r.text();
  } finally {
    if (server) await stop(server.child, "SIGTERM");
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("redis-handoff: the server alone against a real Redis (idempotent writes, expiry, 400s, outage, recovery)", { timeout: 60_000 }, async (t) => {
  if (redisMissing) return t.skip(redisMissing);
  const dir = mkdtempSync(join(tmpdir(), "redis-handoff-"));
  const port = await freePort();
  let redis;
  let server;
  let client;
  try {
    redis = await startRedis(port, dir);
    // --timeout-ms 5000: a 503 under 2 s below comes from the client refusing to queue commands
    // while disconnected, not from the server's own per-request timeout.
    server = await startHandoff(["--redis", `redis://127.0.0.1:${port}`, "--timeout-ms", "5000"]);
    client = await redisClient(port);

    // /health: ready once the client has connected (it connects in the background).
    const deadline = Date.now() + 5_000;
    let health;
    do {
      health = await fetch(new URL("health", server.url));
      if (health.status === 200) break;
      await health.text();
      await sleep(100);
    } while (Date.now() < deadline);
    assert.equal(health.status, 200, "GET /health answers 200 once Redis is connected");
    assert.deepEqual(await health.json(), { ok: true, redis: "ready", ping: "PONG" });

    // A batch of every kind, key type and value shape; two records already past.
    const t0 = now();
    const live = [
      rec("entry", undefined, "session", { user: 7, roles: ["a", "b"], nested: { ok: true } }, t0 + 60.25, "archive"),
      rec("entry", undefined, 1, "the number one", t0 + 3600, "archive"),
      rec("entry", undefined, "1", "the string one", t0 + 3600.5, "archive"),
      rec("entry", undefined, "ключ:with \"quotes\"", "ünïcödé ✓", t0 + 86400 * 30 + 0.123, "archive"),
      rec("entry", undefined, "nullish", null, t0 + 120, "delete"),
      rec("document", "notes", 7, { title: "t", tags: [] }, t0 + 7200, "archive"),
      rec("document", "notes", "7", { title: "string id" }, t0 + 7200, "archive"),
      rec("events", "clicks", "clicks:1700000000", [{ at: 1700000000.5, x: 1 }, { at: 1700000001, x: 2 }], t0 + 600.999, "archive"),
    ];
    const past = [
      rec("entry", undefined, "gone", "x", t0 - 10, "delete"),
      rec("document", "notes", 99, { old: true }, t0 - 0.5, "delete"),
    ];
    const batchA = [past[0], ...live.slice(0, 4), past[1], ...live.slice(4)];

    let r = await post(server.url, batchA);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { stored: live.length, expired: past.length });
    // The same batch again (the browser's at-least-once delivery): same reply, no new key.
    r = await post(server.url, batchA);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { stored: live.length, expired: past.length });

    assert.deepEqual(await allKeys(client), live.map(keyOf).sort(), "one key per live record, none for past ones");
    assert.ok(await allKeys(client).then((k) => k.includes(`${PREFIX}entry::"session"`) && k.includes(`${PREFIX}document:notes:7`)),
      "key format <prefix><kind>:<name>:<JSON key>");
    await assertStored(client, live);
    for (const p of past) assert.equal(await client.exists(keyOf(p)), 0, `${keyOf(p)} (past) was not written`);

    // Bad batches: 400 naming the record and the field; nothing of the batch is written.
    const fresh = rec("entry", undefined, "fresh", 1, t0 + 100, "archive");
    const badRecords = [
      [{ ...fresh, key: "b1", kind: "entries" }, /record 1 \(key "b1"\): field 'kind'/],
      [{ key: "b2", value: 1, expiresAt: t0 + 100, action: "archive" }, /record 1 \(key "b2"\): field 'kind'/],
      [{ ...fresh, key: "b3", expiresAt: undefined }, /record 1 \(key "b3"\): field 'expiresAt'.*missing/],
      [{ ...fresh, key: "b4", expiresAt: "2030-01-01T00:00:00Z" }, /field 'expiresAt' must be a number of Unix seconds/],
      [{ ...fresh, key: "b5", expiresAt: 0 }, /field 'expiresAt'/],
      [{ ...fresh, key: "b6", expiresAt: 1e300 }, /field 'expiresAt'/],
      [{ ...fresh, key: "b7", action: "archived" }, /record 1 \(key "b7"\): field 'action' must be one of "archive", "delete"/],
      [{ ...fresh, key: { id: 1 } }, /record 1: field 'key' must be a string or a finite number/],
      [{ ...fresh, key: true }, /record 1: field 'key'/],
      [{ ...fresh, key: "b8", kind: "document" }, /record 1 \(key "b8"\): field 'name' must be a non-empty string/],
      [{ ...fresh, key: "b9", kind: "events", name: "" }, /field 'name'/],
      [{ ...fresh, key: "b10", name: "notes" }, /field 'name' must be absent for kind "entry"/],
      [null, /record 1: expected an object/],
      [[1, 2], /record 1: expected an object/],
    ];
    for (const [bad, message] of badRecords) {
      r = await post(server.url, [fresh, bad]);
      assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
      assert.match(r.text, message);
    }
    for (const [body, message] of [
      ["{not json", /body is not JSON/],
      [{ records: [fresh] }, /expected a JSON array of records/],
      ["", /body is not JSON/],
    ]) {
      r = await post(server.url, body);
      assert.equal(r.status, 400, r.text);
      assert.match(r.text, message);
    }
    assert.equal(await client.exists(keyOf(fresh)), 0, "nothing of a refused batch was written");
    assert.equal((await allKeys(client)).length, live.length);

    r = await post(server.url, []);
    assert.deepEqual([r.status, r.json], [200, { stored: 0, expired: 0 }], "an empty batch");

    // An archive tier with no delete tier after it: expiresAt null, kept without expiry.
    const forever = rec("document", "notes", "kept", { body: "x" }, null, "archive");
    r = await post(server.url, [forever]);
    assert.deepEqual([r.status, r.json], [200, { stored: 1, expired: 0 }], r.text);
    assert.equal(await client.pTTL(keyOf(forever)), -1, "stored without an expiry");
    assert.deepEqual(JSON.parse(await client.get(keyOf(forever))).value, { body: "x" });
    await client.del(keyOf(forever));

    // Outage: Redis killed (SIGKILL). The POST fails fast with a 503 (no offline queue), also
    // after a while, when the client is between reconnection attempts.
    client.destroy();
    client = undefined;
    await stop(redis);
    const batchB = [
      rec("entry", undefined, "after-outage", { n: 1 }, now() + 300.5, "archive"),
      rec("document", "notes", 8, "doc 8", now() + 400, "archive"),
      rec("entry", undefined, "session", { user: 7, roles: ["a", "b"], nested: { ok: true } }, t0 + 60.25, "archive"), // again
    ];
    for (const wait of [0, 1_500]) {
      await sleep(wait);
      r = await post(server.url, batchB);
      assert.equal(r.status, 503, `POST while Redis is down (after ${wait} ms): ${r.text}`);
      assert.match(r.text, /Redis unavailable/);
      assert.ok(r.ms < 2_000, `the 503 came in ${r.ms} ms (must be under 2 s)`);
    }
    const h = await fetch(new URL("health", server.url));
    assert.equal(h.status, 503);
    assert.equal((await h.json()).redis, "down");

    // Redis back on the same port with its data: the server reconnects by itself and the retried
    // POST succeeds; nothing of batch A was lost, nothing is duplicated.
    redis = await startRedis(port, dir);
    const retryUntil = Date.now() + 10_000;
    do {
      r = await post(server.url, batchB);
      if (r.status === 200) break;
      assert.equal(r.status, 503, r.text);
      await sleep(200);
    } while (Date.now() < retryUntil);
    assert.equal(r.status, 200, `POST after Redis came back: ${r.text}`);
    assert.deepEqual(r.json, { stored: 3, expired: 0 });

    client = await redisClient(port);
    const all = [...live, ...batchB.slice(0, 2)];
    assert.deepEqual(await allKeys(client), all.map(keyOf).sort(), "every record once, after the restart");
    await assertStored(client, all);
    assert.match(server.log(), /unreachable/, "the server logged the outage");
    assert.match(server.log(), /is back/, "the server logged the recovery");
  } finally {
    if (client) client.destroy();
    if (server) await stop(server.child, "SIGTERM");
    await stop(redis);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("redis-handoff: the server starts before Redis, answers 503, then picks Redis up by itself", { timeout: EVENT_TIMEOUT_MS }, async (t) => {
  if (redisMissing) return t.skip(redisMissing);
  const dir = mkdtempSync(join(tmpdir(), "redis-handoff-late-"));
  const port = await freePort();
  let redis;
  let server;
  let client;
  try {
    server = await startHandoff(["--redis", `redis://127.0.0.1:${port}`, "--prefix", "late:", "--timeout-ms", "5000"]);
    const record = rec("entry", undefined, "k", [1, 2, 3], now() + 50, "archive");
    let r = await post(server.url, [record]);
    assert.equal(r.status, 503, r.text);
    assert.ok(r.ms < 2_000, `503 in ${r.ms} ms`);
    assert.equal((await fetch(new URL("health", server.url))).status, 503);

    redis = await startRedis(port, dir);
    const until = Date.now() + 10_000;
    do {
      r = await post(server.url, [record]);
      if (r.status === 200) break;
      await sleep(200);
    } while (Date.now() < until);
    assert.deepEqual([r.status, r.json], [200, { stored: 1, expired: 0 }], r.text);
    client = await redisClient(port);
    assert.deepEqual(await allKeys(client, "*"), ['late:entry::"k"'], "--prefix is used");
    assert.deepEqual(JSON.parse(await client.get('late:entry::"k"')).value, [1, 2, 3]);
  } finally {
    if (client) client.destroy();
    if (server) await stop(server.child, "SIGTERM");
    await stop(redis);
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------------

/** Why the end-to-end test cannot run, or null. */
function e2eMissing() {
  if (redisMissing) return redisMissing;
  const dts = join(WWW_PKG, "index.d.ts");
  if (!existsSync(dts) || !readFileSync(dts, "utf8").includes("onExpire")) return "package built without onExpire";
  return null;
}

test("redis-handoff: page end to end (Chromium): expiring entries land in Redis once, an outage loses nothing", { timeout: 120_000 }, async (t) => {
  const why = e2eMissing();
  if (why) return t.skip(why);
  const { chromium } = await import("playwright-core");
  const { CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS } = await import("./harness.mjs");

  const dir = mkdtempSync(join(tmpdir(), "redis-handoff-e2e-"));
  const profile = mkdtempSync(join(tmpdir(), "idb-ttl-page-"));
  const port = await freePort();
  let redis;
  let server;
  let context;
  let client;
  try {
    redis = await startRedis(port, dir);
    server = await startHandoff(["--redis", `redis://127.0.0.1:${port}`, "--pkg", WWW_PKG]);
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const page = context.pages()[0] ?? (await context.newPage());
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    // Background passes every hour: the test's reap() calls are the passes that matter (a
    // background one in between changes nothing the test checks).
    await page.goto(`${server.url}?db=handoff-e2e&archiveFor=1%20hour&reapIntervalMs=3600000`);
    await page.waitForSelector('html:is([data-state="ready"], [data-state="error"])', { timeout: READY_TIMEOUT_MS });
    const state = await page.getAttribute("html", "data-state");
    assert.equal(state, "ready", `the page did not open the store: ${await page.getAttribute("html", "data-error")}`);

    const ev = (fn, arg) => page.evaluate(fn, arg);
    const archiveCount = () => ev(() => window.handoff.archiveCount());
    const rawCount = () => ev(() => window.handoff.rawCount());
    // getMany's values, undefined (missing or expired) as null.
    const readBack = (keys) => ev((k) => window.handoff.store.getMany(k).then((v) => v.map((x) => x ?? null)), keys);
    const reapUntil = async (want, ms, what) => {
      const until = Date.now() + ms;
      let count;
      for (;;) {
        await ev(() => window.handoff.reap());
        count = await archiveCount();
        if (count === want || Date.now() > until) break;
        await sleep(250);
      }
      assert.equal(count, want, `${what}: archive count after reaping for ${ms} ms`);
    };

    client = await redisClient(port);
    const ARCHIVE_FOR = 3600;

    /** Checks the Redis records of `keys` (entries written at `at` with `ttl`): archived, once. */
    const checkInRedis = async (keys, at, ttl) => {
      const records = [];
      for (const [i, key] of keys.entries()) {
        const raw = await client.get(`${PREFIX}entry::${JSON.stringify(key)}`);
        assert.ok(raw !== null, `${key} was handed off to Redis`);
        const r = JSON.parse(raw);
        assert.equal(r.kind, "entry");
        assert.equal(r.key, key);
        assert.equal(r.name, undefined);
        assert.equal(r.action, "archive", `${key}: handed off to be archived (archiveFor)`);
        assert.equal(r.value.n, i, `${key}: value round-trips`);
        const want = at + ttl + ARCHIVE_FOR;
        assert.ok(Math.abs(r.expiresAt - want) <= 1, `${key}: expiresAt ${r.expiresAt} is expiry + archiveFor (${want}) ±1 s`);
        records.push(r);
      }
      await assertStored(client, records);
    };

    // 1. Entries expire, a reap hands them off: in Redis once, gone from the live data, archived.
    const N = 20;
    const first = await ev(({ n }) => window.handoff.fill(n, 1, "e1-"), { n: N });
    assert.equal(await ev(() => window.handoff.liveCount()), N);
    await sleep(1_300);
    await reapUntil(N, EVENT_TIMEOUT_MS, "first hand-off");
    await checkInRedis(first.keys, first.at, 1);
    assert.equal((await allKeys(client, `${PREFIX}entry:*`)).length, N, "one Redis key per entry");
    assert.equal(await ev(() => window.handoff.liveCount()), 0, "the entries left the live data");
    assert.deepEqual(await readBack(first.keys), first.keys.map(() => null), "get of a handed-off entry shows nothing");
    const okDeliveries = await ev(() => window.handoff.deliveries.filter((d) => d.ok).length);
    assert.ok(okDeliveries >= 1, "the hook was called and succeeded");

    // 2. Redis killed: more entries expire; the reap's hand-off fails and nothing is lost.
    client.destroy();
    client = undefined;
    await stop(redis);
    const M = 10;
    const second = await ev(({ m }) => window.handoff.fill(m, 1, "e2-"), { m: M });
    await sleep(1_300);
    const rawBefore = await rawCount();
    const failuresBefore = await ev(() => window.handoff.deliveries.filter((d) => !d.ok).length);
    const reap = await ev(() => window.handoff.reap());
    const after = await ev(() => ({
      failed: window.handoff.deliveries.filter((d) => !d.ok),
      errors: window.handoff.errors.length,
      stats: window.handoff.stats(),
    }));
    assert.ok(after.failed.length > failuresBefore, `the hook was called during the outage (reap: ${JSON.stringify(reap)})`);
    assert.ok(after.failed.some((d) => d.status === 503), `the server answered 503: ${JSON.stringify(after.failed)}`);
    assert.ok(!reap.ok || reap.report.handOffFailed === true || after.errors > 0 || after.stats.handOffFailures > 0,
      `the failure is reported (reap rejected or says handOffFailed, an "error" event, or stats().handOffFailures): ${JSON.stringify({ reap, after })}`);
    assert.equal(await archiveCount(), N, "nothing was archived without the hand-off");
    assert.equal(await rawCount(), rawBefore, "nothing left IndexedDB without the hand-off");
    assert.ok(rawBefore >= M, `the ${M} waiting entries are still stored (raw count ${rawBefore})`);
    assert.deepEqual(await readBack(second.keys), second.keys.map(() => null), "reads never show waiting records");

    // 3. Redis back (same port, same data): the next passes deliver everything, exactly once.
    redis = await startRedis(port, dir);
    await reapUntil(N + M, EVENT_TIMEOUT_MS, "hand-off after the outage");
    client = await redisClient(port);
    await checkInRedis(first.keys, first.at, 1);
    await checkInRedis(second.keys, second.at, 1);
    assert.deepEqual(await allKeys(client, `${PREFIX}entry:*`), [...first.keys, ...second.keys].map((k) => `${PREFIX}entry::${JSON.stringify(k)}`).sort(),
      "every entry exactly once in Redis");
    assert.equal(await ev(() => window.handoff.liveCount()), 0);
    assert.deepEqual(pageErrors, [], "uncaught errors in the page");
  } finally {
    if (client) client.destroy();
    if (context) await context.close().catch(() => {});
    if (server) await stop(server.child, "SIGTERM");
    await stop(redis);
    rmSync(dir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
});
