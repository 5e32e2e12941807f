// The soak: `SOAK_SECONDS` (default 600) of mixed writes, reads, deletes, expiry changes and
// reaping in TWO TABS of one Chromium (same origin, same database), checked against an exact
// model kept here in Node. Run by scripts/soak.sh after scripts/build.sh has filled www/pkg/; not
// part of scripts/test.sh (it takes ten minutes), and not a *.test.mjs under tests/page/, so
// `node --test tests/page/` never picks it up.
//
// Why: the page tests and the browser suite check each behaviour once, in a quiet database. What
// they cannot show is that the guarantees hold under a long, concurrent load: two tabs writing
// and reading the same database while the leader among them reaps every REAP_INTERVAL_MS (and both call reap()), entries expiring
// by the thousand, old records moved and range-deleted under the readers, and memory staying put.
//
// How: Node owns a seeded PRNG (SOAK_SEED, printed) and the model. Each round it sends each tab a
// batch (tests/soak/tab.mjs executes it and brackets every call with the page's Date.now(), the
// clock idb-ttl reads): two lanes of ops on the tab's own keys (tab A owns a0..a999, tab B
// b0..b999; a key belongs to one lane, and a lane runs its ops in order, so every key's history
// is sequential and the model exact) and a lane of cross-tab reads of the other tab's keys that
// the other tab does not write in that round. Both tabs run their batches at the same time.
// Every result is judged against the model with the call's [t0, t1]: an entry whose expiry is more
// than TOLERANCE_MS after t1 must be read back (exact version, value intact), one whose expiry is
// more than TOLERANCE_MS before t0 (or that was deleted) must not; in between either answer is
// accepted and counted as a boundary read. The read-modify-write verbs (add, replace, take, incr,
// update, expire with `only`; about a fifth of the mix) are judged the same way: the model says
// what each gives if the entry is live and if it is not, and the result must be one of those the
// window allows (it then tells the model which); incr over a live non-number must reject with a
// TypeError naming the key, and the incrementing updater over one throws its own marker, which
// the call must reject with (both counted as expected errors). At quiet points (no batch in flight) each tab's
// count() and keys() are checked against the model, and the JS heap (after a forced GC, over the
// DevTools protocol) and the wasm memory (stats().memoryBytes) of each tab are sampled.
//
// It prints the figures at the end (operations by kind and per second, expired reads, missing
// entries, wrong values, count checks, reaper removals, memory at warm-up vs end) and exits
// non-zero if any check failed, with the first failures in detail (op, key, window, model state,
// answer) and the seed to replay the op sequence.
//
//   SOAK_SECONDS=60 scripts/soak.sh          # or: node tests/soak/soak.mjs
//   env: SOAK_SECONDS (600), SOAK_SEED (random), SOAK_TOLERANCE_MS (50)

import { CHROMIUM_FULL, ROOT, READY_TIMEOUT_MS, withChromium } from "../page/harness.mjs";

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

/**
 * A non-negative number from the environment variable `name`, or `fallback` when unset. Exits
 * with a usage message on anything else.
 */
function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`soak: ${name}=${JSON.stringify(raw)} is not a non-negative number`);
    process.exit(2);
  }
  return n;
}

/** Length of the run, seconds. */
const DURATION_S = envNumber("SOAK_SECONDS", 600);
/** Seed of the op sequence (printed, so a run can be replayed). */
const SEED = envNumber("SOAK_SEED", Math.floor(Math.random() * 2 ** 32)) >>> 0;
/** Reads whose expiry lies within this many ms of the call may go either way. */
const TOLERANCE_MS = envNumber("SOAK_TOLERANCE_MS", 50);

/** The database both tabs open. */
const DB_NAME = "soak";
/** Keys each tab owns. */
const KEYS_PER_TAB = 1000;
/** Background reaper period (the leader tab runs the passes): short, so passes run all the time. */
const REAP_INTERVAL_MS = 500;
/** Store options of both tabs. */
const STORE_OPTIONS = { reapIntervalMs: REAP_INTERVAL_MS, timeoutMs: 10_000 };
/** Own-key lanes per tab and batch (run side by side in the tab, on disjoint keys). */
const LANES = 2;
/** Ops per own-key lane and batch. */
const OPS_PER_LANE = 10;
/** Cross-tab reads per batch (one more lane). */
const CROSS_READS = 6;
/** Share of the run before the warm-up memory sample. */
const WARMUP_FRACTION = 0.2;
/** Time between quiet points (count checks and memory samples): about 40 per run. */
const QUIET_EVERY_MS = Math.min(15_000, Math.max(3_000, (DURATION_S * 1000) / 40));
/** Longest a batch (or a quiet-point call) may take before the soak calls it a hang. */
const CALL_TIMEOUT_MS = 60_000;
/** Wasm memory may not grow after warm-up (it never shrinks, so growth is a leak or a new peak). */
const WASM_GROWTH_LIMIT_BYTES = 0;
/** JS heap after a forced GC may grow after warm-up by at most the larger of these. */
const HEAP_GROWTH_LIMIT_FRACTION = 0.2;
const HEAP_GROWTH_LIMIT_BYTES = 2 * 1024 * 1024;
/** Failures printed in detail (all are counted). */
const MAX_FAILURE_DETAILS = 25;

// ---------------------------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------------------------

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = mulberry32(SEED);
/** An integer in [lo, hi]. */
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
/** One element of `list`. */
const pick = (list) => list[Math.floor(rand() * list.length)];
/** `n` distinct elements of `list` (n <= list.length). */
function pickDistinct(list, n) {
  const out = new Set();
  while (out.size < n) out.add(pick(list));
  return [...out];
}
/** A name drawn from `[name, weight]` pairs. */
function weighted(table) {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let x = rand() * total;
  for (const [name, w] of table) {
    x -= w;
    if (x < 0) return name;
  }
  return table[table.length - 1][0];
}

/**
 * A time to live in seconds: 15% very short (0.05-0.5 s, so reads and writes keep landing on the
 * expiry boundary), the rest 0.5-20 s, log-uniform. Persistent entries come from other ops.
 */
function ttlSeconds() {
  if (rand() < 0.15) return Math.round((0.05 + rand() * 0.45) * 1000) / 1000;
  return Math.round(0.5 * Math.exp(rand() * Math.log(40)) * 1000) / 1000;
}

/** Value padding in characters: mostly under 2 kB, 1% 20-100 kB (IndexedDB stores big values apart). */
const padLength = () => (rand() < 0.01 ? int(20_000, 100_000) : int(0, 2_000));

// ---------------------------------------------------------------------------------------------
// Model
// ---------------------------------------------------------------------------------------------

/**
 * What the model knows of one key: `present` (a record was written and not deleted), its value's
 * version `v` and padding `n`, and its expiry as an interval [lo, hi] of Unix ms (`Infinity` for
 * none). The interval is exact for `expiresAt` writes and as wide as the call for `ttl` writes
 * (idb-ttl reads its clock once during the call), and narrowed by expiresAt()/ttl() answers.
 */
class KeyState {
  constructor(key, tab) {
    this.key = key;
    this.tab = tab;
    this.present = false;
    // What is stored: "obj" (a set/add/replace value: version `v`, padding `n`), "num" (`num`,
    // from incr/update) or "arr" (`arr`, from update appending).
    this.kind = "obj";
    this.v = 0;
    this.n = 0;
    this.num = 0;
    this.arr = null;
    this.lo = Infinity;
    this.hi = Infinity;
    // The expiry is [lo, hi] OR none (hi is then Infinity): an incr/update whose result did not
    // tell a live entry (expiry kept) from a new one (no expiry) apart.
    this.unsure = false;
  }

  /** A copy for failure reports. */
  snapshot() {
    const { present, kind, v, n, num, arr, lo, hi, unsure } = this;
    return { present, kind, ...(kind === "obj" ? { v, n } : kind === "num" ? { num } : { arr }), lo, hi, ...(unsure ? { unsure } : {}) };
  }

  /** Stores version `v` (padding `n`) expiring within [lo, hi]. */
  write(v, n, lo, hi) {
    Object.assign(this, { present: true, kind: "obj", v, n, lo, hi, unsure: false });
  }

  /** Stores a number or an array (`data`: `{ num }` or `{ arr }`) expiring within [lo, hi]. */
  writeData(data, lo, hi, unsure = false) {
    if (data.num !== undefined) Object.assign(this, { present: true, kind: "num", num: data.num, lo, hi, unsure });
    else Object.assign(this, { present: true, kind: "arr", arr: data.arr, lo, hi, unsure });
  }

  /** The stored value keeps, the expiry becomes [lo, hi]. */
  setExpiry(lo, hi) {
    Object.assign(this, { lo, hi, unsure: false });
  }

  /** The record is known to have expired by `t` (a call at or before `t` found it dead). */
  deadBy(t) {
    this.hi = Math.min(this.hi, t);
    this.unsure = false;
  }

  /** The record is known to have been live at a clock reading at or after `t`. */
  liveAfter(t) {
    this.lo = Math.max(this.lo, t);
  }

  /** The key has no record. */
  remove() {
    this.present = false;
    this.lo = this.hi = Infinity;
    this.unsure = false;
  }
}

const LIVE = "live";
const DEAD = "dead";
const EDGE = "edge";

/**
 * Whether `s` is live for a call made within [t0, t1]: LIVE (expiry more than TOLERANCE_MS after
 * t1, or none), DEAD (no record, or expiry more than TOLERANCE_MS before t0), else EDGE.
 */
function liveness(s, t0, t1) {
  if (!s.present) return DEAD;
  if (s.lo > t1 + TOLERANCE_MS) return LIVE;
  if (s.hi <= t0 - TOLERANCE_MS) return DEAD;
  return EDGE;
}

/** The expiry of a write with options `opts` made within [t0, t1], with `at` as the tab computed it. */
function writtenExpiry(opts, at, t0, t1) {
  if (!opts) return { lo: Infinity, hi: Infinity };
  if (opts.ttl !== undefined) return { lo: t0 + opts.ttl * 1000, hi: t1 + opts.ttl * 1000 };
  return { lo: at, hi: at };
}

/**
 * Applies a write of version `v` with `opts` (plain, `{ ttl }` or `{ expiresAtIn }`) made within
 * [t0, t1] to `s`. An expiry at or before the call's clock stores nothing and removes the key; one
 * inside the call's window may have gone either way, which the model keeps as a record expiring
 * then (after t1 the two cannot be told apart).
 */
function applyWrite(s, v, n, opts, at, t0, t1) {
  const { lo, hi } = writtenExpiry(opts, at, t0, t1);
  if (hi <= t0 || (opts && opts.ttl === 0)) s.remove();
  else s.write(v, n, lo, hi);
}

/** Applies an expiry change (`expire`) with `opts` made within [t0, t1] to `s`, value kept. */
function applyExpiry(s, opts, at, t0, t1) {
  const { lo, hi } = writtenExpiry(opts, at, t0, t1);
  if (hi <= t0 || (opts && opts.ttl === 0)) s.remove();
  else s.setExpiry(lo, hi);
}

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

const figures = {
  ops: new Map(),          // op label -> count
  crossReads: 0,
  boundaryReads: 0,        // answers inside the tolerance window (accepted either way)
  failures: new Map(),     // kind -> count
  details: [],
  countChecks: 0,
  countChecksFailed: 0,
  countChecksAtBoundary: 0,
  countCheckMaxBoundary: 0,  // most entries at the boundary in one count check
  reapCalls: 0,
  reapCallRemoved: 0,
  reapedByTab: { A: 0, B: 0 },
  rounds: 0,
  outcomes: new Map(),     // "verb: outcome" -> count (add true/false, incr TypeError, ...)
  expectedErrors: 0,       // incr on a live non-number (TypeError) and throwing updaters, as predicted
};

/** Counts one outcome of a read-modify-write verb. */
const countOutcome = (label) => figures.outcomes.set(label, (figures.outcomes.get(label) || 0) + 1);

/** Counts one executed op under `label`. */
const countOp = (label, n = 1) => figures.ops.set(label, (figures.ops.get(label) || 0) + n);

/** Records a failed check of kind `kind` ("expired read", "missing entry", ...) with its details. */
function fail(kind, detail) {
  figures.failures.set(kind, (figures.failures.get(kind) || 0) + 1);
  if (figures.details.length < MAX_FAILURE_DETAILS) figures.details.push({ kind, ...detail });
}

const failureCount = (kind) => figures.failures.get(kind) || 0;
const totalFailures = () => [...figures.failures.values()].reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------------------------------------
// Tabs and batches
// ---------------------------------------------------------------------------------------------

/**
 * One tab: its page, DevTools session, key names, model states (by key) and the keys of each
 * lane.
 */
class Tab {
  constructor(name, prefix, page, cdp) {
    this.name = name;
    this.page = page;
    this.cdp = cdp;
    this.keys = Array.from({ length: KEYS_PER_TAB }, (_, i) => `${prefix}${i}`);
    this.states = new Map(this.keys.map((k) => [k, new KeyState(k, name)]));
    this.laneKeys = Array.from({ length: LANES }, (_, l) => this.keys.filter((_, i) => i % LANES === l));
  }
}

/** Next value version (unique over the whole run). */
let nextVersion = 1;

/** The op mix on a tab's own keys: [name, weight]. */
const OWN_MIX = [
  ["get", 22], ["has", 5], ["getMany", 5], ["ttl", 4], ["expiresAt", 4],
  ["set:ttl", 16], ["set:expiresAt", 5], ["set:plain", 3], ["set:keepTtl", 3], ["set:ttl0", 0.5],
  ["set:past", 0.5], ["setMany", 4], ["delete", 6], ["deleteMany", 2], ["expire", 6],
  ["expire:now", 1], ["persist", 3], ["reap", 0.3],
  // The read-modify-write verbs: about 20% of the mix.
  ["add:ttl", 3], ["add:plain", 1], ["replace:ttl", 1.5], ["replace:keepTtl", 1.5], ["replace:plain", 1],
  ["take", 3], ["incr:ttl", 4], ["incr:plain", 1], ["update:append", 2], ["update:incr", 1.5],
  ["update:delete", 0.5], ["expire:noExpiry", 1], ["expire:hasExpiry", 1], ["expire:later", 1],
  ["expire:sooner", 1],
];

/** `by` of incr and of the incrementing updater: negative and fractional too. */
const INCR_BY = [1, 1, 1, 2, 10, -1, 0.5, -0.25];

/** The cross-tab read mix: [name, weight]. */
const CROSS_MIX = [["get", 5], ["has", 2], ["getMany", 2], ["ttl", 1], ["expiresAt", 1]];

/** Expiry options for a write: `{ ttl }` half the time, else `{ expiresAtIn, form }`. */
function expiryOptions() {
  const seconds = ttlSeconds();
  if (rand() < 0.5) return { ttl: seconds };
  return { expiresAtIn: Math.round(seconds * 1000), form: pick(["secs", "date", "iso"]) };
}

/** One op on the keys `keys` of one lane, as sent to the tab (plus `label` for the figures). */
function ownOp(keys) {
  const label = weighted(OWN_MIX);
  const key = pick(keys);
  const write = (opts) => ({ op: "set", key, v: nextVersion++, n: padLength(), opts });
  switch (label) {
    case "get": case "has": case "ttl": case "expiresAt": return { label, op: label, key };
    case "getMany": return { label, op: "getMany", keys: pickDistinct(keys, int(2, 8)) };
    case "set:ttl": return { label, ...write({ ttl: ttlSeconds() }) };
    case "set:expiresAt": return { label, ...write({ expiresAtIn: Math.round(ttlSeconds() * 1000), form: pick(["secs", "date", "iso"]) }) };
    case "set:plain": return { label, ...write(undefined) };
    case "set:keepTtl": return { label, ...write({ keepTtl: true }) };
    case "set:ttl0": return { label, ...write({ ttl: 0 }) };
    case "set:past": return { label, ...write({ expiresAtIn: -int(1_000, 60_000), form: pick(["secs", "date", "iso"]) }) };
    case "setMany": {
      const chosen = pickDistinct(keys, int(2, 8));
      // One time in ten the same key twice: the last write wins.
      if (rand() < 0.1) chosen.push(chosen[0]);
      const entries = chosen.map((k) => ({
        key: k, v: nextVersion++, n: padLength(), opts: rand() < 0.15 ? undefined : expiryOptions(),
      }));
      return { label, op: "setMany", entries };
    }
    case "delete": return { label, op: "delete", key };
    case "deleteMany": return { label, op: "deleteMany", keys: pickDistinct(keys, int(2, 5)) };
    case "expire": return { label, op: "expire", key, opts: expiryOptions() };
    case "expire:now": return { label, op: "expire", key, opts: { ttl: 0 } };
    case "persist": return { label, op: "persist", key };
    case "reap": return { label, op: "reap" };
    case "add:ttl": return { label, op: "add", key, v: nextVersion++, n: padLength(), opts: expiryOptions() };
    case "add:plain": return { label, op: "add", key, v: nextVersion++, n: padLength() };
    case "replace:ttl": return { label, op: "replace", key, v: nextVersion++, n: padLength(), opts: expiryOptions() };
    case "replace:keepTtl": return { label, op: "replace", key, v: nextVersion++, n: padLength(), opts: { keepTtl: true } };
    case "replace:plain": return { label, op: "replace", key, v: nextVersion++, n: padLength() };
    case "take": return { label, op: "take", key };
    // incr and the incrementing updater go 70% to the lane's first 60 keys, so counters build up
    // there (other ops write objects over them: incr then meets numbers, objects, arrays and nothing).
    case "incr:ttl": return { label, op: "incr", key: counterKey(keys), by: pick(INCR_BY), opts: expiryOptions() };
    case "incr:plain": return { label, op: "incr", key: counterKey(keys), by: pick(INCR_BY) };
    case "update:append": return { label, op: "update", how: "append", key, x: `u${nextVersion++}`, opts: rand() < 0.5 ? expiryOptions() : undefined };
    case "update:incr": return { label, op: "update", how: "incr", key: counterKey(keys), by: pick(INCR_BY), opts: rand() < 0.5 ? expiryOptions() : undefined };
    case "update:delete": return { label, op: "update", how: "delete", key };
    case "expire:noExpiry": case "expire:hasExpiry": case "expire:later": case "expire:sooner":
      return { label, op: "expireIf", key, only: label.slice(7), opts: expiryOptions() };
    default: throw new Error(`no op ${label}`);
  }
}

/** A key for incr: 70% one of the lane's first 60 keys. */
const counterKey = (keys) => (rand() < 0.7 ? pick(keys.slice(0, 60)) : pick(keys));

/** Keys an op writes (reads write nothing). */
function writtenKeys(op) {
  switch (op.op) {
    case "set": case "delete": case "expire": case "persist": return [op.key];
    case "add": case "replace": case "take": case "incr": case "update": case "expireIf": return [op.key];
    case "setMany": return op.entries.map((e) => e.key);
    case "deleteMany": return op.keys;
    default: return [];
  }
}

/** A cross-tab read of `keys` (the other tab's keys it does not write this round). */
function crossOp(keys) {
  const label = weighted(CROSS_MIX);
  if (label === "getMany") return { label: "cross:getMany", op: "getMany", keys: pickDistinct(keys, Math.min(keys.length, int(2, 6))) };
  return { label: `cross:${label}`, op: label, key: pick(keys) };
}

/** The own-key lanes of one batch for `tab`. */
const ownLanes = (tab) => tab.laneKeys.map((keys) => Array.from({ length: OPS_PER_LANE }, () => ownOp(keys)));

/** The cross-read lane against `other`, whose own lanes this round are `otherLanes`. */
function crossLane(other, otherLanes) {
  const busy = new Set(otherLanes.flat().flatMap(writtenKeys));
  const quiet = other.keys.filter((k) => !busy.has(k));
  return Array.from({ length: CROSS_READS }, () => crossOp(quiet));
}

/** `promise`, or a rejection naming `what` once `ms` have passed. */
function bounded(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The ops of `lanes` as the tab takes them (without `label`). */
const wire = (lanes) => lanes.map((ops) => ops.map(({ label, ...op }) => op));

// ---------------------------------------------------------------------------------------------
// Judging results
// ---------------------------------------------------------------------------------------------

/** Report context for a failure. */
const where = (tab, op, res, s) => ({
  tab: tab.name, op: op.op, label: op.label, key: s && s.key, t0: res.t0, t1: res.t1,
  model: s && s.snapshot(), opts: op.opts,
});

/** Judges one value read back (`get`, an element of `getMany`) of state `s`. */
function judgeValue(tab, op, res, s, got) {
  const l = liveness(s, res.t0, res.t1);
  if (got === "U") {
    if (l === LIVE) fail("missing entry", { ...where(tab, op, res, s), got });
    else if (l === EDGE) figures.boundaryReads++;
    return;
  }
  const isObj = got && got.num === undefined && got.arr === undefined;
  if (!got || got.bad !== undefined || (isObj && (!got.ok || got.k !== s.key))) {
    fail("wrong value", { ...where(tab, op, res, s), got, why: "not the value written (or damaged)" });
    return;
  }
  if (l === DEAD) {
    fail(s.present ? "expired read" : "wrong value", {
      ...where(tab, op, res, s), got, why: s.present ? "read after its expiry" : "read after delete or overwrite-to-past",
    });
    return;
  }
  const why = valueMismatch(s, got);
  if (why) {
    fail("wrong value", { ...where(tab, op, res, s), got, why });
    return;
  }
  if (l === EDGE) figures.boundaryReads++;
}

/** Why `got` (a described value) is not the value `s` holds, or null if it is. */
function valueMismatch(s, got) {
  if (s.kind === "obj") {
    if (got.num !== undefined || got.arr !== undefined) return `got ${JSON.stringify(got)}, model holds version ${s.v}`;
    return got.v !== s.v || got.n !== s.n ? `version ${got.v}, model ${s.v}` : null;
  }
  if (s.kind === "num") return got.num === s.num ? null : `got ${JSON.stringify(got)}, model holds the number ${s.num}`;
  return got.arr !== undefined && JSON.stringify(got.arr) === JSON.stringify(s.arr) ? null : `got ${JSON.stringify(got)}, model holds ${JSON.stringify(s.arr)}`;
}

/** Judges a liveness answer (`has`; also used for expiry reads) of state `s`: `live` is what the store said. */
function judgeLive(tab, op, res, s, live) {
  const l = liveness(s, res.t0, res.t1);
  if (live && l === DEAD) fail(s.present ? "expired read" : "wrong value", { ...where(tab, op, res, s), got: res.r });
  else if (!live && l === LIVE) fail("missing entry", { ...where(tab, op, res, s), got: res.r });
  else if (l === EDGE) figures.boundaryReads++;
  return l;
}

/**
 * Judges `expiresAt(key)` / `ttl(key)`: liveness as `has`, then the expiry itself against the
 * model (none vs some; a number inside the interval, 1 ms slack for float rounding), and narrows
 * the interval to what the answer proves.
 */
function judgeExpiry(tab, op, res, s) {
  const r = res.r;
  judgeLive(tab, op, res, s, r !== "U");
  if (r === "U" || !s.present) return;
  if (r === null) {
    if (s.unsure) s.setExpiry(Infinity, Infinity);
    else if (s.lo !== Infinity) fail("wrong expiry", { ...where(tab, op, res, s), got: r, why: "no expiry, model has one" });
    return;
  }
  if (s.unsure) {
    figures.boundaryReads++;
    const [lo, hi] = op.op === "expiresAt" ? [r * 1000, r * 1000] : [res.t0 + r * 1000, res.t1 + r * 1000];
    if (hi < s.lo - 1) fail("wrong expiry", { ...where(tab, op, res, s), got: r, why: `implies expiry in [${lo}, ${hi}]` });
    else s.setExpiry(Math.max(s.lo, lo), hi);
    return;
  }
  if (typeof r !== "number" || s.lo === Infinity) {
    fail("wrong expiry", { ...where(tab, op, res, s), got: r, why: "an expiry, model has none" });
    return;
  }
  // expiresAt: Unix seconds. ttl: seconds left at the call's clock, somewhere in [t0, t1].
  const [lo, hi] = op.op === "expiresAt" ? [r * 1000, r * 1000] : [res.t0 + r * 1000, res.t1 + r * 1000];
  if (hi < s.lo - 1 || lo > s.hi + 1 || (op.op === "ttl" && r <= 0)) {
    fail("wrong expiry", { ...where(tab, op, res, s), got: r, why: `implies expiry in [${lo}, ${hi}]` });
    return;
  }
  s.lo = Math.max(s.lo, lo);
  s.hi = Math.min(s.hi, hi);
}

/**
 * Judges the results of one batch of `tab` and applies its writes to the model. `statesOf(key)`
 * finds a key's state (own or the other tab's, for cross reads).
 */
function judgeBatch(tab, lanes, results, statesOf) {
  lanes.forEach((ops, li) => ops.forEach((op, oi) => {
    const res = results[li][oi];
    countOp(op.label);
    if (op.label.startsWith("cross:")) figures.crossReads++;
    if (res.err && op.op !== "incr") {
      fail("rejected call", { tab: tab.name, op: op.op, label: op.label, key: op.key ?? op.keys, err: res.err, t0: res.t0, t1: res.t1 });
      return;
    }
    judgeOp(tab, op, res, statesOf);
  }));
}

/** Judges one op's result and applies it to the model. */
function judgeOp(tab, op, res, statesOf) {
  const { t0, t1, r } = res;
  switch (op.op) {
    case "get": judgeValue(tab, op, res, statesOf(op.key), r); break;
    case "getMany": op.keys.forEach((k, i) => judgeValue(tab, op, res, statesOf(k), r[i])); break;
    case "has": judgeLive(tab, op, res, statesOf(op.key), r); break;
    case "ttl": case "expiresAt": judgeExpiry(tab, op, res, statesOf(op.key)); break;
    case "set": {
      const s = statesOf(op.key);
      if (op.opts && op.opts.keepTtl) judgeKeepTtl(tab, op, res, s);
      else applyWrite(s, op.v, op.n, op.opts, res.at, t0, t1);
      break;
    }
    case "setMany":
      op.entries.forEach((e, i) => applyWrite(statesOf(e.key), e.v, e.n, e.opts, res.at[i], t0, t1));
      break;
    case "delete": {
      const s = statesOf(op.key);
      judgeLive(tab, op, res, s, r);
      s.remove();
      break;
    }
    case "deleteMany": {
      const states = op.keys.map(statesOf);
      const ls = states.map((s) => liveness(s, t0, t1));
      const live = ls.filter((l) => l === LIVE).length;
      const edge = ls.filter((l) => l === EDGE).length;
      if (r < live) fail("missing entry", { ...where(tab, op, res, null), keys: op.keys, got: r, why: `${live} live, ${edge} at the boundary` });
      else if (r > live + edge) fail("expired read", { ...where(tab, op, res, null), keys: op.keys, got: r, why: `${live} live, ${edge} at the boundary` });
      else if (edge > 0) figures.boundaryReads++;
      states.forEach((s) => s.remove());
      break;
    }
    case "expire": {
      const s = statesOf(op.key);
      judgeLive(tab, op, res, s, r);
      if (!s.present) break;
      if (r) applyExpiry(s, op.opts, res.at, t0, t1);
      else s.deadBy(t1); // it had expired by then
      break;
    }
    case "persist": {
      const s = statesOf(op.key);
      const l = liveness(s, t0, t1);
      if (s.present && s.lo === Infinity && l === LIVE) {
        if (r) fail("wrong expiry", { ...where(tab, op, res, s), got: r, why: "persist() true on an entry without expiry" });
        break;
      }
      if (s.present && s.unsure && !r && l === LIVE) {
        figures.boundaryReads++;
        s.setExpiry(Infinity, Infinity); // it had none
        break;
      }
      judgeLive(tab, op, res, s, r);
      if (!s.present) break;
      if (r) s.setExpiry(Infinity, Infinity);
      else s.deadBy(t1);
      break;
    }
    case "reap":
      figures.reapCalls++;
      figures.reapCallRemoved += r.removed;
      break;
    case "add": {
      // true: nothing live was there (judged as has() answering false); false: something was.
      const s = statesOf(op.key);
      judgeLive(tab, op, res, s, !r);
      countOutcome(`add: ${r}`);
      if (r) applyWrite(s, op.v, op.n, op.opts, res.at, t0, t1);
      else if (s.present) s.liveAfter(t0);
      break;
    }
    case "replace": {
      const s = statesOf(op.key);
      judgeLive(tab, op, res, s, r);
      countOutcome(`replace: ${r}`);
      if (!s.present) break;
      if (!r) s.deadBy(t1);
      else if (op.opts && op.opts.keepTtl) {
        // The live entry's expiry stays (so it was later than the call's clock).
        const { lo, hi, unsure } = s;
        s.write(op.v, op.n, Math.max(lo, t0), hi);
        s.unsure = unsure;
      } else applyWrite(s, op.v, op.n, op.opts, res.at, t0, t1);
      break;
    }
    case "take": {
      const s = statesOf(op.key);
      judgeValue(tab, op, res, s, r);
      countOutcome(`take: ${r === "U" ? "undefined" : "value"}`);
      if (r !== "U") s.remove();
      else if (s.present) s.deadBy(t1);
      break;
    }
    case "incr": case "update": judgeModify(tab, op, res, statesOf(op.key)); break;
    case "expireIf": judgeExpireIf(tab, op, res, statesOf(op.key)); break;
    default: throw new Error(`no judge for ${op.op}`);
  }
}

/**
 * What `op` (incr, or update with its updater) makes of current value `cur` (a KeyState, or
 * undefined for none): `{ num }`, `{ arr }`, "U" (deleted), `{ threw: true }` (the updater threw
 * its marker) or `{ typeError: true }` (incr over a non-number). Mirrors tests/soak/tab.mjs.
 */
function predictModify(op, cur) {
  if (op.op === "incr") {
    if (!cur) return { num: op.by };
    return cur.kind === "num" ? { num: cur.num + op.by } : { typeError: true };
  }
  if (op.how === "delete") return "U";
  if (op.how === "incr") {
    if (!cur) return { num: op.by };
    return cur.kind === "num" ? { num: cur.num + op.by } : { threw: true };
  }
  if (!cur) return { arr: [op.x] };
  if (cur.kind === "arr") return { arr: cur.arr.concat([op.x]).slice(-12) };
  if (cur.kind === "num") return { arr: [`n${cur.num}`, op.x] };
  return { arr: [`v${cur.v}`, op.x] };
}

/** Whether result `got` of `op` (as the tab reported it) is prediction `p`. */
function sameOutcome(op, res, got, p) {
  if (p === "U") return got === "U" && !res.err;
  if (p.typeError) return typeof res.err === "string" && res.err.startsWith("TypeError: ") && res.err.includes(op.key);
  if (res.err || got === "U" || got === undefined) return false;
  if (p.threw) return got.threw === true;
  if (p.num !== undefined) return op.op === "incr" ? got === p.num : got.num === p.num;
  return got.arr !== undefined && JSON.stringify(got.arr) === JSON.stringify(p.arr);
}

/**
 * Judges `incr` and `update` of state `s` within [t0, t1]: the result must be what the op makes
 * of the live value (if the entry may be live then) or of nothing (if it may be dead); the
 * result tells which it was. Expiry: incr keeps a live entry's and gives its options to a new
 * one; update writes its options if given, else keeps a live entry's (a new one: none).
 */
function judgeModify(tab, op, res, s) {
  const { t0, t1 } = res;
  const l = liveness(s, t0, t1);
  const got = res.r;
  const pl = s.present && l !== DEAD ? predictModify(op, s) : null;
  const pd = l !== LIVE ? predictModify(op, undefined) : null;
  const mL = pl !== null && sameOutcome(op, res, got, pl);
  const mD = pd !== null && sameOutcome(op, res, got, pd);
  const verb = op.op === "incr" ? "incr" : `update(${op.how})`;
  if (op.op === "update" && !res.err && !(res.calls >= 1)) fail("wrong result", { ...where(tab, op, res, s), got, why: `updater ran ${res.calls} times` });
  if (!mL && !mD) {
    const kind = res.err && !(pl && pl.typeError) ? "rejected call" : "wrong result";
    fail(kind, { ...where(tab, op, res, s), by: op.by, how: op.how, got: res.err || got, expected: { ifLive: pl, ifDead: pd } });
    return;
  }
  if (l === EDGE) figures.boundaryReads++;
  const p = mL ? pl : pd;
  countOutcome(`${verb}: ${p === "U" ? "deleted" : p.typeError ? "TypeError (live non-number)" : p.threw ? "updater threw" : mL && mD ? "either" : mL ? "live" : "new"}`);
  if (p === "U") { s.remove(); return; }
  if (p.typeError || p.threw) {
    figures.expectedErrors++;
    s.liveAfter(t0); // nothing written; the entry was live
    return;
  }
  const data = p.num !== undefined ? { num: p.num } : { arr: p.arr };
  const n = op.opts ? writtenExpiry(op.opts, res.at, t0, t1) : null;
  const newExp = op.op === "update" && n ? n : { lo: Infinity, hi: Infinity };
  // A new entry: incr's / update's options, or none.
  const fresh = n || { lo: Infinity, hi: Infinity };
  // A live entry: incr keeps its expiry, update takes the options if given.
  const kept = { lo: Math.max(s.lo, t0), hi: s.hi, unsure: s.unsure };
  const liveExp = op.op === "update" && n ? { ...newExp, unsure: false } : kept;
  let e;
  if (mL && mD) {
    // Either way: the union of both (an unknown "none or [lo, hi]" when one is none).
    const noneOne = liveExp.lo === Infinity || fresh.lo === Infinity || liveExp.unsure;
    const finite = [liveExp, fresh].filter((x) => x.lo !== Infinity);
    e = { lo: Math.min(...finite.map((x) => x.lo)), hi: noneOne ? Infinity : Math.max(...finite.map((x) => x.hi)), unsure: noneOne && finite.length > 0 };
    if (!finite.length) e = { lo: Infinity, hi: Infinity, unsure: false };
  } else e = mL ? liveExp : { ...fresh, unsure: false };
  if (e.hi <= t0) s.remove();
  else s.writeData(data, e.lo, e.hi, !!e.unsure);
}

/**
 * Judges `expire(key, { ..., only })`: true only if the entry may have been live and the
 * condition may have held (current expiry E from the model, new expiry N from the call; an
 * overlap of the two within 1 ms leaves "later"/"sooner" open), false only if it may have been
 * dead or the condition may have failed.
 */
function judgeExpireIf(tab, op, res, s) {
  const { t0, t1, r } = res;
  const l = liveness(s, t0, t1);
  const N = writtenExpiry(op.opts, res.at, t0, t1);
  let cond = null;
  if (s.present && !s.unsure) {
    const none = s.lo === Infinity;
    switch (op.only) {
      case "noExpiry": cond = none; break;
      case "hasExpiry": cond = !none; break;
      case "later": cond = none ? false : N.lo > s.hi + 1 ? true : N.hi < s.lo - 1 ? false : null; break;
      case "sooner": cond = none ? true : N.hi < s.lo - 1 ? true : N.lo > s.hi + 1 ? false : null; break;
      default: throw new Error(`no condition ${op.only}`);
    }
  }
  const canTrue = l !== DEAD && cond !== false;
  const canFalse = l !== LIVE || cond !== true;
  countOutcome(`expire(${op.only}): ${r}`);
  if (r && !canTrue) {
    fail(l === DEAD ? (s.present ? "expired read" : "wrong value") : "wrong result", { ...where(tab, op, res, s), only: op.only, got: r, N, why: l === DEAD ? "changed a dead entry" : "the condition did not hold" });
    return;
  }
  if (!r && !canFalse) {
    fail("wrong result", { ...where(tab, op, res, s), only: op.only, got: r, N, why: "live and the condition held, yet false" });
    return;
  }
  if (l === EDGE || cond === null) figures.boundaryReads++;
  if (!s.present) return;
  if (r) applyExpiry(s, op.opts, res.at, t0, t1);
  else if (cond === true) s.deadBy(t1);
}

/**
 * `set(key, value, { keepTtl: true })`, observed at once with expiresAt(key) in [o0, o1]. Allowed:
 * the old expiry kept (the old entry was live at the call's clock) or none (it was missing or had
 * expired: a new key); at the boundary either. The observation decides which, and must fit it.
 */
function judgeKeepTtl(tab, op, res, s) {
  const l = liveness(s, res.t0, res.t1);
  const keptOk = l !== DEAD;
  const newOk = l !== LIVE;
  const old = { lo: s.lo, hi: s.hi };
  const obs = res.obs;
  const detail = () => ({ ...where(tab, op, res, s), obs, o0: res.o0, o1: res.o1 });
  if (obs === null) {
    // No expiry: a new key, or the old one had none.
    if (newOk || (keptOk && (old.lo === Infinity || s.unsure))) {
      if (l === EDGE) figures.boundaryReads++;
      s.write(op.v, op.n, Infinity, Infinity);
    } else fail("wrong expiry", { ...detail(), why: "keepTtl dropped a live entry's expiry" });
  } else if (obs === "U") {
    // Gone already: only possible if the old expiry was kept and has passed by o1.
    if (keptOk && old.lo !== Infinity && old.lo <= res.o1 + TOLERANCE_MS) {
      figures.boundaryReads++;
      s.write(op.v, op.n, old.lo, Math.min(old.hi, res.o1));
    } else fail(l === LIVE ? "missing entry" : "wrong expiry", { ...detail(), why: "entry gone right after a keepTtl set" });
  } else if (keptOk && old.lo !== Infinity && obs * 1000 >= old.lo - 1 && obs * 1000 <= old.hi + 1) {
    if (l === EDGE) figures.boundaryReads++;
    s.write(op.v, op.n, obs * 1000, obs * 1000);
  } else {
    fail(l === DEAD ? "expired read" : "wrong expiry", { ...detail(), why: "keepTtl stored an expiry the old entry did not have" });
  }
}

// ---------------------------------------------------------------------------------------------
// Quiet points: count checks and memory samples
// ---------------------------------------------------------------------------------------------

/** Checks `tab`'s count() and keys() against the model of both tabs' keys. */
async function census(tab, allStates) {
  const c = await bounded(tab.page.evaluate(() => window.soak.census()), CALL_TIMEOUT_MS, `tab ${tab.name} census`);
  figures.countChecks++;
  let live = 0;
  let edge = 0;
  for (const s of allStates) {
    const l = liveness(s, c.c0, c.c1);
    if (l === LIVE) live++;
    else if (l === EDGE) edge++;
  }
  const problems = [];
  if (c.count < live || c.count > live + edge) problems.push(`count() = ${c.count}, model: ${live} live + ${edge} at the boundary`);
  const listed = new Set(c.keys);
  if (listed.size !== c.keys.length) problems.push("keys() lists a key twice");
  for (let i = 1; i < c.keys.length; i++) {
    if (!(c.keys[i - 1] < c.keys[i])) { problems.push(`keys() out of order at ${i}: ${c.keys[i - 1]}, ${c.keys[i]}`); break; }
  }
  const expiredListed = [];
  const missing = [];
  let boundary = 0;
  const byKey = new Map(allStates.map((s) => [s.key, s]));
  for (const k of c.keys) {
    const s = byKey.get(k);
    const l = s ? liveness(s, c.k0, c.k1) : DEAD;
    if (l === DEAD) expiredListed.push({ key: k, model: s && s.snapshot() });
    else if (l === EDGE) boundary++;
  }
  for (const s of allStates) {
    if (!listed.has(s.key) && liveness(s, c.k0, c.k1) === LIVE) missing.push({ key: s.key, model: s.snapshot() });
  }
  if (expiredListed.length) problems.push(`keys() lists ${expiredListed.length} dead keys, e.g. ${JSON.stringify(expiredListed.slice(0, 3))}`);
  if (missing.length) problems.push(`keys() misses ${missing.length} live keys, e.g. ${JSON.stringify(missing.slice(0, 3))}`);
  if (edge > 0 || boundary > 0) figures.countChecksAtBoundary++;
  figures.countCheckMaxBoundary = Math.max(figures.countCheckMaxBoundary, edge);
  if (problems.length) {
    figures.countChecksFailed++;
    fail("count check", { tab: tab.name, c0: c.c0, c1: c.c1, k1: c.k1, problems });
  }
  return { count: c.count, live, edge };
}

/** Each tab's JS heap after a forced GC (DevTools protocol) and wasm memory, in bytes. */
async function memorySample(tabs) {
  const out = {};
  for (const tab of tabs) {
    await bounded(tab.cdp.send("HeapProfiler.collectGarbage"), CALL_TIMEOUT_MS, `tab ${tab.name} GC`);
    const heap = await bounded(tab.cdp.send("Runtime.getHeapUsage"), CALL_TIMEOUT_MS, `tab ${tab.name} heap`);
    const stats = await bounded(tab.page.evaluate(() => window.soak.stats()), CALL_TIMEOUT_MS, `tab ${tab.name} stats`);
    out[tab.name] = { heap: heap.usedSize, wasm: stats.memoryBytes, stats };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------------------------

/** Bytes as "1.13 MB"; wasm memory also in 64 KiB pages. */
const MB = (b) => `${(b / 1024 / 1024).toFixed(2)} MB`;
const signedMB = (b) => `${b >= 0 ? "+" : "-"}${(Math.abs(b) / 1024 / 1024).toFixed(2)} MB`;
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

/** Least-squares slope of `ys` against `xs` (per unit of x). */
function slope(xs, ys) {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) { num += (xs[i] - mx) * (ys[i] - my); den += (xs[i] - mx) ** 2; }
  return den === 0 ? 0 : num / den;
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

/**
 * Opens the soak page in a new tab of `context` (served at `url`), waits (bounded) for the
 * library, opens the store, and returns a `Tab`. Page errors and crashes go to `pageErrors`.
 */
async function openTab(context, url, name, prefix, pageErrors) {
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(`tab ${name}: ${e.message}`));
  page.on("crash", () => pageErrors.push(`tab ${name}: the page crashed`));
  await page.goto(new URL("tests/soak/tab.html", url).href);
  await page.waitForSelector("html[data-state]", { state: "attached", timeout: READY_TIMEOUT_MS });
  if ((await page.getAttribute("html", "data-state")) !== "ready") {
    throw new Error(`tab ${name} did not load the library: ${await page.getAttribute("html", "data-error")}`);
  }
  await bounded(page.evaluate(([n, o]) => window.soak.open(n, o), [DB_NAME, STORE_OPTIONS]), CALL_TIMEOUT_MS, `tab ${name} open`);
  const cdp = await context.newCDPSession(page);
  return new Tab(name, prefix, page, cdp);
}

async function main() {
  console.log(`soak: ${DURATION_S} s, seed ${SEED} (SOAK_SEED=${SEED} replays the op sequence, not its timing), 2 tabs x ${KEYS_PER_TAB} keys, ` +
    `database "${DB_NAME}", reapIntervalMs ${REAP_INTERVAL_MS}, tolerance ${TOLERANCE_MS} ms, quiet point every ${QUIET_EVERY_MS / 1000} s`);
  const pageErrors = [];
  let result;
  await withChromium(ROOT, async ({ context, url }) => {
    const tabs = [];
    try {
      tabs.push(await openTab(context, url, "A", "a", pageErrors));
      tabs.push(await openTab(context, url, "B", "b", pageErrors));
      result = await soak(tabs, pageErrors);
    } finally {
      for (const tab of tabs) await tab.page.evaluate(() => window.soak.close()).catch(() => {});
    }
  }, { executablePath: CHROMIUM_FULL });
  return { ...result, pageErrors };
}

/** Runs the rounds and quiet points for DURATION_S; returns the memory samples and timings. */
async function soak(tabs, pageErrors) {
  const [A, B] = tabs;
  const allStates = [...A.states.values(), ...B.states.values()];
  const stateOf = (key) => A.states.get(key) || B.states.get(key);
  const samples = [];
  const start = Date.now();
  const end = start + DURATION_S * 1000;
  const warmAt = start + DURATION_S * 1000 * WARMUP_FRACTION;
  let nextQuiet = start + QUIET_EVERY_MS;
  let warm = null;
  let stoppedEarly = null;

  const quietPoint = async () => {
    const counts = [];
    for (const tab of tabs) counts.push(await census(tab, allStates));
    const mem = await memorySample(tabs);
    const t = (Date.now() - start) / 1000;
    samples.push({ t, mem });
    if (!warm && Date.now() >= warmAt) warm = samples[samples.length - 1];
    const ops = [...figures.ops.values()].reduce((a, b) => a + b, 0);
    console.log(`[${lpad(t.toFixed(0), 4)} s] ${ops} ops (${(ops / t).toFixed(0)}/s), count A ${counts[0].count} B ${counts[1].count} ` +
      `(model ${counts[0].live}+${counts[0].edge}), reaped A ${figures.reapedByTab.A} B ${figures.reapedByTab.B}, ` +
      `heap A ${MB(mem.A.heap)} B ${MB(mem.B.heap)}, wasm A ${MB(mem.A.wasm)} B ${MB(mem.B.wasm)}, failures ${totalFailures()}`);
  };

  while (Date.now() < end) {
    const lanesA = ownLanes(A);
    const lanesB = ownLanes(B);
    lanesA.push(crossLane(B, lanesB));
    lanesB.push(crossLane(A, lanesA.slice(0, LANES)));
    const [ra, rb] = await Promise.all([
      bounded(A.page.evaluate((l) => window.soak.run(l), wire(lanesA)), CALL_TIMEOUT_MS, "tab A batch"),
      bounded(B.page.evaluate((l) => window.soak.run(l), wire(lanesB)), CALL_TIMEOUT_MS, "tab B batch"),
    ]);
    // Cross reads touch only keys the other tab did not write this round: the order is free.
    judgeBatch(A, lanesA, ra.results, stateOf);
    judgeBatch(B, lanesB, rb.results, stateOf);
    figures.reapedByTab.A += ra.reaped;
    figures.reapedByTab.B += rb.reaped;
    figures.rounds++;
    if (pageErrors.length) { stoppedEarly = "page errors"; break; }
    if (Date.now() >= nextQuiet) {
      await quietPoint();
      nextQuiet = Date.now() + QUIET_EVERY_MS;
    }
  }
  const elapsed = (Date.now() - start) / 1000;
  await quietPoint();
  // The final count of events: no pass runs any more, and what is in flight between the tabs
  // has arrived, so each tab's own events match its stats() and it heard all the other's.
  for (const tab of tabs) await bounded(tab.page.evaluate(() => window.soak.pause()), CALL_TIMEOUT_MS, `tab ${tab.name} pause`);
  await new Promise((r) => setTimeout(r, 1000));
  const final = {};
  for (const tab of tabs) final[tab.name] = await bounded(tab.page.evaluate(() => window.soak.stats()), CALL_TIMEOUT_MS, `tab ${tab.name} stats`);
  return { samples, warm: warm || samples[0], last: samples[samples.length - 1], final, elapsed, stoppedEarly };
}

/** Prints the figures and returns the failed checks (empty: pass). */
function report({ samples, warm, last, final, elapsed, stoppedEarly, pageErrors }) {
  const failed = [];
  const ops = [...figures.ops.entries()].sort((a, b) => b[1] - a[1]);
  const total = ops.reduce((s, [, n]) => s + n, 0);
  console.log("");
  console.log(`== soak figures (seed ${SEED}, ${elapsed.toFixed(0)} s, ${figures.rounds} rounds)`);
  console.log(`operations: ${total} in ${elapsed.toFixed(1)} s = ${(total / elapsed).toFixed(0)}/s (${figures.crossReads} cross-tab reads)`);
  for (let i = 0; i < ops.length; i += 4) {
    console.log("  " + ops.slice(i, i + 4).map(([k, n]) => `${pad(k, 15)} ${lpad(n, 7)}`).join("   "));
  }
  const kinds = ["expired read", "missing entry", "wrong value", "wrong expiry", "wrong result", "rejected call", "count check"];
  console.log(`expired reads:       ${failureCount("expired read")}`);
  console.log(`missing entries:     ${failureCount("missing entry")}`);
  console.log(`wrong values:        ${failureCount("wrong value")}   wrong expiries: ${failureCount("wrong expiry")}   rejected calls: ${failureCount("rejected call")}`);
  console.log(`wrong results:       ${failureCount("wrong result")} (add/replace/incr/update/expire-only answers the model rules out)`);
  console.log(`expected errors:     ${figures.expectedErrors} (incr of a live non-number: TypeError naming the key; an updater's own throw, rejected with that very value)`);
  const outs = [...figures.outcomes.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  console.log("read-modify-write outcomes:");
  for (let i = 0; i < outs.length; i += 3) console.log("  " + outs.slice(i, i + 3).map(([k, n]) => `${pad(k, 36)} ${lpad(n, 6)}`).join("   "));
  console.log(`boundary answers:    ${figures.boundaryReads} (expiry within ${TOLERANCE_MS} ms of the call: accepted either way)`);
  console.log(`count checks:        ${figures.countChecks}, failed ${figures.countChecksFailed} (count() and keys() of each tab against the model; ` +
    `${figures.countChecksAtBoundary} had entries at the boundary, at most ${figures.countCheckMaxBoundary}, counted either way)`);
  for (const k of kinds) if (failureCount(k)) failed.push(`${failureCount(k)} ${k}${failureCount(k) > 1 ? "s" : ""}`);

  const st = final;
  console.log(`reaper removals:     ${st.A.removedTotal + st.B.removedTotal} (tab A ${st.A.removedTotal} in ${st.A.reaperRuns} passes, ` +
    `tab B ${st.B.removedTotal} in ${st.B.reaperRuns} passes; reap() called ${figures.reapCalls} times, removed ${figures.reapCallRemoved})`);
  console.log(`expired events:      tab A heard ${st.A.heardFromOther} keys removed by tab B, tab B heard ${st.B.heardFromOther} removed by tab A`);
  for (const [name, other] of [["A", "B"], ["B", "A"]]) {
    if (st[name].reapedByEvents !== st[name].removedTotal) {
      failed.push(`tab ${name}: its own "expired" events named ${st[name].reapedByEvents} keys, stats().removedTotal says ${st[name].removedTotal}`);
    }
    if (st[name].heardFromOther !== st[other].removedTotal) {
      failed.push(`tab ${name}: heard ${st[name].heardFromOther} keys from tab ${other}'s passes, which removed ${st[other].removedTotal}`);
    }
    if (st[name].backgroundErrors.length) failed.push(`tab ${name}: background "error" events: ${st[name].backgroundErrors.join(" | ")}`);
  }

  console.log(`memory (after forced GC): warm-up at ${warm.t.toFixed(0)} s, end at ${last.t.toFixed(0)} s, ${samples.length} samples`);
  console.log(`  ${pad("", 16)} ${lpad("warm-up", 10)} ${lpad("end", 10)} ${lpad("change", 10)} ${lpad("max after warm-up", 18)} ${lpad("trend", 14)}  limit`);
  const after = samples.filter((s) => s.t >= warm.t);
  for (const name of ["A", "B"]) {
    for (const [what, field] of [["JS heap", "heap"], ["wasm memory", "wasm"]]) {
      const w = warm.mem[name][field];
      const e = last.mem[name][field];
      const max = Math.max(...after.map((s) => s.mem[name][field]));
      const trend = slope(after.map((s) => s.t / 60), after.map((s) => s.mem[name][field]));
      const limit = field === "heap" ? Math.max(w * HEAP_GROWTH_LIMIT_FRACTION, HEAP_GROWTH_LIMIT_BYTES) : WASM_GROWTH_LIMIT_BYTES;
      const ok = e - w <= limit;
      const pages = field === "wasm" ? ` (${w / 65536} -> ${e / 65536} pages)` : "";
      console.log(`  ${pad(`tab ${name} ${what}`, 16)} ${lpad(MB(w), 10)} ${lpad(MB(e), 10)} ${lpad(signedMB(e - w), 10)} ${lpad(MB(max), 18)} ` +
        `${lpad(`${(trend / 1024).toFixed(1)} kB/min`, 14)}  +${MB(limit)}${ok ? "" : "  EXCEEDED"}${pages}`);
      if (!ok) failed.push(`tab ${name} ${what} grew ${signedMB(e - w)} after warm-up (limit +${MB(limit)})`);
    }
  }
  if (stoppedEarly) failed.push(`stopped early: ${stoppedEarly}`);
  if (pageErrors.length) failed.push(`page errors: ${pageErrors.slice(0, 5).join(" | ")}`);
  if (figures.details.length) {
    console.log(`first ${figures.details.length} failures (times are Unix ms; model lo/hi: expiry interval):`);
    for (const d of figures.details) console.log("  " + JSON.stringify(d, (k, v) => (v === Infinity ? "never" : v)));
  }
  return failed;
}

try {
  const outcome = await main();
  const failed = report(outcome);
  if (failed.length) {
    console.log(`soak: FAIL (seed ${SEED}): ${failed.join("; ")}`);
    process.exitCode = 1;
  } else {
    console.log("soak: PASS");
  }
} catch (e) {
  console.error(`soak: aborted: ${e && e.stack ? e.stack : e}`);
  if (totalFailures()) console.error(`(${totalFailures()} failed checks before that; first: ${JSON.stringify(figures.details[0])})`);
  process.exitCode = 1;
}
