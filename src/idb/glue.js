// Per-record helpers for the IndexedDB adapter (src/idb/mod.rs). They run on the JS side of the
// wasm boundary so that building, filtering and mapping thousands of records costs one call, not
// one call per field. No logic about *when* things expire lives here: `now` always comes from Rust.

// A stored record. The object store's in-line key path is ["e", "k"]: records sort by expiry
// (Unix ms, Infinity = never), so everything expired is one contiguous key range.
export function record(k, e, v) { return { k, e, v }; }
export function recordExpiry(r) { return r.e; }
export function recordValue(r) { return r.v; }

// Parts of compound primary keys ([e, k] for entries, [c, r, i] for documents).
export function pkAt(pk, n) { return pk[n]; }
export function pkPart(pks, n) { return pks.map((p) => p[n]); }
export function lastOf(arr) { return arr[arr.length - 1]; }

// Reads of the by_key index come back in key order; keep the live ones.
export function liveKeys(pks, now) {
  const out = [];
  for (const p of pks) if (p[0] > now) out.push(p[1]);
  return out;
}
export function liveValues(recs, now) {
  const out = [];
  for (const r of recs) if (r.e > now) out.push(r.v);
  return out;
}
export function liveEntries(recs, now) {
  const out = [];
  for (const r of recs) if (r.e > now) out.push([r.k, r.v]);
  return out;
}

// Indices of `keys` to write when the same key appears more than once: the last one wins, as if
// the writes ran one after another. Map equality matches IndexedDB's for string and number keys.
export function lastWins(keys) {
  const last = new Map();
  keys.forEach((k, i) => last.set(k, i));
  return Uint32Array.from(last.values()).sort();
}

// A put that may fail on the unique key index without aborting the transaction: the caller
// looked up the old record in the same transaction and fixes things up (see Conn::write).
// Any other failure (quota, clone) aborts as usual.
export function putSpeculative(store, rec) {
  const req = store.put(rec);
  req.onerror = (event) => {
    if (req.error && req.error.name === "ConstraintError") {
      event.preventDefault();
      event.stopPropagation();
    }
  };
}

// Resolves with the request's result, rejects with its DOMException.
export function settle(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

// Collections: records { c, r, i, v } keyed [collection, reference ms, id].
export function docRecord(c, r, i, v) { return { c, r, i, v }; }
export function liveDocValues(recs, cutoff) {
  const out = [];
  for (const r of recs) if (r.r > cutoff) out.push(r.v);
  return out;
}
export function liveDocValue(rec, cutoff) {
  return rec !== undefined && rec.r > cutoff ? rec.v : undefined;
}
export function allDocs(recs) { return recs.map((r) => r.v); }

// Time series: buckets { s, l, k, t, q, m, n, ts, ev } keyed [series, latest ms, meta key, span
// start, sequence]. `ts` holds each event's time in ms, parallel to `ev`.
export function bucketRecord(s, k, t, q, m, ts, ev) {
  let l = -Infinity;
  for (const x of ts) if (x > l) l = x;
  return { s, l, k, t, q, m, n: ev.length, ts, ev };
}
// A bucket with `events[from..to]` (times in `times`) appended.
export function appendToBucket(b, times, events, from, to) {
  const ts = b ? b.ts.slice() : [];
  const ev = b ? b.ev.slice() : [];
  for (let i = from; i < to; i++) { ts.push(times[i]); ev.push(events[i]); }
  return { ts, ev };
}
export function bucketPart(b, name) { return b[name]; }
// Events of `buckets` with time in [from, to] and after `cutoff`, oldest first.
export function eventsIn(buckets, from, to, cutoff) {
  const hits = [];
  for (const b of buckets) {
    for (let i = 0; i < b.ev.length; i++) {
      const t = b.ts[i];
      if (t >= from && t <= to && t > cutoff) hits.push([t, b.ev[i]]);
    }
  }
  hits.sort((a, b) => a[0] - b[0]);
  return hits.map((h) => h[1]);
}
export function countEvents(buckets, cutoff) {
  let n = 0;
  for (const b of buckets) for (const t of b.ts) if (t > cutoff) n++;
  return n;
}
