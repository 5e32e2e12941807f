// Baseline: raw IndexedDB written directly, with an expiry index (the fair baseline: a TTL store
// must find what expired). Records {k, e, v} keyed by k, index by_exp on e (Unix ms, Infinity =
// none). One transaction per batch; reaping = one tx: by_exp.getAllKeys(upperBound(now)) + per-key
// deletes. incr: get + put in one readwrite transaction. Time series: one record per event, auto-increment key, index on ts.
import { req2p, txDone, openRaw, deleteRaw } from "./util.js";

const S = "kv";
export default {
  name: "raw",
  label: "raw IndexedDB + expiry index",
  async open(name) {
    this.db = await openRaw(name, 1, (db) => {
      db.createObjectStore(S, { keyPath: "k" }).createIndex("by_exp", "e");
    });
  },
  close() { this.db?.close(); this.db = null; },
  async destroy(name) { this.close(); await deleteRaw(name); },
  async setMany(entries) {
    const tx = this.db.transaction(S, "readwrite");
    const s = tx.objectStore(S);
    for (const [k, v, e] of entries) s.put({ k, e, v });
    await txDone(tx);
  },
  async set(k, v, e) {
    const tx = this.db.transaction(S, "readwrite");
    tx.objectStore(S).put({ k, e, v });
    await txDone(tx);
  },
  /** One readwrite transaction: get, then put of the live count + 1 (a missing or expired key
   *  starts from 0 with no expiry; a live one keeps its expiry); resolves at the commit. */
  async incr(k) {
    const tx = this.db.transaction(S, "readwrite");
    const s = tx.objectStore(S);
    const now = Date.now();
    let n;
    s.get(k).onsuccess = (ev) => {
      const r = ev.target.result;
      const live = r !== undefined && r.e > now;
      n = (live ? r.v : 0) + 1;
      s.put({ k, e: live ? r.e : Infinity, v: n });
    };
    await txDone(tx);
    return n;
  },
  async get(k) {
    const r = await req2p(this.db.transaction(S).objectStore(S).get(k));
    return r !== undefined && r.e > Date.now() ? r.v : undefined;
  },
  async getMany(keys) {
    const s = this.db.transaction(S).objectStore(S);
    const now = Date.now();
    const rs = await Promise.all(keys.map((k) => req2p(s.get(k))));
    return rs.map((r) => (r !== undefined && r.e > now ? r.v : undefined));
  },
  async reap() {
    const tx = this.db.transaction(S, "readwrite");
    const s = tx.objectStore(S);
    const keys = await req2p(s.index("by_exp").getAllKeys(IDBKeyRange.upperBound(Date.now())));
    for (const k of keys) s.delete(k);
    await txDone(tx);
    return keys.length;
  },
  // ---- time series: one record per event ----
  ts: {
    async open(name) {
      this.db = await openRaw(name, 1, (db) => {
        db.createObjectStore("ev", { keyPath: "id", autoIncrement: true }).createIndex("ts", "ts");
      });
    },
    close() { this.db?.close(); this.db = null; },
    async append(events) {
      const tx = this.db.transaction("ev", "readwrite");
      const s = tx.objectStore("ev");
      for (const ev of events) s.add(ev);
      await txDone(tx);
    },
    async expireBefore(cutMs) {
      const tx = this.db.transaction("ev", "readwrite");
      const s = tx.objectStore("ev");
      const keys = await req2p(s.index("ts").getAllKeys(IDBKeyRange.upperBound(cutMs, true)));
      for (const k of keys) s.delete(k);
      await txDone(tx);
      return keys.length;
    },
  },
};
