// idb-ttl as a contender: the package scripts/build.sh puts in www/pkg/ (entry index.js), called
// by the names of docs/API.md. load() imports and initialises it once (initMs); without a build it
// returns a note and the driver leaves idb-ttl out. Stores open with autoReap off and a pass cap
// of 1e9, so only the harness's reap() removes anything, and reap() runs passes until none is left
// waiting. Expiries arrive as Unix ms (Infinity: none) and are written as expiresAt in seconds.
// Time series: TtlStore#timeSeries with expireAfter, expired by one reap() after the harness has
// moved the page's clock (expireBefore's cut is not needed).
const PKG = "../../www/pkg/index.js";
let mod = null, initMs = null, missing = null;

export async function load() {
  if (mod || missing) return { ok: !!mod, note: missing, initMs };
  try {
    const t = performance.now();
    const m = await import(PKG);
    await m.default();
    initMs = performance.now() - t;
    mod = m;
  } catch (e) {
    missing = `idb-ttl skipped: ${PKG} could not be loaded (${e && e.message}); run scripts/build.sh`;
  }
  return { ok: !!mod, note: missing, initMs };
}

const opts = (e) => (e === Infinity ? undefined : { expiresAt: e / 1000 });
const OPEN = { autoReap: false, maxRemovesPerRun: 1e9 };

export default {
  name: "idb-ttl",
  label: "idb-ttl (this repo)",
  load,
  async open(name) { await load(); this.store = await mod.TtlStore.open(name, OPEN); },
  close() { this.store?.close(); this.store = null; },
  async destroy(name) { this.close(); await mod.TtlStore.destroy(name); },
  async setMany(es) { await this.store.setMany(es.map(([k, v, e]) => (e === Infinity ? [k, v] : [k, v, opts(e)]))); },
  async set(k, v, e) { await this.store.set(k, v, opts(e)); },
  async incr(k) { return this.store.incr(k); },
  async get(k) { return this.store.get(k); },
  async getMany(keys) { return this.store.getMany(keys); },
  async reap() {
    let removed = 0;
    for (let i = 0; i < 10_000; i++) {   // bounded: repeat while the cap left some behind
      const r = await this.store.reap();
      removed += r.removed;
      if (!r.remaining) break;
    }
    return removed;
  },
  ts: {
    supported() { return !!mod && typeof mod.TtlStore.prototype.timeSeries === "function"; },
    async open(name, expireAfterS) {
      this.store = await mod.TtlStore.open(name, OPEN);
      this.coll = await this.store.timeSeries("ev", {
        timeField: "ts", metaField: "sensor", granularity: "minutes", expireAfter: expireAfterS,
      });
    },
    close() { this.store?.close(); this.store = null; },
    async append(events) { await this.coll.insertMany(events.map((e) => ({ ...e, ts: new Date(e.ts) }))); },
    // The page's clock is moved so that (now - expireAfter) = cutMs; then one reaper pass.
    async expireBefore(_cutMs) { const r = await this.store.reap(); return r.removed; },
  },
};
