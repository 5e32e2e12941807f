// Crash durability: every write idb-ttl acknowledged (its set() promise resolved) must survive the
// browser being killed at any moment, with its value and its expiry. Run with
// `node --test tests/page/` after scripts/build.sh (scripts/test.sh does both); CRASH_KILLS sets
// the number of kills (default 10), and scripts/crash-soak.sh runs 200.
//
// The test starts Debian's Chromium itself, in a process group of its own that it can kill whole,
// on one --user-data-dir kept across launches, connects playwright-core over the DevTools
// protocol, and has the fixture page (tests/page/fixtures/crash.html) write without pause:
// 4 writers, set() with long ttls (numbers and duration strings), expiresAt (Unix seconds,
// ISO-8601, Date), keepTtl or no expiry, mostly overwriting keys and so moving their records
// between expiries, a few values of 100-200 kB. The page reports each write before issuing it
// (waiting until the test has taken that report) and once it is acknowledged. After a random
// 200-1500 ms the test SIGKILLs the whole process group, relaunches Chromium on the same profile,
// opens the store and reads every key: each must hold its last acknowledged write, or the one
// write of its writer that was issued but not seen acknowledged (it may have committed or not),
// and no other key may be there. Then the page writes again, and so on; one summary line at the
// end.
//
// The kills also land during hand-off passes. The store has an onExpire hook and a reaper every
// 25 ms (plus reap() calls from the page), and 2 more writers set() records that expire 0.05-1 s
// later, each under a key of its own, reported like the others. The hook reports each batch it
// accepts (key, expiresAt, the value's identity) through a second exposed function and resolves
// only once the test has taken the report; it refuses 10% of the batches (they must come again)
// and answers 20% late. Each delivery is checked as it arrives: a record the test saw issued, with
// its value and an expiresAt within its write's bounds, and expired when the hook was called
// (never delivered while live). After each relaunch the test reads those records straight from
// the `entries` object store (reads hide expired records): every acknowledged one must be stored
// there or have been delivered at least once (none gone undelivered), and nothing else may be
// there. A record delivered twice is a duplicate (delivery is at least once: allowed, counted,
// split into those after a kill and those within one launch). After the last check the page
// reaps until none is left, and every acknowledged record must have been delivered.
//
// Chromium may delete a whole origin's IndexedDB after a crash (an upstream LevelDB bug): open()
// then creates the database afresh and says so with `isNew`, and with `dataLoss` "total" (and
// `dataLossMessage`, Chromium's reason) when Chromium reported deleting a corrupt database on the
// upgrade event. Such a visible wipe is logged and counted, by that signal too, and the expected
// contents (short-ttl records not yet delivered included) start again from empty. What fails is a
// silent loss (a key missing, different or unexpected while `isNew` is false; a short-ttl record
// neither stored nor delivered), a delivery that breaks the rules above, `dataLoss` "total"
// without `isNew`, a rejected set() or reap(), an "error" event other than a refused hand-off,
// and open() or the read-back failing or hanging.
//
// The seed (CRASH_SEED, random if unset, printed first) fixes the time before each kill, every
// write the page chooses and the hook's refusals; where each kill lands among the writes and
// hand-offs still depends on timing. The summary line ends with the hand-off figures and the
// wipes: "wipes: N (dataLoss total: M; isNew without dataLoss: K; messages: ...)".

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { chromium } from "playwright-core";
import { EVENT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, ROOT, backendOnDisk, startServer, stopServer } from "./harness.mjs";
import { prng } from "./fixtures/prng.mjs";

const FIXTURE = "tests/page/fixtures/crash.html";
const DB = "crash";
const KILLS = Number(process.env.CRASH_KILLS ?? 10);
const SEED = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : randomInt(2 ** 32);
/** How long the page writes before each kill: a random whole number of ms in [min, max). */
const WRITE_MS = { min: 200, max: 1_500 };
/** Longest wait for Chromium to print its DevTools URL, and for playwright-core to connect. */
const LAUNCH_MS = 15_000;
/** Longest an open() or the read-back of every key may take before it counts as a hang. */
const CALL_MS = 10_000;
/** Longest wait for the killed browser's processes to be gone. */
const EXIT_MS = 10_000;
/** Test timeout per kill (a launch, a check and a write phase took 3-6 s on 2 busy cores). */
const PER_KILL_MS = 10_000;
/**
 * Tolerance on expiries, in seconds: the library and the page each turn `Date.now()` plus a ttl
 * into floating-point seconds.
 */
const EPSILON = 1e-3;
/** Kills between progress lines (none in a default run of 10). */
const PROGRESS_EVERY = 25;
/** Losses quoted in the failure message; the count covers all of them. */
const QUOTED_LOSSES = 10;
/** Longest the page may reap after the last check until no short-ttl record is left. */
const DRAIN_MS = 5_000;
/** Prefix of the short-ttl records' keys (tests/page/fixtures/crash.html). */
const SHORT = "s:";

assert.ok(Number.isInteger(KILLS) && KILLS >= 1,
  `CRASH_KILLS must be a whole number >= 1, not ${process.env.CRASH_KILLS}`);
assert.ok(Number.isInteger(SEED) && SEED >= 0 && SEED < 2 ** 32,
  `CRASH_SEED must be a 32-bit unsigned integer, not ${process.env.CRASH_SEED}`);

/** `promise`, or a rejection naming `what` if it has not settled within `ms`. */
async function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms (seed ${SEED})`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Pids of the processes of group `pgid` that are still alive, from /proc. Zombies do not count:
 * SIGKILLed Chromium's children are reparented to PID 1, which here reaps them only seconds later.
 */
function liveGroup(pgid) {
  const live = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // After "pid (comm) ": state, ppid, pgrp, ...; comm may itself contain ") ".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") live.push(Number(pid));
  }
  return live;
}

/**
 * Starts Chromium on `profile` with remote debugging on a free port, detached into its own
 * process group (so `kill` reaches every process it forks). Resolves to `{ child, wsUrl }` once
 * it prints `DevTools listening on ws://...` on stderr; rejects if it exits first or prints
 * nothing within LAUNCH_MS (killing it then). Its stderr is drained for as long as it runs (a full
 * pipe would block it) and the last 4 kB are quoted on failure.
 */
function launch(profile) {
  const child = spawn(CHROMIUM, [
    ...CHROMIUM_ARGS, `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank",
  ], { detached: true, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      if (child.pid) kill(child).catch(() => {});
      reject(new Error(`Chromium ${why}; stderr: ${err.slice(-4096)}`));
    };
    const timer = setTimeout(() => fail(`printed no DevTools URL within ${LAUNCH_MS} ms`), LAUNCH_MS);
    child.stderr.on("data", (d) => {
      err = (err + d).slice(-65_536);
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) { clearTimeout(timer); resolve({ child, wsUrl: m[1] }); }
    });
    child.on("error", (e) => fail(`did not start: ${e.message}`));
    child.on("exit", (code, signal) => fail(`exited (${signal ?? code}) before printing its DevTools URL`));
  });
}

/**
 * SIGKILLs Chromium's whole process group, as a crash or an OOM kill would; resolves once the
 * launched process has exited and no process of the group is left alive, within EXIT_MS.
 */
async function kill(child) {
  const exited = child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch (e) {
    if (e.code !== "ESRCH") throw e;
  }
  await within(exited, EXIT_MS, "the killed Chromium to exit");
  const deadline = Date.now() + EXIT_MS;
  while (liveGroup(child.pid).length > 0) {
    assert.ok(Date.now() < deadline,
      `Chromium processes ${liveGroup(child.pid)} still alive ${EXIT_MS} ms after SIGKILL`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A key's state for a failure message: `"absent"`, or its value (with long `text` shortened to its
 * length) and expiry (`null`, Unix seconds, or `{ lo, hi }`).
 */
function describe(state) {
  if (state === undefined) return "absent";
  const { value, expiry } = state;
  const shown = typeof value?.text === "string" ? { ...value, text: `${value.text.length} chars` } : value;
  return JSON.stringify({ value: shown, expiry });
}

/**
 * What the store must hold, built from the page's reports: each key's last acknowledged write,
 * and each writer's write issued but not yet seen acknowledged (at most one per writer: a writer
 * issues one write at a time, and only once the test has taken its report). Reports are taken
 * until `hold()`; after it they are left unanswered, which stops the writers before their next
 * set().
 */
class Expected {
  /** key -> `{ value, expiry }`: `expiry` null (none) or `{ lo, hi }` in Unix seconds. */
  keys = new Map();
  /** writer -> its "issue" report, while it is in flight. */
  issued = new Map();
  /** key -> the state its in-flight write would give it, computed by `crashed()`. */
  inFlight = new Map();
  taking = false;
  acknowledged = 0;
  /** Rejected set() calls and out-of-order reports. */
  errors = [];

  /** Starts taking reports (before a write phase). */
  take() {
    this.taking = true;
  }

  /** Stops taking reports (before the kill). */
  hold() {
    this.taking = false;
  }

  /** The page's `reportWrite(msg)`; resolves once the report is taken, never once held. */
  report(msg) {
    if (!this.taking) return new Promise(() => {});
    if (msg.type === "issue") {
      this.issued.set(msg.w, msg);
    } else if (msg.type === "ack") {
      const issue = this.issued.get(msg.w);
      if (issue?.n !== msg.n) {
        this.errors.push(`writer ${msg.w}: acknowledged #${msg.n}, but #${issue?.n} was issued`);
      } else {
        this.keys.set(issue.key, this.#result(issue, msg.t1));
        this.issued.delete(msg.w);
        this.acknowledged += 1;
      }
    } else {
      this.errors.push(`writer ${msg.w} #${msg.n}: set() rejected: ${msg.error}`);
    }
    return Promise.resolve();
  }

  /**
   * The state `issue` gives its key if it commits, knowing that it committed (or could still
   * commit) no later than `t1`, in Unix seconds.
   */
  #result(issue, t1) {
    const { kind } = issue.expiry;
    const expiry =
      kind === "none" ? null
      : kind === "at" ? { lo: issue.expiry.at, hi: issue.expiry.at }
      : kind === "ttl" ? { lo: issue.t0 + issue.expiry.ttl, hi: t1 + issue.expiry.ttl }
      : this.keys.get(issue.key)?.expiry ?? null; // keepTtl: a new key gets no expiry (no defaultTtl)
    return { value: issue.value, expiry };
  }

  /** Records the kill, its processes gone at `at` (Unix seconds): each in-flight write may have committed. */
  crashed(at) {
    for (const issue of this.issued.values()) this.inFlight.set(issue.key, this.#result(issue, at));
    this.issued.clear();
  }

  /** Forgets everything: the browser deleted the database. */
  wipe() {
    this.keys.clear();
    this.inFlight.clear();
  }

  /** Every key the store may hold. */
  keysToCheck() {
    return [...new Set([...this.keys.keys(), ...this.inFlight.keys()])];
  }

  /**
   * Compares what the store holds (`read()` of the page: `entries` for `keysToCheck()`, `live`
   * keys) with what it must hold; adopts each in-flight write that committed, and returns the
   * losses. After it, the expectations are what the store holds, so a loss is reported once.
   */
  check({ entries, live }) {
    const losses = [];
    let committed = 0;
    for (const [key, value, at] of entries) {
      const got = value === undefined && at === undefined ? undefined : { value, at };
      const want = this.keys.get(key);
      const maybe = this.inFlight.get(key);
      if (matches(want, got)) continue;
      if (maybe && matches(maybe, got)) {
        this.keys.set(key, maybe);
        committed += 1;
        continue;
      }
      losses.push(`key ${JSON.stringify(key)}: expected ${describe(want)}${maybe ? ` or ${describe(maybe)}` : ""}, ` +
        `found ${got === undefined ? "nothing" : describe({ value: got.value, expiry: got.at })}`);
      this.#adopt(key, got);
    }
    const checked = new Set(entries.map(([key]) => key));
    for (const key of live.filter((k) => !checked.has(k))) {
      losses.push(`key ${JSON.stringify(key)}: never written, but keys() lists it`);
    }
    this.inFlight.clear();
    return { losses, committed, checked: entries.length };
  }

  /** Takes what the store holds for `key` as its expected state. */
  #adopt(key, got) {
    if (got === undefined) this.keys.delete(key);
    else this.keys.set(key, { value: got.value, expiry: got.at === null ? null : { lo: got.at, hi: got.at } });
  }
}

/** Whether `got` (`{ value, at }` read back, or undefined) is the expected `state` (or absent). */
function matches(state, got) {
  if (state === undefined || got === undefined) return state === got;
  if (!isDeepStrictEqual(got.value, state.value)) return false;
  if (state.expiry === null) return got.at === null;
  return typeof got.at === "number" && got.at >= state.expiry.lo - EPSILON && got.at <= state.expiry.hi + EPSILON;
}

/**
 * The short-ttl records and their hand-off, from the page's reports: each write ("issue" and
 * "ack" marked `short`, taken under the same take()/hold() as the other writes) and each batch the
 * hook accepted ("delivered", taken at any time: the hook waits for it, so whatever the store may
 * have deleted is known here) or refused.
 */
class HandOff {
  /**
   * key -> `{ key, id, t0, lo, hi, state, deliveries, seen, past }`: expiry bounds in Unix
   * seconds (`hi` Infinity until acknowledged or the kill), `state` "issued" (in flight),
   * "acked", "maybe" (in flight at a kill: may have committed), "gone" (not stored any more,
   * delivered), "dropped" (never stored: in flight at a kill, or `past`) or "wiped";
   * `deliveries` the launches that delivered it; `seen` the expiresAt values delivered or read,
   * checked once `hi` is known. `past`: an `expiresAt` already reached when set() was called
   * ("must") or by the time it resolved ("may"): such a set() stores nothing (the README), so
   * the record must (or may) be absent without ever being delivered. The page picks expiresAt
   * 50 ms ahead or more before its report's round trip, which a loaded machine can outlast.
   */
  records = new Map();
  /** writer -> its record in flight. */
  issued = new Map();
  taking = false;
  /** The launch the reports come from (0: the first). */
  launch = 0;
  acknowledged = 0;
  committed = 0;
  delivered = 0;
  calls = 0;
  refused = 0;
  refusedRecords = 0;
  duplicates = 0;
  duplicatesAfterKill = 0;
  whileLive = 0;
  /** Acknowledged records whose expiresAt had passed when set() resolved; those found never stored. */
  past = 0;
  pastDropped = 0;
  /** Records delivered before a kill and found still stored after it (to be offered again). */
  pendingAgain = 0;
  /** Deliveries that break the rules, rejected writes or reaps, unexpected "error" events. */
  errors = [];

  /** Records (and prints, the first QUOTED_LOSSES) a broken rule. */
  error(what) {
    if (this.errors.length < QUOTED_LOSSES) console.log(`crash: hand-off error: ${what}`);
    this.errors.push(what);
  }

  take() {
    this.taking = true;
  }

  hold() {
    this.taking = false;
  }

  /** The page's `reportWrite(msg)` for `short` writes; as `Expected.report`. */
  report(msg) {
    if (!this.taking) return new Promise(() => {});
    if (msg.type === "issue") {
      const { key, value, expiry, t0 } = msg;
      const lo = expiry.kind === "at" ? expiry.at : t0 + expiry.ttl;
      const hi = expiry.kind === "at" ? expiry.at : Infinity;
      const id = `${value.epoch}:${value.w}:${value.n}`;
      const record = { key, id, t0, lo, hi, ttl: expiry.ttl, state: "issued", deliveries: [], seen: [], past: undefined };
      if (this.records.has(key)) this.error(`short writer ${msg.w}: key ${key} issued twice`);
      this.records.set(key, record);
      this.issued.set(msg.w, { n: msg.n, record });
    } else if (msg.type === "ack") {
      const issue = this.issued.get(msg.w);
      if (issue?.n !== msg.n) {
        this.error(`short writer ${msg.w}: acknowledged #${msg.n}, but #${issue?.n} was issued`);
      } else {
        const { record } = issue;
        if (record.hi === Infinity) record.hi = msg.t1 + record.ttl;
        record.state = "acked";
        if (record.ttl === undefined && record.lo <= msg.t1) {
          record.past = record.lo < msg.ts ? "must" : "may";
          this.past += 1;
          this.#pastChecks(record);
        }
        this.#bounds(issue.record);
        this.issued.delete(msg.w);
        this.acknowledged += 1;
      }
    } else {
      this.error(`short writer ${msg.w} #${msg.n}: set() rejected: ${msg.error}`);
    }
    return Promise.resolve();
  }

  /** The page's `reportHandOff(msg)`: always taken. */
  handOff(msg) {
    if (msg.type === "refused") {
      this.refused += 1;
      this.refusedRecords += msg.records;
    } else if (msg.type === "delivered") {
      this.calls += 1;
      for (const r of msg.records) this.#delivered(r, msg.now);
    } else {
      this.error(`launch ${this.launch}: ${msg.error}`);
    }
    return Promise.resolve();
  }

  /** Checks one delivered record `r`, the hook called at `now` (Unix seconds). */
  #delivered(r, now) {
    this.delivered += 1;
    const what = `launch ${this.launch}: onExpire got ${JSON.stringify(r)} at ${now}`;
    const record = this.records.get(r.key);
    if (r.kind !== "entry" || r.name !== null || r.action !== "delete") {
      this.error(`${what}: expected kind "entry", no name, action "delete"`);
    }
    if (record === undefined) {
      this.error(`${what}: a record the page never wrote (or a long-ttl one)`);
      return;
    }
    if (r.id !== record.id) this.error(`${what}: its value is not ${record.id}, the value written`);
    if (!(r.expiresAt <= now)) {
      this.whileLive += 1;
      this.error(`${what}: delivered while live (expires ${r.expiresAt - now} s later)`);
    }
    if (record.state === "wiped" || record.state === "dropped") {
      this.error(`${what}: the record was ${record.state === "wiped" ? "wiped" : "found never stored"} before`);
    }
    if (record.deliveries.length > 0) {
      this.duplicates += 1;
      if (record.deliveries.some((l) => l !== this.launch)) this.duplicatesAfterKill += 1;
    }
    record.deliveries.push(this.launch);
    record.seen.push(r.expiresAt);
    this.#bounds(record);
    this.#pastChecks(record);
  }

  /** A set() whose expiry had passed before it was called stores nothing: nothing to deliver. */
  #pastChecks(record) {
    if (record.past === "must" && record.deliveries.length > 0) {
      this.error(`record ${record.key}: delivered, but its expiresAt ${record.lo} had passed when set() was ` +
        `called, so set() should have stored nothing`);
    }
  }

  /** Checks the expiresAt values seen for `record` against its bounds (the upper once known). */
  #bounds(record) {
    for (const at of record.seen) {
      if (at < record.lo - EPSILON || at > record.hi + EPSILON) {
        this.error(`record ${record.key}: expiresAt ${at} outside its write's [${record.lo}, ${record.hi}]`);
      }
    }
    if (record.hi !== Infinity) record.seen = [];
  }

  /** Records the kill at `at` (Unix seconds): each record in flight may have committed. */
  crashed(at) {
    for (const { record } of this.issued.values()) {
      if (record.hi === Infinity) record.hi = at + record.ttl;
      record.state = "maybe";
      this.#bounds(record);
    }
    this.issued.clear();
  }

  /** The browser deleted the database: returns how many records not delivered yet went with it. */
  wipe() {
    let gone = 0;
    for (const record of this.records.values()) {
      if (record.state !== "acked" && record.state !== "maybe") continue;
      if (record.deliveries.length === 0) gone += 1;
      record.state = "wiped";
    }
    return gone;
  }

  /**
   * Compares the short-ttl records stored (`raw`: `[key, expiresAt, id]` read from the object
   * store) and listed live by keys() (`live`) with the reports; returns the losses: acknowledged
   * records neither stored nor ever delivered. Records found gone and delivered are settled.
   */
  check(raw, live) {
    const losses = [];
    const stored = new Set();
    for (const [key, at, id] of raw) {
      const record = this.records.get(key);
      stored.add(key);
      if (record === undefined || record.state === "wiped" || record.state === "gone" || record.state === "dropped") {
        losses.push(`record ${key} (${id}, expires ${at}) is stored, but it was ${
          record === undefined ? "never written" : record.state === "gone" ? "delivered and gone before" : record.state}`);
        continue;
      }
      if (id !== record.id) losses.push(`record ${key}: stored with value ${id}, written with ${record.id}`);
      if (record.past === "must") {
        this.error(`record ${key}: stored, but its expiresAt ${record.lo} had passed when set() was called, ` +
          "so set() should have stored nothing");
      }
      record.seen.push(at);
      this.#bounds(record);
      if (record.state === "maybe") {
        record.state = "acked";
        this.committed += 1;
      }
      if (record.deliveries.some((l) => l < this.launch)) this.pendingAgain += 1;
    }
    for (const record of this.records.values()) {
      if (stored.has(record.key)) continue;
      if (record.state === "acked" && record.past !== undefined && record.deliveries.length === 0) {
        record.state = "dropped";
        this.pastDropped += 1;
      } else if (record.state === "acked") {
        if (record.deliveries.length === 0) {
          losses.push(`record ${record.key} (${record.id}, expiry in [${record.lo}, ${record.hi}]): acknowledged, ` +
            "not stored, never delivered to onExpire");
        }
        record.state = "gone";
      } else if (record.state === "maybe") {
        if (record.deliveries.length > 0) this.committed += 1;
        record.state = record.deliveries.length > 0 ? "gone" : "dropped";
      }
    }
    for (const key of live) {
      if (!stored.has(key) && !this.records.has(key)) losses.push(`record ${key}: never written, but keys() lists it`);
    }
    return losses;
  }
}

/** "N (dataLoss total: M; isNew without dataLoss: K; messages: ...)" for the summary line. */
function describeWipes(wipes) {
  const total = wipes.filter((w) => w.dataLoss === "total");
  const counts = new Map();
  for (const { dataLossMessage } of total) counts.set(dataLossMessage, (counts.get(dataLossMessage) ?? 0) + 1);
  const messages = [...counts].map(([m, n]) => `${JSON.stringify(m)}${n > 1 ? ` x${n}` : ""}`).join(", ");
  return `${wipes.length} (dataLoss total: ${total.length}; isNew without dataLoss: ${wipes.length - total.length}; ` +
    `messages: ${messages || "none"})`;
}

/**
 * Connects playwright-core to the Chromium at `wsUrl`, exposes `report` to pages as
 * `window.reportWrite` and `handOff` as `window.reportHandOff`, and opens the fixture at `url` in
 * its first tab; resolves to the page once the library has loaded. Uncaught page errors are
 * pushed to `pageErrors`.
 */
async function openFixture(wsUrl, url, report, handOff, pageErrors) {
  const browser = await chromium.connectOverCDP(wsUrl, { timeout: LAUNCH_MS });
  const context = browser.contexts()[0];
  await context.exposeFunction("reportWrite", report);
  await context.exposeFunction("reportHandOff", handOff);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(url, { timeout: READY_TIMEOUT_MS });
  await page.waitForSelector("html[data-state]", { state: "attached", timeout: READY_TIMEOUT_MS });
  if ((await page.getAttribute("html", "data-state")) !== "ready") {
    assert.fail(`the fixture did not load the library: ${await page.getAttribute("html", "data-error")}`);
  }
  return page;
}

test(`crash durability: ${KILLS} SIGKILLs of Chromium while a page writes and hands off, no acknowledged write lost`, {
  timeout: EVENT_TIMEOUT_MS + KILLS * PER_KILL_MS,
}, async () => {
  // Printed as it happens (t.diagnostic would wait for the end): the seed first, so a run that
  // hangs or is interrupted can still be repeated.
  console.log(`crash: seed ${SEED}, ${KILLS} kills (rerun: CRASH_SEED=${SEED} CRASH_KILLS=${KILLS})`);
  const rand = prng(SEED);
  // The hook's choices come from a generator of their own, so a seed still gives the kill delays
  // and writes it gave before the hand-off was added.
  const hookRand = prng((SEED ^ 0x5bd1e995) >>> 0);
  const profile = mkdtempSync(join(tmpdir(), "idb-ttl-crash-"));
  let onDisk = null;
  const server = startServer(ROOT);
  const expected = new Expected();
  const handOff = new HandOff();
  /** `{ when, dataLoss, dataLossMessage }` of each visible wipe. */
  const wipeLog = [];
  /** What open() said that contradicts the documentation (`dataLoss` "total" without `isNew`). */
  const signalErrors = [];
  let drained;
  const pageErrors = [];
  const losses = [];
  let chrome;
  let kills = 0;
  let checks = 0;
  let committed = 0;
  // Chromium runs in a process group of its own, which Ctrl-C at a terminal does not reach: kill
  // it, and remove its profile, if the test process is interrupted.
  const interrupted = (signal) => {
    if (chrome) {
      try {
        process.kill(-chrome.child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    rmSync(profile, { recursive: true, force: true });
    console.log(`crash: interrupted by ${signal} (seed ${SEED})`);
    process.exit(130);
  };
  process.once("SIGINT", interrupted).once("SIGTERM", interrupted);
  // Losses are also printed as they are found (the first QUOTED_LOSSES), for a soak's log.
  const lost = (found) => {
    for (const loss of found) {
      if (losses.length < QUOTED_LOSSES) console.log(`crash: lost ${loss}`);
      losses.push(loss);
    }
  };
  const summary = () => `${kills} kills, ${expected.acknowledged} acknowledged writes, ${checks} key checks, ` +
    `${losses.length} lost, ${committed} unacknowledged writes found committed; hand-off: ` +
    `${handOff.acknowledged} short-ttl writes acknowledged (${handOff.committed} more found committed; ` +
    `${handOff.past} with an expiresAt past before set() resolved, ${handOff.pastDropped} of them found never stored), ` +
    `${handOff.delivered} records delivered in ${handOff.calls} onExpire calls (${handOff.refused} calls refused, ` +
    `${handOff.refusedRecords} records), ${handOff.duplicates} duplicates (${handOff.duplicatesAfterKill} after a kill, ` +
    `${handOff.duplicates - handOff.duplicatesAfterKill} within a launch), ${handOff.whileLive} delivered while live, ` +
    `${handOff.pendingAgain} delivered before a kill and still stored after it, ` +
    `${drained === undefined ? "no final drain" : `${drained} still stored after the final drain`}; ` +
    `wipes: ${describeWipes(wipeLog)}; seed ${SEED}`;
  try {
    const url = new URL(FIXTURE, await server.url).href;
    for (;;) {
      const when = kills === 0 ? "first launch" : `after kill ${kills}`;
      chrome = await launch(profile);
      handOff.launch = kills;
      const page = await within(
        openFixture(chrome.wsUrl, url, (msg) => (msg.short ? handOff.report(msg) : expected.report(msg)),
          (msg) => handOff.handOff(msg), pageErrors),
        LAUNCH_MS + 2 * READY_TIMEOUT_MS, `${when}: connecting and loading the fixture`);
      const hookSeed = Math.floor(hookRand() * 2 ** 32);
      const { isNew, dataLoss, dataLossMessage } = await within(
        page.evaluate(([name, seed]) => window.crash.open(name, seed), [DB, hookSeed]), CALL_MS,
        `${when}: TtlStore.open()`);
      if (dataLoss !== "none" && !(dataLoss === "total" && isNew && dataLossMessage)) {
        signalErrors.push(`${when}: open() said isNew ${isNew}, dataLoss ${JSON.stringify(dataLoss)}, ` +
          `dataLossMessage ${JSON.stringify(dataLossMessage)}`);
      }
      if (kills === 0) {
        assert.equal(isNew, true, "the first open() on a fresh profile creates the database");
        assert.equal(dataLoss, "none", "the first open() on a fresh profile lost nothing");
      } else if (isNew) {
        wipeLog.push({ when, dataLoss, dataLossMessage });
        const gone = handOff.wipe();
        console.log(`crash: visible wipe ${when}: open() created the database afresh (isNew, dataLoss ` +
          `${JSON.stringify(dataLoss)}${dataLoss === "total" ? `: ${JSON.stringify(dataLossMessage)}` : ""}), ` +
          `${expected.keys.size} acknowledged keys and ${gone} short-ttl records not yet handed off gone`);
        expected.wipe();
      }
      const found = await within(page.evaluate((keys) => window.crash.read(keys), expected.keysToCheck()), CALL_MS,
        `${when}: reading back every key`);
      // The short-ttl keys keys() lists are checked against the hand-off; the rest as before.
      const shortLive = found.live.filter((k) => typeof k === "string" && k.startsWith(SHORT));
      const result = expected.check({ ...found, live: found.live.filter((k) => !shortLive.includes(k)) });
      checks += result.checked;
      committed += result.committed;
      lost(result.losses.map((loss) => `${when}: ${loss}`));
      const raw = await within(page.evaluate((name) => window.crash.raw(name), DB), CALL_MS,
        `${when}: reading the short-ttl records from the object store`);
      lost(handOff.check(raw, shortLive).map((loss) => `${when}: hand-off: ${loss}`));
      if (kills === KILLS) {
        // Every record left must still reach the hook: reap until none is stored.
        const left = await within(page.evaluate(([name, ms]) => window.crash.drain(name, ms), [DB, DRAIN_MS]),
          DRAIN_MS + CALL_MS, "the final drain");
        drained = left.length;
        lost(handOff.check(left, []).map((loss) => `after the final drain: hand-off: ${loss}`));
        break;
      }
      if (kills > 0 && kills % PROGRESS_EVERY === 0) console.log(`crash: so far ${summary()}`);

      const pageSeed = Math.floor(rand() * 2 ** 32);
      const writeMs = WRITE_MS.min + Math.floor(rand() * (WRITE_MS.max - WRITE_MS.min));
      expected.take();
      handOff.take();
      await page.evaluate(([seed, epoch]) => window.crash.write(seed, epoch), [pageSeed, kills]);
      await new Promise((r) => setTimeout(r, writeMs));
      expected.hold();
      handOff.hold();
      await kill(chrome.child);
      chrome = undefined;
      kills += 1;
      const at = Date.now() / 1000;
      expected.crashed(at);
      handOff.crashed(at);
      assert.deepEqual(expected.errors, [], `writes failed before kill ${kills} (seed ${SEED})`);
    }
    // The backend asked for (IDB_BACKEND) is the one that wrote the profile.
    onDisk = backendOnDisk(profile);
  } finally {
    process.off("SIGINT", interrupted).off("SIGTERM", interrupted);
    if (chrome) await kill(chrome.child).catch(() => {});
    await stopServer(server.child);
    rmSync(profile, { recursive: true, force: true });
    console.log(`crash: ${summary()}; backend on disk: ${onDisk}`);
  }
  assert.equal(onDisk, process.env.IDB_BACKEND || "leveldb", "the IndexedDB backend that wrote the profile");
  assert.deepEqual(pageErrors, [], "uncaught errors in the pages");
  assert.equal(losses.length, 0, `silent losses (seed ${SEED}):\n  ${losses.slice(0, QUOTED_LOSSES).join("\n  ")}`);
  assert.deepEqual(signalErrors, [], `open() reported data loss inconsistently (seed ${SEED})`);
  assert.deepEqual(handOff.errors.slice(0, QUOTED_LOSSES), [],
    `${handOff.errors.length} hand-off errors (seed ${SEED})`);
  assert.equal(drained, 0, `short-ttl records still stored after ${DRAIN_MS} ms of reaping (seed ${SEED})`);
});
