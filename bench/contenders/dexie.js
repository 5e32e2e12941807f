// Dexie 4.x with an indexed expiresAt (Infinity = none) and where('expiresAt').below(now).delete(),
// the pattern Dexie users write for TTL; incr = a "rw" transaction of get + put. Time series: one record per event, '++id, ts'.
import Dexie from "../node_modules/dexie/dist/dexie.mjs";

export default {
  name: "Dexie",
  label: "Dexie 4 (indexed expiresAt)",
  async open(name) {
    this.db = new Dexie(name);
    this.db.version(1).stores({ kv: "k, expiresAt" });
    await this.db.open();
  },
  close() { this.db?.close(); this.db = null; },
  async destroy(name) { this.close(); await Dexie.delete(name); },
  async setMany(es) { await this.db.kv.bulkPut(es.map(([k, v, e]) => ({ k, expiresAt: e, v }))); },
  async set(k, v, e) { await this.db.kv.put({ k, expiresAt: e, v }); },
  /** db.transaction("rw"): get + put of the live count + 1 (Table.update cannot create a key). */
  async incr(k) {
    const kv = this.db.kv;
    return this.db.transaction("rw", kv, async () => {
      const now = Date.now();
      const r = await kv.get(k);
      const live = r !== undefined && r.expiresAt > now;
      const n = (live ? r.v : 0) + 1;
      await kv.put({ k, expiresAt: live ? r.expiresAt : Infinity, v: n });
      return n;
    });
  },
  async get(k) { const r = await this.db.kv.get(k); return r !== undefined && r.expiresAt > Date.now() ? r.v : undefined; },
  async getMany(keys) {
    const now = Date.now();
    return (await this.db.kv.bulkGet(keys)).map((r) => (r !== undefined && r.expiresAt > now ? r.v : undefined));
  },
  async reap() { return this.db.kv.where("expiresAt").below(Date.now()).delete(); },
  ts: {
    async open(name) {
      this.db = new Dexie(name);
      this.db.version(1).stores({ ev: "++id, ts" });
      await this.db.open();
    },
    close() { this.db?.close(); this.db = null; },
    async append(events) { await this.db.ev.bulkAdd(events); },
    async expireBefore(cutMs) { return this.db.ev.where("ts").below(cutMs).delete(); },
  },
};
