// The hostile-values catalogue: every public method and every option object of the package, as a
// page imports it (www/pkg/index.js), against values a mistaken or hostile caller passes. For each
// case the oracle says what must happen: a documented acceptance, or a TypeError / RangeError
// whose message names the argument (and, for a plain value, the value itself). After every
// refusal the five object stores are read with plain IndexedDB: nothing was written. At the end the
// store, a collection and a time series still work. ttlFromHeaders meets the same values, and
// hostile headers objects of its own (throwing getters, Proxies, 10 MB headers). Against the lite
// entry (www/pkg/lite/index.js) the key-value cases run, and liteCases check that the default
// entry's members are absent. Run by tests/page/chromium-hostile.test.mjs (Chromium) and
// tests/page/hostile.test.mjs (Firefox and WebKit); `runCatalogue` resolves to a report (counts
// and failures). A run can be one shard of the catalogue (`shard: [k, n]`): the k-th of n
// deterministic parts, every n-th case, so the tests run it as several pages of a few hundred
// cases each; each report also counts the whole catalogue's cases, for the tests to check that
// the shards together ran them all.

const BIG = 100_000;

/** The values, each made fresh per case (`make`), with how a message names it (`shown`). */
export function hostileValues() {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const boom = () => { throw new Error("boom from a trap"); };
  const traps = {};
  for (const t of ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "set", "defineProperty", "deleteProperty", "apply", "construct", "isExtensible", "preventExtensions", "setPrototypeOf"]) traps[t] = boom;
  const values = {
    undefined: { make: () => undefined, shown: "undefined" },
    null: { make: () => null, shown: "null" },
    symbol: { make: () => Symbol("s"), shown: "a symbol" },
    bigint: { make: () => 5n, shown: "5n" },
    negZero: { make: () => -0, shown: "0" },
    twoTo53: { make: () => 2 ** 53, shown: "9007199254740992" },
    n1e21: { make: () => 1e21, shown: "1e+21" },
    nan: { make: () => NaN, shown: "NaN" },
    infinity: { make: () => Infinity, shown: "Infinity" },
    negInfinity: { make: () => -Infinity, shown: "-Infinity" },
    string10MB: { make: () => "x".repeat(10_000_000), shown: "(10000000 characters)" },
    revokedProxy: { make: () => revoked.proxy, shown: null },
    throwingProxy: { make: () => new Proxy({}, traps), shown: null },
    throwingGetter: { make: () => ({ get ttl() { throw new Error("boom from a getter"); }, get x() { throw new Error("boom from a getter"); } }), shown: null },
    cyclic: { make: () => { const o = { a: 1 }; o.self = o; return o; }, shown: null },
    function: { make: () => function f() {}, shown: "a function" },
    date: { make: () => new Date(Date.UTC(2030, 0, 1)), shown: "Date(1893456000000)" },
    arrayBuffer: { make: () => new ArrayBuffer(8), shown: "an ArrayBuffer (8 bytes)" },
    boxedNumber: { make: () => new Number(5), shown: "a Number object (5)" },
    boxedString: { make: () => new String("s"), shown: "a String object (\"s\")" },
    holes: { make: () => [1, , 3], shown: null }, // eslint-disable-line no-sparse-arrays
    // 100 000 keys, the last of them not a key: the whole array is checked before any request.
    keys100k: { make: () => Array.from({ length: BIG }, (_, i) => (i === BIG - 1 ? null : `k${i}`)), shown: null },
  };
  if (typeof document !== "undefined") values.domNode = { make: () => document.createElement("div"), shown: "an HTMLDivElement" };
  return values;
}

const ACCEPT = "accepted";
const T = "TypeError";
const R = "RangeError";

// What each kind of argument does with each value: "accepted", "TypeError" or "RangeError".
// Values not listed for a kind are TypeErrors.
const ORACLE = {
  // IndexedDB keys: strings and numbers other than NaN (-0, 2^53, 1e21, ±Infinity are valid keys).
  key: { negZero: ACCEPT, twoTo53: ACCEPT, n1e21: ACCEPT, infinity: ACCEPT, negInfinity: ACCEPT, string10MB: ACCEPT, nan: R },
  // Anything structured clone takes.
  value: {
    undefined: ACCEPT, null: ACCEPT, bigint: ACCEPT, negZero: ACCEPT, twoTo53: ACCEPT, n1e21: ACCEPT, nan: ACCEPT,
    infinity: ACCEPT, negInfinity: ACCEPT, string10MB: ACCEPT, cyclic: ACCEPT, date: ACCEPT, arrayBuffer: ACCEPT,
    boxedNumber: ACCEPT, boxedString: ACCEPT, holes: ACCEPT, keys100k: ACCEPT,
  },
  // An options object: a plain object, or nothing.
  options: { undefined: ACCEPT, null: ACCEPT },
  // ttl: seconds >= 0 (0 stores nothing), within 9999.
  ttl: { undefined: ACCEPT, negZero: ACCEPT, twoTo53: R, n1e21: R, nan: R, infinity: R, negInfinity: R },
  // expiresAt: Unix seconds (0: already past, stores nothing), ISO-8601, Date.
  expiresAt: { undefined: ACCEPT, negZero: ACCEPT, date: ACCEPT, twoTo53: R, n1e21: R, nan: R, infinity: R, negInfinity: R },
  // A query bound: as expiresAt, absent = open.
  bound: { undefined: ACCEPT, negZero: ACCEPT, date: ACCEPT, twoTo53: R, n1e21: R, nan: R, infinity: R, negInfinity: R },
  // archiveFor: exact seconds > 0 (0 would archive and delete at once).
  after: { undefined: ACCEPT, negZero: R, twoTo53: R, n1e21: R, nan: R, infinity: R, negInfinity: R },
  // onExpire: a function, or nothing.
  hook: { undefined: ACCEPT, function: ACCEPT },
  // expireAfter: exact seconds >= 0.
  expireAfter: { negZero: ACCEPT, twoTo53: R, n1e21: R, nan: R, infinity: R, negInfinity: R },
  flag: { undefined: ACCEPT },
  // Names: non-empty, well-formed, at most 1000 characters.
  name: { string10MB: R },
  // Whole numbers >= 1 (reapIntervalMs up to 2^53 - 1).
  whole: { undefined: ACCEPT, negZero: R, twoTo53: R, n1e21: R, nan: R, infinity: R, negInfinity: R },
  // maxRemovesPerSecond: 0 (no limit, -0 included) or a whole number >= 1.
  rate: { undefined: ACCEPT, negZero: ACCEPT, twoTo53: R, n1e21: R, nan: R, infinity: R, negInfinity: R },
  keys: {},
  array: {},
  listener: { function: ACCEPT },
  ttlIndex: { undefined: ACCEPT },
  // A field name: a non-empty string of at most 1000 characters.
  field: { string10MB: R },
  // incr's by: a finite number; absent is 1.
  by: { undefined: ACCEPT, negZero: ACCEPT, twoTo53: ACCEPT, n1e21: ACCEPT },
  // A value stored before incr: numbers are added to (undefined starts from 0); a sum that is not
  // finite is a RangeError.
  number: { undefined: ACCEPT, negZero: ACCEPT, twoTo53: ACCEPT, n1e21: ACCEPT, nan: R, infinity: R, negInfinity: R },
  // expire's only: "noExpiry", "hasExpiry", "later", "sooner", or absent.
  only: { undefined: ACCEPT },
  // What a collection's updater returns: a document with the same id, or undefined (delete).
  updated: { undefined: ACCEPT },
  // asyncStorage's prefix: any string, or none.
  prefix: { undefined: ACCEPT, string10MB: ACCEPT },
  // observe's query: a plain object naming one kind of view; unlike options, nothing (undefined,
  // null) is refused, since a view of nothing would never call its listener.
  query: {},
  // observe's { prefix }: any string; an absent prefix names no kind of view.
  viewPrefix: { string10MB: ACCEPT },
  // A key of an asyncStorage with a prefix: strings only.
  stringKey: { string10MB: ACCEPT },
  any: {},
  // Long work's signal: an AbortSignal, or none; its onProgress: a function, or none.
  signal: { undefined: ACCEPT },
  progress: { undefined: ACCEPT, function: ACCEPT },
  // ttlFromHeaders' headers: a Headers or a plain object; only header names are read, so an
  // object whose other properties throw or cycle is accepted (it says nothing: undefined).
  headers: { throwingGetter: ACCEPT, cyclic: ACCEPT },
  // A header's value in a plain object: a string (10 MB says nothing), or undefined (absent).
  headerValue: { undefined: ACCEPT, string10MB: ACCEPT },
  // ttlFromHeaders' now: Unix seconds from 0 to 9999, or nothing (the clock).
  now: { undefined: ACCEPT, negZero: ACCEPT, twoTo53: R, n1e21: R, nan: R, infinity: R, negInfinity: R },
};

/** A snapshot with nothing in it, for import()'s options. */
const empty = { format: "idb-ttl-snapshot", version: 1, database: "x", exportedAt: 0, entries: [], collections: [], timeSeries: [] };

/** Every call of the API with one argument replaced by the value under test. */
function positions() {
  const p = [];
  const add = (label, kind, call, extra = {}) => p.push({ label, kind, call, ...extra });
  // A member of the default entry only (collections, time series, tiers and hand-off, encryption,
  // ttlFromHeaders): not run against idb-ttl/lite, whose own cases (liteCases) say it is absent.
  const addFull = (label, kind, call, extra = {}) => add(label, kind, call, { ...extra, full: true });
  // TtlStore statics.
  add("TtlStore.open name", "name", (e, x) => e.TtlStore.open(x), { mention: "database name", opens: true });
  add("TtlStore.open options", "options", (e, x) => e.TtlStore.open(e.scratch(), x), { mention: "TtlStore.open options", opens: true });
  for (const o of ["reapIntervalMs", "batchSize", "selectBatchSize", "maxRemovesPerRun", "maxRemovesPerCollection", "timeoutMs", "maxEntries"]) {
    add(`TtlStore.open { ${o} }`, o === "reapIntervalMs" ? "whole" : "whole", (e, x) => e.TtlStore.open(e.scratch(), { [o]: x }), { mention: o, opens: true });
  }
  add("TtlStore.open { maxRemovesPerSecond }", "rate", (e, x) => e.TtlStore.open(e.scratch(), { maxRemovesPerSecond: x }), { mention: "maxRemovesPerSecond", opens: true });
  add("TtlStore.open { defaultTtl }", "ttl", (e, x) => e.TtlStore.open(e.scratch(), { defaultTtl: x }), { mention: "defaultTtl", opens: true });
  add("TtlStore.open { autoReap }", "flag", (e, x) => e.TtlStore.open(e.scratch(), { autoReap: x }), { mention: "autoReap", opens: true });
  add("TtlStore.open { evictOnQuota }", "flag", (e, x) => e.TtlStore.open(e.scratch(), { evictOnQuota: x }), { mention: "evictOnQuota", opens: true });
  addFull("TtlStore.open { archiveFor }", "after", (e, x) => e.TtlStore.open(e.scratch(), { archiveFor: x }), { mention: "archiveFor", opens: true });
  addFull("TtlStore.open { onExpire }", "hook", (e, x) => e.TtlStore.open(e.scratch(), { onExpire: x }), { mention: "onExpire", opens: true });
  // encryption: true, false or { keyTtl } (a duration above 0, as archiveFor).
  addFull("TtlStore.open { encryption }", "flag", (e, x) => e.TtlStore.open(e.scratch(), { encryption: x }), { mention: "encryption", opens: true });
  addFull("TtlStore.open { encryption: { keyTtl } }", "after", (e, x) => e.TtlStore.open(e.scratch(), { encryption: { keyTtl: x } }), { mention: "encryption.keyTtl", opens: true });
  add("TtlStore.destroy name", "name", (e, x) => e.TtlStore.destroy(x), { mention: "database name" });
  add("TtlStore.destroy options", "options", (e, x) => e.TtlStore.destroy(e.scratch(), x), { mention: "TtlStore.destroy options" });
  add("TtlStore.destroy { timeoutMs }", "whole", (e, x) => e.TtlStore.destroy(e.scratch(), { timeoutMs: x }), { mention: "timeoutMs" });
  // Entries.
  add("set key", "key", (e, x) => e.store.set(x, 1), { mention: "key" });
  add("set value", "value", (e, x) => e.store.set("v", x), { mention: "\"v\"" });
  add("set options", "options", (e, x) => e.store.set("k", 1, x), { mention: "set options" });
  add("set { ttl }", "ttl", (e, x) => e.store.set("k", 1, { ttl: x }), { mention: "ttl" });
  add("set { expiresAt }", "expiresAt", (e, x) => e.store.set("k", 1, { expiresAt: x }), { mention: "expiresAt" });
  add("set { keepTtl }", "flag", (e, x) => e.store.set("k", 1, { keepTtl: x }), { mention: "keepTtl" });
  // idle: a window as ttl takes it (0 stores nothing), with or without a cap beside it.
  add("set { idle }", "ttl", (e, x) => e.store.set("k", 1, { idle: x }), { mention: "idle" });
  add("set { idle, ttl }", "ttl", (e, x) => e.store.set("k", 1, { idle: 60, ttl: x }), { mention: "ttl" });
  add("setMany entry { idle }", "ttl", (e, x) => e.store.setMany([["a", 1], ["b", 2, { idle: x }]]), { mention: ["setMany entry 1", "idle"] });
  for (const m of ["get", "peek", "has", "delete", "expiresAt", "ttl", "persist"]) add(`${m} key`, "key", (e, x) => e.store[m](x), { mention: "key" });
  add("ttl options", "options", (e, x) => e.store.ttl("k", x), { mention: "ttl options" });
  add("ttl { detail }", "flag", (e, x) => e.store.ttl("k", { detail: x }), { mention: "detail" });
  addFull("archive.get key", "key", (e, x) => e.store.archive.get(x), { mention: "key" });
  add("setMany entries", "array", (e, x) => e.store.setMany(x), { mention: "setMany" });
  add("setMany entry", "any", (e, x) => e.store.setMany([["a", 1], x]), { mention: "setMany entry 1" });
  add("setMany entry key", "key", (e, x) => e.store.setMany([["a", 1], [x, 2]]), { mention: "setMany entry 1" });
  add("setMany entry options", "options", (e, x) => e.store.setMany([["a", 1], ["b", 2, x]]), { mention: "setMany entry 1" });
  add("getMany keys", "keys", (e, x) => e.store.getMany(x), { mention: "getMany keys" });
  add("deleteMany keys", "keys", (e, x) => e.store.deleteMany(x), { mention: "deleteMany keys" });
  add("expire key", "key", (e, x) => e.store.expire(x, { ttl: 60 }), { mention: "key" });
  add("expire options", "any", (e, x) => e.store.expire("k", x), { mention: "expire" });
  add("expire { ttl }", "ttl", (e, x) => e.store.expire("k", { ttl: x }), { mention: "ttl", expireMissing: true });
  add("expire { expiresAt }", "expiresAt", (e, x) => e.store.expire("k", { expiresAt: x }), { mention: "expiresAt", expireMissing: true });
  add("expire { idle }", "ttl", (e, x) => e.store.expire("k", { idle: x }), { mention: "idle", expireMissing: true });
  // The read-modify-write verbs: add and replace take set's arguments; incr's by is any finite
  // number; an updater is a function whose result is the value written (undefined deletes).
  for (const m of ["add", "replace"]) {
    add(`${m} key`, "key", (e, x) => e.store[m](x, 1), { mention: "key" });
    // replace's value over a live entry, the one it writes over (over none it writes nothing).
    const live = m === "replace" ? async (e, x) => { await e.store.set("v", 0); try { await e.store.replace("v", x); } finally { await e.store.delete("v"); } } : (e, x) => e.store.add("v", x);
    add(`${m} value`, "value", live, { mention: "\"v\"" });
    add(`${m} options`, "options", (e, x) => e.store[m]("k", 1, x), { mention: `${m} options` });
    add(`${m} { ttl }`, "ttl", (e, x) => e.store[m]("k", 1, { ttl: x }), { mention: "ttl" });
    add(`${m} { expiresAt }`, "expiresAt", (e, x) => e.store[m]("k", 1, { expiresAt: x }), { mention: "expiresAt" });
    add(`${m} { idle }`, "ttl", (e, x) => e.store[m]("k", 1, { idle: x }), { mention: "idle" });
    add(`${m} { keepTtl }`, "flag", (e, x) => e.store[m]("k", 1, { keepTtl: x }), { mention: "keepTtl" });
  }
  add("take key", "key", (e, x) => e.store.take(x), { mention: "key" });
  add("incr key", "key", (e, x) => e.store.incr(x), { mention: "key" });
  add("incr by", "by", (e, x) => e.store.incr("k", x), { mention: "by" });
  add("incr options", "options", (e, x) => e.store.incr("k", 1, x), { mention: "incr options" });
  add("incr { ttl }", "ttl", (e, x) => e.store.incr("k", 1, { ttl: x }), { mention: "ttl" });
  add("incr { expiresAt }", "expiresAt", (e, x) => e.store.incr("k", 1, { expiresAt: x }), { mention: "expiresAt" });
  add("incr { idle }", "ttl", (e, x) => e.store.incr("k", 1, { idle: x }), { mention: "idle" });
  // What incr meets stored: each value set stores (set's own refusals are set's cases).
  add("incr stored value", "number", async (e, x) => { await e.store.set("n", x); try { await e.store.incr("n"); } finally { await e.store.delete("n"); } }, { mention: "incr(\"n\"", stores: true });
  add("update key", "key", (e, x) => e.store.update(x, () => 1), { mention: "key" });
  add("update updater", "listener", (e, x) => e.store.update("k", x), { mention: "update updater" });
  add("update result", "value", (e, x) => e.store.update("v", () => x), { mention: "\"v\"" });
  add("update options", "options", (e, x) => e.store.update("k", () => 1, x), { mention: "update options" });
  add("update { ttl }", "ttl", (e, x) => e.store.update("k", () => 1, { ttl: x }), { mention: "ttl" });
  add("update { expiresAt }", "expiresAt", (e, x) => e.store.update("k", () => 1, { expiresAt: x }), { mention: "expiresAt" });
  add("update { idle }", "ttl", (e, x) => e.store.update("k", () => 1, { idle: x }), { mention: "idle" });
  add("expire { only }", "only", (e, x) => e.store.expire("k", { ttl: 60, only: x }), { mention: "only" });
  add("import snapshot", "any", (e, x) => e.store.import(x), { mention: "import" });
  add("addEventListener type", "any", (e, x) => e.store.addEventListener(x, () => {}), { mention: "event type", sync: true });
  add("addEventListener listener", "listener", (e, x) => e.store.addEventListener("change", x), { mention: "listener", sync: true });
  // asyncStorage (TanStack Query's storage object): its options, and its methods with and without a prefix.
  add("asyncStorage options", "options", (e, x) => e.store.asyncStorage(x), { mention: "asyncStorage options", sync: true });
  add("asyncStorage { prefix }", "prefix", (e, x) => e.store.asyncStorage({ prefix: x }), { mention: "prefix", sync: true });
  add("asyncStorage { ttl }", "ttl", (e, x) => e.store.asyncStorage({ ttl: x }), { mention: "ttl", sync: true });
  add("asyncStorage { idle }", "ttl", (e, x) => e.store.asyncStorage({ idle: x }), { mention: "idle", sync: true });
  for (const m of ["getItem", "removeItem"]) {
    add(`asyncStorage().${m} key`, "key", (e, x) => e.store.asyncStorage()[m](x), { mention: "key" });
    add(`asyncStorage({ prefix }).${m} key`, "stringKey", (e, x) => e.store.asyncStorage({ prefix: "p:" })[m](x), { mention: "asyncStorage key" });
  }
  add("asyncStorage().setItem key", "key", (e, x) => e.store.asyncStorage().setItem(x, 1), { mention: "key" });
  add("asyncStorage({ prefix }).setItem key", "stringKey", (e, x) => e.store.asyncStorage({ prefix: "p:" }).setItem(x, 1), { mention: "asyncStorage key" });
  add("asyncStorage().setItem value", "value", (e, x) => e.store.asyncStorage({ ttl: 60 }).setItem("v", x), { mention: "\"v\"" });
  add("asyncStorage().setItem options", "options", (e, x) => e.store.asyncStorage({ ttl: 60 }).setItem("k", 1, x), { mention: "set options" });
  // watch: the key and the listener (an accepted watch is stopped at once).
  add("watch key", "key", (e, x) => { e.store.watch(x, () => {})(); }, { mention: "key", sync: true });
  add("watch listener", "listener", (e, x) => { e.store.watch("k", x)(); }, { mention: "watch listener", sync: true });
  // observe: the query as a whole, each kind of view, the listener (an accepted view is stopped at
  // once). A kind given as undefined is absent: the query then names none. A value that cannot be
  // read (a revoked Proxy) is named by its path, "observe query.keys".
  add("observe query", "query", (e, x) => { e.store.observe(x, () => {})(); }, { mention: "observe query", sync: true });
  add("observe { prefix }", "viewPrefix", (e, x) => { e.store.observe({ prefix: x }, () => {})(); }, { mention: "prefix", sync: true });
  add("observe { keys }", "keys", (e, x) => { e.store.observe({ keys: x }, () => {})(); }, { mention: ["observe keys", "observe query.keys", "observe query needs"], sync: true });
  add("observe { from }", "key", (e, x) => { e.store.observe({ from: x }, () => {})(); }, { mention: ["observe from", "observe query.from", "observe query needs"], sync: true });
  add("observe { to }", "key", (e, x) => { e.store.observe({ from: "a", to: x }, () => {})(); }, { mention: ["observe to", "observe query.to"], sync: true, absentOk: true });
  add("observe listener", "listener", (e, x) => { e.store.observe({ prefix: "p:" }, x)(); }, { mention: "observe listener", sync: true });
  addFull("collection.observe listener", "listener", (e, x) => { e.coll.observe(x)(); }, { mention: "observe listener", sync: true });
  // Collections.
  addFull("collection name", "name", (e, x) => e.store.collection(x), { mention: "collection name" });
  addFull("collection options", "options", (e, x) => e.store.collection("c2", x), { mention: "collection options" });
  addFull("collection { keyPath }", "field", (e, x) => e.store.collection("c3", { keyPath: x }), { mention: "keyPath", absentOk: true });
  addFull("collection { ttlIndex }", "ttlIndex", (e, x) => e.store.collection("c4", { ttlIndex: x }), { mention: "ttlIndex" });
  addFull("ttlIndex { field }", "field", (e, x) => e.store.collection("c5", { ttlIndex: { field: x, expireAfter: 1 } }), { mention: "ttlIndex.field" });
  addFull("ttlIndex { expireAfter }", "expireAfter", (e, x) => e.store.collection("c6", { ttlIndex: { field: "at", expireAfter: x } }), { mention: "ttlIndex" });
  addFull("ttlIndex { unit }", "any", (e, x) => e.store.collection("c7", { ttlIndex: { field: "at", expireAfter: 1, unit: x } }), { mention: "ttlIndex.unit", absentOk: true });
  addFull("ttlIndex { schedule }", "any", (e, x) => e.store.collection("c12", { ttlIndex: { field: "at", expireAfter: 1, schedule: x } }), { mention: "ttlIndex.schedule", absentOk: true });
  addFull("ttlIndex { automatic }", "flag", (e, x) => e.store.collection("c11", { ttlIndex: { field: "at", automatic: x, expireAfter: 1 } }), { mention: "ttlIndex.automatic" });
  addFull("collection.expiresAt id", "key", (e, x) => e.coll.expiresAt(x), { mention: "key" });
  addFull("collection.expire id", "key", (e, x) => e.auto.expire(x, { ttl: 60 }), { mention: "key" });
  addFull("collection.expire options", "any", (e, x) => e.auto.expire("d", x), { mention: "expire" });
  addFull("collection.expire { ttl }", "ttl", (e, x) => e.auto.expire("d", { ttl: x }), { mention: "ttl", expireMissing: true });
  addFull("collection.expire { expiresAt }", "expiresAt", (e, x) => e.auto.expire("d", { expiresAt: x }), { mention: "expiresAt", expireMissing: true });
  addFull("collection.put document", "any", (e, x) => e.coll.put(x), { mention: "document" });
  addFull("collection.put id", "key", (e, x) => e.coll.put({ id: x, at: 1 }), { mention: "id" });
  addFull("collection.put TTL field", "value", (e, x) => e.coll.put({ id: "d", at: x }), { mention: "document", fieldIsData: true });
  addFull("collection.update id", "key", (e, x) => e.coll.update(x, (d) => d), { mention: "key" });
  addFull("collection.update updater", "listener", (e, x) => e.coll.update("d", x), { mention: "collection update updater" });
  addFull("collection.update document", "updated", (e, x) => e.coll.update("d", () => x), { mention: ["updated document", "collection \"c\" update(\"d\")"] });
  addFull("collection.putMany documents", "array", (e, x) => e.coll.putMany(x), { mention: "putMany document" });
  for (const m of ["get", "delete"]) addFull(`collection.${m} id`, "key", (e, x) => e.coll[m](x), { mention: "key" });
  for (const m of ["getMany", "deleteMany"]) addFull(`collection.${m} ids`, "keys", (e, x) => e.coll[m](x), { mention: `${m} ids` });
  addFull("collection.setExpireAfter", "expireAfter", (e, x) => e.coll.setExpireAfter(x), { mention: "expireAfter" });
  addFull("collection.setTiers", "any", (e, x) => e.coll.setTiers(x), { mention: "tiers" });
  addFull("ttlIndex { tiers }", "any", (e, x) => e.store.collection("c8", { ttlIndex: { field: "at", tiers: x } }), { mention: "tiers" });
  addFull("tier { after }", "expireAfter", (e, x) => e.store.collection("c9", { ttlIndex: { field: "at", tiers: [{ after: x, action: "archive" }] } }), { mention: "ttlIndex.tiers[0]" });
  addFull("tier { action }", "any", (e, x) => e.store.collection("c10", { ttlIndex: { field: "at", tiers: [{ after: 1, action: x }] } }), { mention: "ttlIndex.tiers[0]" });
  addFull("collection.archive.get id", "key", (e, x) => e.coll.archive.get(x), { mention: "key" });
  // Time series.
  addFull("timeSeries name", "name", (e, x) => e.store.timeSeries(x, { timeField: "t" }), { mention: "time series name" });
  addFull("timeSeries options", "options", (e, x) => e.store.timeSeries("t2", x), { mention: ["timeSeries options", "\"t2\""], nullMeansExisting: true });
  addFull("timeSeries { metaField }", "field", (e, x) => e.store.timeSeries("t6", { timeField: "t", metaField: x }), { mention: "metaField", absentOk: true });
  addFull("timeSeries { timeField }", "field", (e, x) => e.store.timeSeries("t3", { timeField: x }), { mention: "timeField" });
  addFull("timeSeries { granularity }", "any", (e, x) => e.store.timeSeries("t4", { timeField: "t", granularity: x }), { mention: "granularity", absentOk: true });
  addFull("timeSeries { expireAfter }", "expireAfter", (e, x) => e.store.timeSeries("t5", { timeField: "t", expireAfter: x }), { mention: "expireAfter", absentOk: true });
  addFull("timeSeries.insert event", "any", (e, x) => e.ts.insert(x), { mention: "event" });
  addFull("timeSeries.insert time", "expiresAt", (e, x) => e.ts.insert({ t: x, v: 1 }), { mention: "event 0", timeRequired: true });
  addFull("timeSeries.insertMany events", "array", (e, x) => e.ts.insertMany(x), { mention: "insertMany event" });
  addFull("timeSeries.query options", "options", (e, x) => e.ts.query(x), { mention: "query options" });
  addFull("timeSeries.query { from }", "bound", (e, x) => e.ts.query({ from: x }), { mention: "from" });
  // Long work's last argument, { signal, onProgress }: an AbortSignal and a function, nothing
  // else (an aborted signal and a throwing onProgress are cases of their own, after the values).
  for (const [m, call] of [
    ["setMany", (e, o) => e.store.setMany([["a", 1]], o)],
    ["import", (e, o) => e.store.import(empty, o)],
    ["export", (e, o) => e.store.export(o)],
    ["clear", (e, o) => e.store.clear(o)],
    ["reap", (e, o) => e.store.reap(o)],
  ]) {
    add(`${m} options`, "options", (e, x) => call(e, x), { mention: `${m} options` });
    add(`${m} { signal }`, "signal", (e, x) => call(e, { signal: x }), { mention: "signal" });
    add(`${m} { onProgress }`, "progress", (e, x) => call(e, { onProgress: x }), { mention: "onProgress" });
  }
  // A TTL index built over a collection's stored documents is long work too.
  addFull("collection progress options", "options", (e, x) => e.store.collection("c13", { ttlIndex: { field: "at", expireAfter: 1 } }, x), { mention: "collection progress options" });
  addFull("collection { signal }", "signal", (e, x) => e.store.collection("c14", { ttlIndex: { field: "at", expireAfter: 1 } }, { signal: x }), { mention: "signal" });
  addFull("collection { onProgress }", "progress", (e, x) => e.store.collection("c15", { ttlIndex: { field: "at", expireAfter: 1 } }, { onProgress: x }), { mention: "onProgress" });
  add("exportStream options", "options", (e, x) => { e.store.exportStream(x).cancel(); }, { mention: "exportStream options", sync: true });
  add("exportStream { signal }", "signal", (e, x) => { e.store.exportStream({ signal: x }).cancel(); }, { mention: "signal", sync: true });
  // ttlFromHeaders (synchronous).
  addFull("ttlFromHeaders headers", "headers", (e, x) => e.ttlFromHeaders(x), { mention: "ttlFromHeaders headers", sync: true });
  addFull("ttlFromHeaders header value", "headerValue", (e, x) => e.ttlFromHeaders({ "Cache-Control": x }), { mention: "ttlFromHeaders headers[\"Cache-Control\"]", sync: true });
  addFull("ttlFromHeaders now", "now", (e, x) => e.ttlFromHeaders({ "cache-control": "max-age=60" }, x), { mention: "ttlFromHeaders now", sync: true });
  return p;
}

/** What the oracle expects of `kind` for the value `id`, with each position's own exceptions. */
function expected(pos, id) {
  if (id === "undefined" && pos.absentOk) return ACCEPT;
  if (id === "undefined" && pos.timeRequired) return T;
  if (pos.expireMissing) return id === "undefined" ? T : ORACLE[pos.kind][id] ?? T; // "needs { ttl } or { expiresAt }"; a missing key: false
  if (pos.nullMeansExisting && (id === "undefined" || id === "null")) return T; // "t2 does not exist yet"
  if (pos.fieldIsData) {
    // A document's TTL field: any value that can be stored; a non-date never expires (no error),
    // but a number whose date in the index's unit is after year 9999 (2^53, 1e21 read as
    // seconds) is a RangeError: such a document would never expire.
    if (id === "twoTo53" || id === "n1e21") return R;
    return ORACLE.value[id] ?? T;
  }
  return ORACLE[pos.kind][id] ?? T;
}

/**
 * ttlFromHeaders against hostile headers objects: `[what, make, want, ttl or message part]`. An
 * accepted case must give that ttl (at now = 1_800_000_000); a refused one a TypeError whose
 * message has that part.
 */
function headerCases() {
  const boom = () => { throw new Error("boom from a trap"); };
  const wide = Object.fromEntries(Array.from({ length: BIG }, (_, i) => [`x-${i}`, "v"]));
  wide.AGE = "10";
  wide["cache-control"] = "max-age=60";
  return [
    ["a getter on Cache-Control that throws", () => ({ get "Cache-Control"() { throw new Error("boom from a getter"); } }), T, "boom from a getter"],
    ["a getter on another header that throws", () => ({ "cache-control": "max-age=5", get "x-other"() { throw new Error("boom"); } }), ACCEPT, 5],
    ["a Proxy whose ownKeys trap throws", () => new Proxy({}, { ownKeys: boom }), T, "boom from a trap"],
    ["a Proxy whose get trap throws", () => new Proxy({ age: "1" }, { get: boom }), T, "ttlFromHeaders headers"],
    ["a Proxy over a Headers", () => new Proxy(new Headers({ age: "1" }), {}), T, "ttlFromHeaders headers.get(\"cache-control\") cannot be read"],
    ["an object that claims to be a Headers", () => ({ [Symbol.toStringTag]: "Headers", age: "1" }), T, "ttlFromHeaders headers"],
    ["a Headers whose own get throws (the real get is used)", () => Object.assign(new Headers({ "cache-control": "max-age=5" }), { get: boom }), ACCEPT, 5],
    ["a Headers subclass", () => new (class extends Headers {})({ "cache-control": "max-age=7" }), ACCEPT, 7],
    ["a 10 MB Cache-Control in a Headers", () => new Headers({ "cache-control": `max-age=9, ${"x".repeat(10_000_000)}` }), ACCEPT, 9],
    ["a 10 MB Expires", () => ({ expires: "x".repeat(10_000_000) }), ACCEPT, 0],
    ["a 10 MB Cache-Control of quotes and commas", () => ({ "cache-control": "\",".repeat(5_000_000) }), ACCEPT, undefined],
    ["100 000 header names", () => wide, ACCEPT, 50],
    ["a value with a toString that throws", () => ({ age: { toString: boom } }), T, "ttlFromHeaders headers[\"age\"]"],
    ["a String object as a value", () => ({ Expires: new String("0") }), T, "a String object"],
    ["a symbol-keyed header", () => ({ [Symbol("age")]: "5", "cache-control": "max-age=60" }), ACCEPT, 60],
  ];
}

/** Adds `[ms, what]` to `list`, keeping its five slowest, slowest first. */
function keepSlowest(list, ms, what) {
  list.push([Math.round(ms), what]);
  list.sort((a, b) => b[0] - a[0]);
  list.length = Math.min(list.length, 5);
}

/** Keeps the five slowest calls in the report (`slowest: [[ms, case]]`), to see where time goes. */
function slowest(report, where, ms) {
  report.byValue ??= {};
  const id = where.split(" <- ")[1];
  report.byValue[id] = Math.round((report.byValue[id] || 0) + ms);
  keepSlowest((report.slowest ??= []), ms, where);
}

/** Counts the records of the five object stores with plain IndexedDB, on its own connection. */
async function rawCounter(dbName) {
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => resolve(open.result);
  });
  db.onversionchange = () => db.close();
  const names = ["entries", "docs", "buckets", "meta", "archive"];
  const count = () => new Promise((resolve, reject) => {
    const tx = db.transaction(names);
    const counts = {};
    for (const n of names) tx.objectStore(n).count().onsuccess = (ev) => { counts[n] = ev.target.result; };
    tx.oncomplete = () => resolve(JSON.stringify(counts));
    tx.onerror = () => reject(tx.error);
  });
  return { count, close: () => db.close() };
}

/** The default entry's TtlStore members that idb-ttl/lite lacks once the crate's feature `full` gates them. */
const FULL_MEMBERS = ["collection", "timeSeries", "archive", "shred"];
/** The default entry's exports that idb-ttl/lite never has. */
const FULL_EXPORTS = ["ttlFromHeaders", "Collection", "TimeSeries"];

/**
 * idb-ttl/lite's own cases, `[what, run]`: `run()` resolves to nothing, or to what went wrong. Its
 * exports lack the default entry's; once `gated` (TtlStore.prototype has no `collection`), its
 * TtlStore lacks every default-only member, and refuses their open options and snapshot parts with
 * a TypeError naming them.
 */
function liteCases(module, env, gated) {
  const cases = [];
  for (const name of FULL_EXPORTS) cases.push([`idb-ttl/lite has no export ${name}`, () => (name in module ? `it exports ${name}` : null)]);
  const present = FULL_MEMBERS.filter((m) => m in module.TtlStore.prototype);
  cases.push(["idb-ttl/lite's TtlStore has all of the default entry's members or none",
    () => (present.length !== 0 && present.length !== FULL_MEMBERS.length ? `it has ${present.join(", ")} only` : null)]);
  if (!gated) return cases;
  for (const m of FULL_MEMBERS) cases.push([`idb-ttl/lite's TtlStore has no ${m}`, () => (env.store[m] !== undefined ? `a store has ${m}` : null)]);
  const refused = async (call, part) => {
    try {
      const r = await Promise.race([call(), timeout(HANG_MS)]);
      if (r && typeof r.close === "function") r.close();
      return "accepted";
    } catch (e) {
      if (!(e instanceof TypeError)) return `${e && e.name}: ${e && e.message}`;
      return String(e.message).includes(part) ? null : `the message does not name ${part}: ${String(e.message).slice(0, 200)}`;
    }
  };
  for (const [part, options] of [
    ["archiveFor", { archiveFor: 60 }],
    ["onExpire", { onExpire: () => {} }],
    ["encryption", { encryption: true }],
    ["encryption", { encryption: { keyTtl: 60 } }],
  ]) {
    cases.push([`idb-ttl/lite refuses TtlStore.open ${JSON.stringify(options)}`, () => refused(() => env.TtlStore.open(env.scratch(), options), part)]);
  }
  for (const [part, item] of [["collections", { name: "c", documents: [] }], ["timeSeries", { name: "t", timeField: "t", events: [] }]]) {
    cases.push([`idb-ttl/lite refuses to import a snapshot with ${part}`, () => refused(() => env.store.import({ ...empty, [part]: [item] }), part)]);
  }
  return cases;
}

const timeout = (ms) => new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms (hung)`)), ms));

/**
 * The bound on one call, and the store's own `timeoutMs`: a hang detector, not a speed check. A
 * loaded machine (2 cores, CPU hogs, four page files at once) took over 20 s for IndexedDB to
 * answer an open; a call that is not answered in two minutes has hung.
 */
export const HANG_MS = 120_000;

/**
 * Runs every case against a fresh database `dbName`, with `module` the package's `entry`: "default"
 * (idb-ttl) or "lite" (idb-ttl/lite: the key-value cases and liteCases, not the default entry's
 * members). With `shard: [k, n]` (1 <= k <= n) only the k-th of n parts: the cases whose place in
 * the catalogue's order, counted from 0, is k - 1 modulo n (a case left out for the lite entry
 * takes a place too, so `skipped` is sharded the same way). `onProgress(cases, at)` is called as
 * cases complete (`at`: where the run is). Resolves to `{ entry, shard, gated, cases, skipped,
 * liteCases, total: { cases, skipped, liteCases }, outcomes: { accepted, TypeError, RangeError },
 * failures: [text], opened, databases }`: `cases`, `skipped` and `liteCases` are this shard's,
 * `total` the whole catalogue's (what the n shards together must add up to). With `only` (a list
 * of positions' labels, such as "set key"), the catalogue is those positions' cases, every value
 * in each: no other position, headers, long-work or lite cases (`report.only` says so).
 */
export async function runCatalogue(module, dbName, { entry = "default", shard = [1, 1], only, onProgress = () => {} } = {}) {
  const [part, parts] = shard;
  if (only !== undefined && !(Array.isArray(only) && only.length > 0 && only.every((l) => positions().some((p) => p.label === l)))) {
    throw new Error(`only: not a list of the catalogue's positions: ${JSON.stringify(only)}`);
  }
  const began = performance.now();
  if (!(Number.isInteger(parts) && parts >= 1 && Number.isInteger(part) && part >= 1 && part <= parts)) throw new Error(`no shard ${part}/${parts}`);
  // Each case of the catalogue, in order, takes the next place; this shard runs every parts-th.
  let place = 0;
  const total = { cases: 0, skipped: 0, liteCases: 0 };
  const mine = (kind = "cases") => {
    total[kind]++;
    if (kind === "liteCases") total.cases++;
    return place++ % parts === part - 1;
  };
  const { TtlStore, ttlFromHeaders } = module;
  const lite = entry === "lite";
  const gated = !("collection" in TtlStore.prototype);
  const values = hostileValues();
  const scratchNames = [];
  const env = {
    TtlStore,
    ttlFromHeaders,
    scratch: () => { const n = `${dbName}-scratch-${scratchNames.length}`; scratchNames.push(n); return n; },
  };
  // A fresh database for the cases, and again after an accepted call stored a 10 MB string or a
  // 100 000-element array: a clear() leaves such deleted records behind for a while, and every
  // later count would walk over them.
  let raw;
  let generation = 0;
  const fresh = async () => {
    if (env.store) {
      env.store.close();
      raw.close();
      await TtlStore.destroy(env.name);
    }
    env.name = `${dbName}-${generation++}`;
    env.store = await TtlStore.open(env.name, { autoReap: false, timeoutMs: HANG_MS });
    if (!lite) {
      env.coll = await env.store.collection("c", { ttlIndex: { field: "at", expireAfter: 3600 } });
      env.auto = await env.store.collection("a", { ttlIndex: { automatic: true, expireAfter: 3600 } });
      env.ts = await env.store.timeSeries("t", { timeField: "t", expireAfter: 3600 });
    }
    raw = await rawCounter(env.name);
    return raw.count();
  };
  const report = { entry, shard: `${part}/${parts}`, only: only ?? null, gated, cases: 0, skipped: 0, liteCases: 0, total, outcomes: { [ACCEPT]: 0, [T]: 0, [R]: 0 }, failures: [], phases: {}, slowPhases: [] };
  // Where the shard's time went besides its calls (`phases`: a fresh database after a big
  // accepted value, the counts after each case, clears, the scratch databases' destroys).
  const timed = async (phase, work) => {
    const t0 = performance.now();
    try { return await work(); } finally {
      const ms = performance.now() - t0;
      const p = (report.phases[phase] ??= [0, 0]);
      p[0] = Math.round(p[0] + ms);
      p[1]++;
      // The five slowest, with the case they followed: a count is slow after a case that left
      // the backend work to do.
      keepSlowest(report.slowPhases, ms, `${phase} after ${globalThis.catalogueAt ?? "nothing (the first)"}`);
    }
  };
  const progress = (at) => { globalThis.catalogueAt = at; onProgress(report.cases, at); };
  if (!["default", "lite"].includes(entry)) throw new Error(`no entry ${entry}`);
  if (!lite && gated) report.failures.push(`the default entry's TtlStore has no ${FULL_MEMBERS.filter((m) => !(m in TtlStore.prototype)).join(", ")}`);
  let baseline = await timed("fresh", fresh);
  const count = () => timed("count", () => raw.count());
  for (const pos of positions()) {
    if (only && !only.includes(pos.label)) continue;
    for (const [id, v] of Object.entries(values)) {
      if (lite && pos.full) {
        if (mine("skipped")) report.skipped++;
        continue;
      }
      if (pos.stores && ORACLE.value[id] !== ACCEPT) continue;
      if (!mine()) continue;
      const want = expected(pos, id);
      const where = `${pos.label} <- ${id}`;
      progress(where); // where a run that stalls stopped
      const started = performance.now();
      report.cases++;
      let got;
      let error;
      try {
        const r = pos.call(env, v.make());
        if (pos.sync) got = ACCEPT;
        else { await Promise.race([r, timeout(HANG_MS)]); got = ACCEPT; }
      } catch (e) {
        error = e;
        got = e instanceof TypeError ? T : e instanceof RangeError ? R : `${e && e.name}`;
      }
      report.outcomes[got] = (report.outcomes[got] || 0) + 1;
      if (got !== want) {
        report.failures.push(`${where}: expected ${want}, got ${got}${error ? ` (${error.name}: ${String(error.message).slice(0, 200)})` : ""}`);
        continue;
      }
      slowest(report, where, performance.now() - started);
      if (got === ACCEPT) {
        // What an accepted call stored (a 10 MB key...) must not slow down the cases after it.
        if ((await count()) !== baseline) {
          if (id === "string10MB" || id === "keys100k") baseline = await timed("fresh", fresh);
          else {
            await timed("clear", async () => {
              await env.store.clear();
              if (!lite) {
                await env.coll.clear();
                await env.ts.clear();
              }
            });
            baseline = await count();
          }
        }
        continue;
      }
      const message = String(error.message);
      const mentions = [].concat(pos.mention);
      if (!mentions.some((m) => message.includes(m))) report.failures.push(`${where}: the message does not name the argument (${pos.mention}): ${message.slice(0, 200)}`);
      // A missing required option is named by the option, not as "undefined".
      if (v.shown && id !== "undefined" && !message.includes(v.shown) && !["options", "any", "array", "keys", "value", "updated"].includes(pos.kind)) {
        report.failures.push(`${where}: the message does not show the value (${v.shown}): ${message.slice(0, 200)}`);
      }
      const now = await count();
      if (now !== baseline) report.failures.push(`${where}: a refused call wrote something: ${baseline} -> ${now}`);
    }
  }
  for (const [what, make, want, expect] of lite || only ? [] : headerCases()) {
    if (!mine()) continue;
    const where = `ttlFromHeaders <- ${what}`;
    progress(where);
    report.cases++;
    let got;
    let error;
    let ttl;
    try {
      ttl = ttlFromHeaders(make(), 1_800_000_000);
      got = ACCEPT;
    } catch (e) {
      error = e;
      got = e instanceof TypeError ? T : e instanceof RangeError ? R : `${e && e.name}`;
    }
    report.outcomes[got] = (report.outcomes[got] || 0) + 1;
    if (got !== want) report.failures.push(`${where}: expected ${want}, got ${got}${error ? ` (${error.name}: ${String(error.message).slice(0, 200)})` : ""}`);
    else if (got === ACCEPT && ttl !== expect) report.failures.push(`${where}: expected the ttl ${expect}, got ${ttl}`);
    else if (got !== ACCEPT && !String(error.message).includes(expect)) report.failures.push(`${where}: the message lacks ${expect}: ${String(error.message).slice(0, 200)}`);
  }
  // Long work stopped before it starts (an aborted signal), or by its own onProgress throwing
  // while 30 000 entries are written: rejects with that very reason, and nothing is written.
  const reason = new Error("stopped by the catalogue");
  const items = Array.from({ length: 30_000 }, (_, i) => [`long${i}`, i]);
  for (const [what, call] of only ? [] : [
    ["setMany with an aborted signal", () => env.store.setMany(items, { signal: AbortSignal.abort(reason) })],
    ["import with an aborted signal", () => env.store.import(empty, { signal: AbortSignal.abort(reason) })],
    ["clear with an aborted signal", () => env.store.clear({ signal: AbortSignal.abort(reason) })],
    ["reap with an aborted signal", () => env.store.reap({ signal: AbortSignal.abort(reason) })],
    ["export with an aborted signal", () => env.store.export({ signal: AbortSignal.abort(reason) })],
    ["setMany with a throwing onProgress", () => env.store.setMany(items, { onProgress: () => { throw reason; } })],
  ]) {
    if (!mine()) continue;
    progress(what);
    report.cases++;
    let got;
    try {
      await Promise.race([call(), timeout(HANG_MS)]);
      got = "it resolved";
    } catch (e) {
      got = e;
    }
    if (got !== reason) report.failures.push(`${what}: expected a rejection with the reason itself, got ${got && got.message ? got.message : got}`);
    const now = await raw.count();
    if (now !== baseline) report.failures.push(`${what}: something was written or removed: ${baseline} -> ${now}`);
  }
  for (const [what, run] of lite && !only ? liteCases(module, env, gated) : []) {
    if (!mine("liteCases")) continue;
    progress(what);
    report.cases++;
    report.liteCases++;
    const wrong = await run();
    if (wrong) report.failures.push(`${what}: ${wrong}`);
    const now = await raw.count();
    if (now !== baseline) report.failures.push(`${what}: something was written or removed: ${baseline} -> ${now}`);
  }
  progress("after the cases");
  // The store and its collection and time series still work.
  await env.store.set("after", { ok: true }, { ttl: 60 });
  const after = await env.store.get("after");
  if (!after || after.ok !== true) report.failures.push(`the store does not work after the catalogue: ${JSON.stringify(after)}`);
  if (!lite) {
    await env.coll.put({ id: "after", at: Date.now() / 1000 + 86_400 });
    if (!(await env.coll.get("after"))) report.failures.push("the collection does not work after the catalogue");
    await env.ts.insert({ t: Date.now() / 1000, v: 1 });
    if ((await env.ts.count()) < 1) report.failures.push("the time series does not work after the catalogue");
  }
  // Every accepted view was stopped and no refused one was kept.
  const { views } = env.store.stats();
  if (views !== 0) report.failures.push(`views left open after the catalogue: ${views}`);
  progress("closing");
  env.store.close();
  raw.close();
  await TtlStore.destroy(env.name);
  for (const n of scratchNames) {
    progress(`destroying ${n}`);
    await timed("scratch destroy", () => TtlStore.destroy(n));
  }
  report.opened = scratchNames.length;
  report.databases = generation;
  report.ms = Math.round(performance.now() - began);
  return report;
}
