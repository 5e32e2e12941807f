// Snapshots for store.export() / store.import() (CockroachDB keeps TTL through BACKUP/RESTORE).
//
// A snapshot is plain JSON: it survives JSON.stringify / JSON.parse, a file, a server. JSON carries
// null, booleans, finite numbers, strings, arrays and plain objects; a Date is carried as
// { "$date": "<ISO-8601>" }. Anything JSON would drop or change (undefined, NaN, Infinity, -0,
// BigInt, Map, Set, Blob, typed arrays, class instances, sparse arrays, an object whose only key
// is "$date") is refused with a TypeError naming the entry and the path, never silently mangled.

const FORMAT = "idb-ttl-snapshot";

// "a Map", "an ArrayBuffer", "an HTMLDivElement": what a non-plain object is, for messages.
export function kindOf(v) {
  const name = v.constructor && v.constructor.name ? v.constructor.name : "non-plain object";
  return /^([AEIO]|[FHLMNRSX][A-Z])/.test(name) ? `an ${name}` : `a ${name}`;
}

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
    refuse(where, path, kindOf(v));
  }
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === "$date") refuse(where, path, 'an object shaped like a Date tag ({ "$date": ... })');
  const out = {};
  for (const k of keys) out[k] = encode(v[k], where, `${path}.${k}`);
  return out;
}

const secs = (ms) => (ms === Infinity ? null : ms / 1000);
const label = (k) => JSON.stringify(k);

// A stored window as an option takes it: seconds, or an ISO-8601 duration when it has months
// (as ttlIndex() shows it: "P1Y2M", "P3MT86400S").
const span = (months, secs) => {
  if (!months) return secs;
  const [y, m] = [Math.floor(months / 12), months % 12];
  return `P${y ? `${y}Y` : ""}${m ? `${m}M` : ""}${secs ? `T${secs}S` : ""}`;
};

// entryRecs: { k, e, v } (an idle entry's with i, its window in ms, and c, its cap); collections:
// [definition, { c, r, i, v } records, each record's expiry in ms]; series: [definition, buckets,
// [the cut-off, each bucket's expiry] in ms].
export function buildSnapshot(database, now, entryRecs, collections, series) {
  const snapshot = { format: FORMAT, version: 1, database, exportedAt: now / 1000, entries: [], collections: [], timeSeries: [] };
  for (const r of entryRecs) {
    if (r.e <= now) continue;
    const entry = { key: r.k, expiresAt: secs(r.e), value: encode(r.v, `entry ${label(r.k)}`, "value") };
    if (r.i !== undefined) Object.assign(entry, { idle: r.i / 1000, cap: secs(r.c ?? Infinity) });
    snapshot.entries.push(entry);
  }
  for (const [def, recs, expiries] of collections) {
    const ttl = def.ttlIndex;
    // An index with an archive tier or hand-offs is exported with its tiers (the archive itself
    // is not), and with its schedule; a pause is not carried over.
    const until = ttl ? ttl.archiveUntilSecs : undefined;
    const after = ttl && span(ttl.expireAfterMonths, ttl.expireAfterSecs);
    const handOff = (ttl && ttl.handOff) || [];
    const tiers = until === undefined && handOff.length === 0 ? undefined : [
      { after, action: until === undefined ? "delete" : "archive" },
      ...(ttl.middleTiers || []).map(([s, months]) => ({ after: span(months, s), action: "archive" })),
      ...(until !== undefined && Number.isFinite(until) ? [{ after: span(ttl.archiveUntilMonths, until), action: "delete" }] : []),
    ].map((tier, i) => (handOff.includes(i) ? { ...tier, handOff: true } : tier));
    const dated = ttl && (ttl.automatic ? { automatic: true } : { field: ttl.field, unit: ttl.unit });
    const index = ttl && {
      ...dated,
      ...(tiers ? { tiers } : { expireAfter: after }),
      ...(ttl.schedule ? { schedule: ttl.schedule } : {}),
    };
    const out = { name: def.name, keyPath: def.keyPath, ttlIndex: index, documents: [] };
    for (const [i, r] of recs.entries()) {
      const expiresAt = expiries[i];
      if (expiresAt <= now) continue;
      out.documents.push({ expiresAt: secs(expiresAt), document: encode(r.v, `collection ${label(def.name)} document ${label(r.i)}`, "document") });
    }
    snapshot.collections.push(out);
  }
  for (const [def, buckets, times] of series) {
    const after = def.expireAfterSecs;
    const out = {
      name: def.name,
      options: {
        timeField: def.timeField,
        metaField: def.metaField,
        ...(def.granularity === "custom"
          ? { bucketMaxSpanSeconds: def.bucketSpanSecs, bucketRoundingSeconds: def.bucketSpanSecs }
          : { granularity: def.granularity }),
        ...(def.maxBucketBytes === undefined ? {} : { maxBucketBytes: def.maxBucketBytes }),
        expireAfter: after === null ? null : span(def.expireAfterMonths, after),
      },
      buckets: [],
    };
    const cutoff = times[0];
    for (const [j, b] of buckets.entries()) {
      const events = [];
      b.ev.forEach((e, i) => {
        if (b.ts[i] > cutoff) events.push(encode(e, `time series ${label(def.name)} event`, `events[${events.length}]`));
      });
      if (events.length === 0) continue;
      out.buckets.push({ meta: b.m, expiresAt: secs(times[j + 1]), events });
    }
    snapshot.timeSeries.push(out);
  }
  return snapshot;
}

// A snapshot's value back to what was stored: JSON data as it is, a Date tag back to a Date.
// Anything a snapshot made by export() cannot hold (undefined, NaN, -0, a Map, a Date object, an
// ArrayBuffer, a DOM node, a sparse array, an invalid Date tag...) is refused by path: an import
// restores values faithfully or not at all.
function decode(v, path) {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") {
    if (!Number.isFinite(v) || Object.is(v, -0)) refuseImport(path, Object.is(v, -0) ? "-0" : String(v));
    return v;
  }
  if (typeof v !== "object") refuseImport(path, v === undefined ? "undefined" : `a ${typeof v}`);
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) refuseImport(`${path}[${i}]`, "a hole in a sparse array");
      out[i] = decode(v[i], `${path}[${i}]`);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) {
    refuseImport(path, kindOf(v));
  }
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === "$date") {
    const d = typeof v.$date === "string" ? new Date(v.$date) : new Date(NaN);
    if (Number.isNaN(d.getTime())) refuseImport(path, `a Date tag with no valid date (${JSON.stringify(v.$date)})`);
    return d;
  }
  const out = {};
  for (const k of keys) out[k] = decode(v[k], `${path}.${k}`);
  return out;
}

function refuseImport(path, what) {
  throw new TypeError(`import: ${path} is ${what}, which a snapshot made by export() cannot hold; ` +
    "snapshot values are JSON data (strings, finite numbers, booleans, null, arrays, plain objects) and Dates as { \"$date\": ISO }");
}

function need(cond, what) {
  if (!cond) throw new TypeError(`import: ${what}; expected a snapshot made by store.export() (format "${FORMAT}", version 1)`);
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const expiry = (v, path) => {
  need(v === null || typeof v === "number", `${path} is ${v === undefined ? "missing" : "not Unix seconds or null"}`);
  return v;
};

// What to restore, every value checked and decoded; nothing expired is left out here (the core
// checks each expiry as set() does, and skips what has expired). Reading a hostile object throws
// a TypeError (the caller reaches this through a catch binding).
//   { entries: [[key, value, expiresAt, idle, cap]], collections: [{ name, keyPath, ttlIndex, documents,
//     expiries }], timeSeries: [{ name, options, events }] }
export function readSnapshot(s) {
  try {
    return readSnapshotUnguarded(s);
  } catch (e) {
    if (e instanceof TypeError && e.message.startsWith("import: ")) throw e;
    throw new TypeError(`import: the snapshot cannot be read: ${e && e.name}: ${e && e.message}`, { cause: e });
  }
}

function readSnapshotUnguarded(s) {
  need(isObject(s) && s.format === FORMAT, "the value is not an idb-ttl snapshot");
  need(s.version === 1, `snapshot version ${JSON.stringify(s.version)} is not supported`);
  for (const k of ["entries", "collections", "timeSeries"]) need(Array.isArray(s[k]), `snapshot.${k} is not an array`);
  const entries = s.entries.map((e, i) => {
    const p = `snapshot.entries[${i}]`;
    need(isObject(e) && "key" in e && "value" in e, `${p} has no key or value`);
    return [e.key, decode(e.value, `${p}.value`), expiry(e.expiresAt, `${p}.expiresAt`), e.idle, e.cap];
  });
  const collections = s.collections.map((c, i) => {
    const p = `snapshot.collections[${i}]`;
    need(isObject(c) && typeof c.name === "string" && Array.isArray(c.documents), `${p} has no name or documents`);
    const documents = [];
    const expiries = [];
    c.documents.forEach((d, j) => {
      need(isObject(d) && "document" in d, `${p}.documents[${j}] has no document`);
      documents.push(decode(d.document, `${p}.documents[${j}].document`));
      expiries.push(expiry(d.expiresAt, `${p}.documents[${j}].expiresAt`));
    });
    return { name: c.name, keyPath: decode(c.keyPath, `${p}.keyPath`), ttlIndex: decode(c.ttlIndex ?? null, `${p}.ttlIndex`), documents, expiries };
  });
  const timeSeries = s.timeSeries.map((t, i) => {
    const p = `snapshot.timeSeries[${i}]`;
    need(isObject(t) && typeof t.name === "string" && isObject(t.options) && Array.isArray(t.buckets), `${p} has no name, options or buckets`);
    const events = [];
    t.buckets.forEach((b, j) => {
      need(isObject(b) && Array.isArray(b.events), `${p}.buckets[${j}] has no events`);
      b.events.forEach((e, k) => events.push(decode(e, `${p}.buckets[${j}].events[${k}]`)));
    });
    return { name: t.name, options: decode(t.options, `${p}.options`), events };
  });
  return { entries, collections, timeSeries };
}

// One snapshot of several: the pages export() reads, or what a stream gave import(). A chunk is a
// snapshot, or text of them (strings or bytes of JSON, one snapshot per line: what
// exportStream()'s snapshots make written one per line). Collections and time series of one name
// are joined; the header is the first snapshot's.
export function mergeSnapshots(chunks) {
  const parts = [];
  const decoder = new TextDecoder();
  let text = "";
  for (const c of chunks) {
    if (typeof c === "string") text += c;
    else if (c instanceof Uint8Array || c instanceof ArrayBuffer) text += decoder.decode(c, { stream: true });
    else parts.push(c);
  }
  text += decoder.decode();
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      parts.push(JSON.parse(line));
    } catch (e) {
      need(false, `line ${i + 1} of the stream is not JSON (${e.message})`);
    }
  });
  need(parts.length > 0, "the stream gave no snapshot");
  for (const p of parts) {
    need(isObject(p) && p.format === FORMAT, "a chunk of the stream is not an idb-ttl snapshot");
    for (const k of ["entries", "collections", "timeSeries"]) need(Array.isArray(p[k]), `a chunk's ${k} is not an array`);
  }
  const out = { ...parts[0], entries: [], collections: [], timeSeries: [] };
  const join = (into, byName, item, key) => {
    const have = byName.get(item.name);
    if (have) {
      need(Array.isArray(item[key]), `snapshot ${item.name} has no ${key}`);
      for (const x of item[key]) have[key].push(x);
    } else {
      const copy = { ...item, [key]: Array.isArray(item[key]) ? [...item[key]] : item[key] };
      byName.set(item.name, copy);
      into.push(copy);
    }
  };
  const collections = new Map();
  const series = new Map();
  for (const p of parts) {
    for (const e of p.entries) out.entries.push(e);
    for (const c of p.collections) join(out.collections, collections, c, "documents");
    for (const t of p.timeSeries) join(out.timeSeries, series, t, "buckets");
  }
  return out;
}

// Every chunk of `stream` (import() of a stream), as one snapshot. An aborted `signal` cancels the
// reading and throws its reason.
export async function readStream(stream, signal) {
  const reader = stream.getReader();
  const chunks = [];
  try {
    for (;;) {
      if (signal && signal.aborted) {
        reader.cancel(signal.reason).catch(() => {});
        throw signal.reason;
      }
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch (e) {
    if (signal && signal.aborted) throw signal.reason;
    throw new TypeError(`import: the stream failed: ${e && e.name}: ${e && e.message}`, { cause: e });
  } finally {
    reader.releaseLock();
  }
  return mergeSnapshots(chunks);
}

// exportStream()'s stream: `next()` resolves to the next snapshot (null at the end) when the stream
// is read; `stop()` ends the reading when it is cancelled.
export function snapshotStream(next, stop) {
  return new ReadableStream({
    async pull(controller) {
      const chunk = await next();
      if (chunk === null) controller.close();
      else controller.enqueue(chunk);
    },
    cancel() {
      stop();
    },
  }, { highWaterMark: 0 });
}
