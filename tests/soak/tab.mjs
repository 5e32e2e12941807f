// The in-page half of the soak (tests/soak/soak.mjs): loaded by tests/soak/tab.html in each of
// the two tabs. It only executes what Node sends and reports what happened, with the page's own
// clock around every call; Node owns the PRNG, the model and every judgement.
//
// window.soak.run(lanes) runs the lanes side by side (each lane's ops one after another, so the
// ops of one lane on one key are sequential) and returns, per op, { t0, t1, r } where [t0, t1]
// brackets the call with Date.now() (the clock idb-ttl itself reads) and `r` is the result in
// plain JSON: a value read back is summarised as { k, v, n, ok } (`ok`: every part of it survived
// the structured clone intact), `undefined` is encoded as "U" (page.evaluate would drop it inside
// objects), a rejected call as { err }.

import { loadLibrary } from "../page/fixtures/load-library.mjs";

/** The open store, set by `soak.open`. */
let store = null;
/** Keys removed by this tab's reaper passes ("expired" events) since the last `drain`. */
let reapedSinceDrain = 0;
/** Keys removed by this tab's reaper passes since the store was opened. */
let reapedTotal = 0;
/** Keys removed by the other tab's passes, heard as "expired" events with `detail.remote`. */
let heardTotal = 0;
/** "error" events (a failed background pass) since the store was opened, with their messages. */
const backgroundErrors = [];

/** The padding string of version `v`, `n` characters long: cheap to build and to check. */
const padFor = (v, n) => String.fromCharCode(97 + (v % 26)).repeat(n);

/**
 * The value written for version `v` of `key`: structured-clone types (`Date`, `Map`) beside a
 * string of `n` characters, so a read back can be checked whole.
 */
function makeValue(key, v, n) {
  return { k: key, v, pad: padFor(v, n), at: new Date(v * 1000), tags: new Map([["v", v]]) };
}

/**
 * A value read back, summarised for Node: `"U"` for undefined, `{ num }` for a number (`incr`,
 * `update`), `{ arr }` for an array (`update` appending), else `{ k, v, n, ok }`.
 */
function describe(value) {
  if (value === undefined) return "U";
  if (typeof value === "number") return { num: value };
  if (Array.isArray(value)) return { arr: value.map((x) => (typeof x === "string" ? x : `?${String(x)}`)) };
  if (value === null || typeof value !== "object") return { bad: String(value) };
  const { k, v, pad, at, tags } = value;
  const ok = typeof pad === "string" && pad === padFor(v, pad.length)
    && at instanceof Date && at.getTime() === v * 1000
    && tags instanceof Map && tags.get("v") === v;
  return { k, v, n: typeof pad === "string" ? pad.length : -1, ok };
}

/**
 * `update`'s updaters (pure, synchronous; tests/soak/soak.mjs predicts them the same way):
 * "append" adds item `x` to an array (keeping the last 12; a number or an object before becomes
 * `n<number>` / `v<version>` first), "incr" adds `by` to a number (undefined counts as 0; anything
 * else throws `marker`), "delete" returns undefined (which deletes the entry).
 */
function updater(op, marker, calls) {
  return (cur) => {
    calls.n++;
    if (op.how === "delete") return undefined;
    if (op.how === "incr") {
      if (cur === undefined) return op.by;
      if (typeof cur === "number") return cur + op.by;
      throw marker;
    }
    if (cur === undefined) return [op.x];
    if (Array.isArray(cur)) return cur.concat([op.x]).slice(-12);
    if (typeof cur === "number") return [`n${cur}`, op.x];
    return [`v${cur && cur.v}`, op.x];
  };
}

/** `undefined` as `"U"`, everything else as is (numbers, `null`, booleans). */
const enc = (x) => (x === undefined ? "U" : x);

/**
 * Turns the expiry options Node sent into idb-ttl's. `{ expiresAtIn: ms, form }` becomes an
 * absolute `expiresAt` computed now, right before the call (so it is exact however late the
 * batch runs), in the form asked for: Unix seconds with a fraction, a `Date`, or an ISO-8601
 * string. Returns `[options, the absolute expiry in Unix ms or null]`.
 */
function resolveOptions(opts) {
  if (!opts || opts.expiresAtIn === undefined) return [opts, null];
  const at = Date.now() + opts.expiresAtIn;
  if (opts.form === "date") return [{ expiresAt: new Date(at) }, at];
  if (opts.form === "iso") return [{ expiresAt: new Date(at).toISOString() }, at];
  return [{ expiresAt: at / 1000 }, at];
}

/** Executes one op; returns `{ t0, t1, r }` (plus `at`, `obs` for some ops). Never throws. */
async function exec(op) {
  const out = {};
  let t0 = Date.now();
  try {
    switch (op.op) {
      case "get": out.r = describe(await store.get(op.key)); break;
      case "has": out.r = await store.has(op.key); break;
      case "getMany": out.r = (await store.getMany(op.keys)).map(describe); break;
      case "ttl": out.r = enc(await store.ttl(op.key)); break;
      case "expiresAt": out.r = enc(await store.expiresAt(op.key)); break;
      case "set": {
        const value = makeValue(op.key, op.v, op.n);
        const [opts, at] = resolveOptions(op.opts);
        t0 = Date.now();
        await (opts ? store.set(op.key, value, opts) : store.set(op.key, value));
        out.at = at;
        break;
      }
      case "setMany": {
        const ats = [];
        const entries = op.entries.map((e) => {
          const [opts, at] = resolveOptions(e.opts);
          ats.push(at);
          const value = makeValue(e.key, e.v, e.n);
          return opts ? [e.key, value, opts] : [e.key, value];
        });
        t0 = Date.now();
        await store.setMany(entries);
        out.at = ats;
        break;
      }
      case "delete": out.r = await store.delete(op.key); break;
      case "deleteMany": out.r = await store.deleteMany(op.keys); break;
      case "expire": {
        const [opts, at] = resolveOptions(op.opts);
        t0 = Date.now();
        out.r = await store.expire(op.key, opts);
        out.at = at;
        break;
      }
      case "persist": out.r = await store.persist(op.key); break;
      case "add": case "replace": {
        const value = makeValue(op.key, op.v, op.n);
        const [opts, at] = resolveOptions(op.opts);
        t0 = Date.now();
        out.r = await (opts ? store[op.op](op.key, value, opts) : store[op.op](op.key, value));
        out.at = at;
        break;
      }
      case "take": out.r = describe(await store.take(op.key)); break;
      case "incr": {
        const [opts, at] = resolveOptions(op.opts);
        t0 = Date.now();
        out.r = await (opts ? store.incr(op.key, op.by, opts) : store.incr(op.key, op.by));
        out.at = at;
        break;
      }
      case "update": {
        const [opts, at] = resolveOptions(op.opts);
        const marker = { soakThrown: op.key };
        const calls = { n: 0 };
        t0 = Date.now();
        try {
          out.r = describe(await (opts ? store.update(op.key, updater(op, marker, calls), opts) : store.update(op.key, updater(op, marker, calls))));
        } catch (e) {
          if (e !== marker) throw e;
          out.r = { threw: true };
        }
        out.calls = calls.n;
        out.at = at;
        break;
      }
      case "expireIf": {
        const [opts, at] = resolveOptions(op.opts);
        t0 = Date.now();
        out.r = await store.expire(op.key, { ...opts, only: op.only });
        out.at = at;
        break;
      }
      case "reap": {
        const report = await store.reap();
        out.r = { removed: report.removed, remaining: report.remaining };
        break;
      }
      default: throw new TypeError(`unknown soak op ${op.op}`);
    }
  } catch (e) {
    out.err = `${e && e.name}: ${e && e.message}`;
  }
  out.t0 = t0;
  out.t1 = Date.now();
  // keepTtl's outcome at the expiry boundary cannot be told from the outside (the old expiry
  // kept, or none because the old entry had just expired): observe it at once.
  if (op.op === "set" && op.opts && op.opts.keepTtl && !out.err) {
    out.o0 = Date.now();
    try {
      out.obs = enc(await store.expiresAt(op.key));
    } catch (e) {
      out.err = `expiresAt after keepTtl: ${e && e.name}: ${e && e.message}`;
    }
    out.o1 = Date.now();
  }
  return out;
}

window.soak = {
  /** Opens database `name` with `options` and listens for its reaper's events. */
  async open(name, options) {
    store = await window.idbTtl.TtlStore.open(name, options);
    store.addEventListener("expired", (e) => {
      if (e.detail.remote) {
        heardTotal += e.detail.keys.length;
        return;
      }
      reapedSinceDrain += e.detail.keys.length;
      reapedTotal += e.detail.keys.length;
    });
    store.addEventListener("error", (e) => {
      if (backgroundErrors.length < 20) backgroundErrors.push(String(e.detail.error && e.detail.error.message));
    });
    return { isNew: store.isNew };
  },

  /**
   * Runs `lanes` (arrays of ops) side by side, each lane in order; returns the results per lane
   * and the keys reaped (by this tab's passes) since the previous call.
   */
  async run(lanes) {
    const results = await Promise.all(lanes.map(async (ops) => {
      const out = [];
      for (const op of ops) out.push(await exec(op));
      return out;
    }));
    const reaped = reapedSinceDrain;
    reapedSinceDrain = 0;
    return { results, reaped };
  },

  /** At a quiet point: `count()` and `keys()`, each with its [t0, t1]. */
  async census() {
    const c0 = Date.now();
    const count = await store.count();
    const c1 = Date.now();
    const keys = await store.keys();
    const k1 = Date.now();
    return { count, c0, c1, keys, k0: c1, k1 };
  },

  /** `stats()` in plain JSON, with the "expired" event totals and background errors. */
  stats() {
    const s = store.stats();
    return {
      reaperRuns: s.reaperRuns,
      removedTotal: s.removedTotal,
      memoryBytes: s.memoryBytes,
      reapedByEvents: reapedTotal,
      heardFromOther: heardTotal,
      leader: s.leader,
      backgroundErrors: [...backgroundErrors],
    };
  },

  /** Stops this tab's background passes (for the final count of events). */
  pause() {
    store.pauseReaper();
  },

  /** Closes the store (the reaper stops). */
  close() {
    if (store) store.close();
    store = null;
  },
};

await loadLibrary();
