// localForage 1.10 (IndexedDB driver; loaded as a classic script, window.localforage): no batch
// API, so bulk = concurrent setItem calls, getMany = concurrent getItem calls; values wrapped as
// {v, e}; reaping = iterate() over everything + removeItem per expired key; incr = getItem then
// setItem (two transactions: not atomic).
import { deleteRaw, putOutOfLine } from "./util.js";

export default {
  name: "localForage",
  label: "localForage 1.10 (full scan)",
  async open(name) {
    this.name = name;
    this.lf = window.localforage.createInstance({ name, storeName: "kv", driver: window.localforage.INDEXEDDB });
    await this.lf.ready();
  },
  close() {
    // localForage has no close(); reach its connection (private field, 1.10) so the DB can be deleted.
    try { this.lf?._dbInfo?.db?.close(); } catch { /* ignore */ }
    this.lf = null;
  },
  async destroy(name) { this.close(); await deleteRaw(name); },
  async setMany(es) { await Promise.all(es.map(([k, v, e]) => this.lf.setItem(k, { v, e }))); },
  async populate(es) { await putOutOfLine(this.name, "kv", es.map(([k, v, e]) => [k, { v, e }])); },
  async set(k, v, e) { await this.lf.setItem(k, { v, e }); },
  /** getItem then setItem: two transactions, NOT atomic (two tabs can lose counts); the
   *  nearest a localForage user has. */
  async incr(k) {
    const r = await this.lf.getItem(k);
    const live = r != null && r.e > Date.now();
    const n = (live ? r.v : 0) + 1;
    await this.lf.setItem(k, { v: n, e: live ? r.e : Infinity });
    return n;
  },
  async get(k) { const r = await this.lf.getItem(k); return r != null && r.e > Date.now() ? r.v : undefined; },
  async getMany(keys) {
    const now = Date.now();
    const rs = await Promise.all(keys.map((k) => this.lf.getItem(k)));
    return rs.map((r) => (r != null && r.e > now ? r.v : undefined));
  },
  async reap() {
    const now = Date.now();
    const dead = [];
    await this.lf.iterate((r, k) => { if (r && r.e <= now) dead.push(k); });
    await Promise.all(dead.map((k) => this.lf.removeItem(k)));
    return dead.length;
  },
};
