// Snapshots for store.export() / store.import() (CockroachDB keeps TTL through BACKUP/RESTORE).
//
// A snapshot is plain JSON: it survives JSON.stringify / JSON.parse, a file, a server. JSON carries
// null, booleans, finite numbers, strings, arrays and plain objects; a Date is carried as
// { "$date": "<ISO-8601>" }. Anything JSON would drop or change (undefined, NaN, Infinity, -0,
// BigInt, Map, Set, Blob, typed arrays, class instances, sparse arrays, an object whose only key
// is "$date") is refused with a TypeError naming the entry and the path, never silently mangled.

const FORMAT = "idb-ttl-snapshot";

function refuse(where, path, what) {
  throw new TypeError(
    `${where}: ${path} is ${what}, which a JSON snapshot cannot carry; store it as JSON data ` +
      `(strings, numbers, booleans, null, arrays, plain objects, Date) or leave it out of the export`,
  );
}

function encode(v, where, path) {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) refuse(where, path, String(v));
    if (Object.is(v, -0)) refuse(where, path, "-0");
    return v;
  }
  if (typeof v !== "object") refuse(where, path, v === undefined ? "undefined" : `a ${typeof v}`);
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) refuse(where, path, "an Invalid Date");
    return { $date: v.toISOString() };
  }
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) refuse(where, `${path}[${i}]`, "a hole in a sparse array");
      out[i] = encode(v[i], where, `${path}[${i}]`);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) {
    refuse(where, path, `a ${v.constructor && v.constructor.name ? v.constructor.name : "non-plain object"}`);
  }
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === "$date") refuse(where, path, 'an object shaped like a Date tag ({ "$date": ... })');
  const out = {};
  for (const k of keys) out[k] = encode(v[k], where, `${path}.${k}`);
  return out;
}

function decode(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(decode);
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === "$date") return new Date(v.$date);
  const out = {};
  for (const k of keys) out[k] = decode(v[k]);
  return out;
}

const secs = (ms) => (ms === Infinity ? null : ms / 1000);
const label = (k) => JSON.stringify(k);

// entryRecs: { k, e, v }; collections: [definition, { c, r, i, v } records]; series: [definition, buckets].
export function buildSnapshot(database, now, entryRecs, collections, series) {
  const snapshot = { format: FORMAT, version: 1, database, exportedAt: now / 1000, entries: [], collections: [], timeSeries: [] };
  for (const r of entryRecs) {
    if (r.e <= now) continue;
    snapshot.entries.push({ key: r.k, expiresAt: secs(r.e), value: encode(r.v, `entry ${label(r.k)}`, "value") });
  }
  for (const [def, recs] of collections) {
    const ttl = def.ttlIndex;
    const out = { name: def.name, keyPath: def.keyPath, ttlIndex: ttl && { field: ttl.field, expireAfter: ttl.expireAfterSecs, unit: ttl.unit }, documents: [] };
    for (const r of recs) {
      const expiresAt = ttl && r.r !== Infinity ? r.r + ttl.expireAfterSecs * 1000 : Infinity;
      if (expiresAt <= now) continue;
      out.documents.push({ expiresAt: secs(expiresAt), document: encode(r.v, `collection ${label(def.name)} document ${label(r.i)}`, "document") });
    }
    snapshot.collections.push(out);
  }
  for (const [def, buckets] of series) {
    const after = def.expireAfterSecs;
    const out = {
      name: def.name,
      options: { timeField: def.timeField, metaField: def.metaField, granularity: def.granularity, expireAfter: after },
      buckets: [],
    };
    const cutoff = after === null ? -Infinity : now - after * 1000;
    for (const b of buckets) {
      const events = [];
      b.ev.forEach((e, i) => {
        if (b.ts[i] > cutoff) events.push(encode(e, `time series ${label(def.name)} event`, `events[${events.length}]`));
      });
      if (events.length === 0) continue;
      out.buckets.push({ meta: b.m, expiresAt: after === null ? null : (b.l + after * 1000) / 1000, events });
    }
    snapshot.timeSeries.push(out);
  }
  return snapshot;
}

function need(cond, what) {
  if (!cond) throw new TypeError(`import: ${what}; expected a snapshot made by store.export() (format "${FORMAT}", version 1)`);
}

// What to restore, values decoded and anything expired at `now` left out (counted in `skipped`).
export function readSnapshot(s, now) {
  need(s !== null && typeof s === "object" && s.format === FORMAT, `the value is not an idb-ttl snapshot`);
  need(s.version === 1, `snapshot version ${JSON.stringify(s.version)} is not supported`);
  for (const k of ["entries", "collections", "timeSeries"]) need(Array.isArray(s[k]), `snapshot.${k} is not an array`);
  let skipped = 0;
  const entries = [];
  s.entries.forEach((e, i) => {
    need(e && typeof e === "object" && "key" in e && "value" in e, `snapshot.entries[${i}] has no key or value`);
    need(e.expiresAt === null || typeof e.expiresAt === "number", `snapshot.entries[${i}].expiresAt is not Unix seconds or null`);
    if (e.expiresAt !== null && e.expiresAt * 1000 <= now) { skipped++; return; }
    entries.push([e.key, decode(e.value), e.expiresAt]);
  });
  const collections = s.collections.map((c, i) => {
    need(c && typeof c.name === "string" && Array.isArray(c.documents), `snapshot.collections[${i}] has no name or documents`);
    const documents = [];
    for (const d of c.documents) {
      if (d.expiresAt !== null && d.expiresAt * 1000 <= now) { skipped++; continue; }
      documents.push(decode(d.document));
    }
    return { name: c.name, keyPath: c.keyPath, ttlIndex: c.ttlIndex, documents };
  });
  const timeSeries = s.timeSeries.map((t, i) => {
    need(t && typeof t.name === "string" && t.options && Array.isArray(t.buckets), `snapshot.timeSeries[${i}] has no name, options or buckets`);
    const cutoff = t.options.expireAfter == null ? -Infinity : now - t.options.expireAfter * 1000;
    const events = [];
    for (const b of t.buckets) {
      for (const e of b.events) {
        const ev = decode(e);
        const time = ev[t.options.timeField];
        const ms = time instanceof Date ? time.getTime() : typeof time === "number" ? time * 1000 : Date.parse(time);
        if (ms <= cutoff) { skipped++; continue; }
        events.push(ev);
      }
    }
    const options = { ...t.options };
    if (options.metaField === null) delete options.metaField;
    if (options.expireAfter === null) delete options.expireAfter;
    return { name: t.name, options, events };
  });
  return { entries, collections, timeSeries, skipped };
}
