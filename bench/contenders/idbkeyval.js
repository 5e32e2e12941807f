// idb-keyval 6.x: no index, values wrapped as {v, e}; reaping = full scan (entries()) + delMany;
// incr = update() (one readwrite transaction).
import { createStore, setMany, set, get, getMany, entries, delMany, update } from "../node_modules/idb-keyval/dist/index.js";
import { deleteRaw, putOutOfLine } from "./util.js";

export default {
  name: "idb-keyval",
  label: "idb-keyval 6 (full scan)",
  async open(name) { this.name = name; this.store = createStore(name, "kv"); },
  close() {
    // idb-keyval caches the connection inside the store function; close it through the callback.
    const p = this.store?.("readonly", (s) => s.transaction.db.close()).catch(() => {});
    this.store = null;
    return p;
  },
  async destroy(name) { await this.close(); await deleteRaw(name); },
  async setMany(es) { await setMany(es.map(([k, v, e]) => [k, { v, e }]), this.store); },
  async populate(es) {
    await get("__open__", this.store); // lets idb-keyval create the DB as it always does
    await putOutOfLine(this.name, "kv", es.map(([k, v, e]) => [k, { v, e }]));
  },
  async set(k, v, e) { await set(k, { v, e }, this.store); },
  /** update(key, updater): get + put in one readwrite transaction, the {v, e} wrapper kept. */
  async incr(k) {
    const now = Date.now();
    let n;
    await update(k, (r) => {
      const live = r !== undefined && r.e > now;
      n = (live ? r.v : 0) + 1;
      return { v: n, e: live ? r.e : Infinity };
    }, this.store);
    return n;
  },
  async get(k) { const r = await get(k, this.store); return r !== undefined && r.e > Date.now() ? r.v : undefined; },
  async getMany(keys) {
    const now = Date.now();
    return (await getMany(keys, this.store)).map((r) => (r !== undefined && r.e > now ? r.v : undefined));
  },
  async reap() {
    const now = Date.now();
    const dead = (await entries(this.store)).filter(([, r]) => r.e <= now).map(([k]) => k);
    await delMany(dead, this.store);
    return dead.length;
  },
};
