// The JS side of the edge (src/js/convert.rs): every read of a user's value happens here, inside
// try/catch, and comes back as plain data. A throwing getter, a Proxy trap or a revoked Proxy
// becomes a TypeError that names the argument and the user's own error; nothing the user passes
// can throw inside wasm. Rust calls these through `catch` bindings.

const TAG = "\u0001";
const MAX_DEPTH = 8;
const toString = Object.prototype.toString;

const tag = (kind, v) => (v === undefined ? { [TAG]: kind } : { [TAG]: kind, v });

// Whether `s` has no lone surrogate (it would become U+FFFD in Rust, and two names would meet).
function wellFormed(s) {
  if (typeof s.isWellFormed === "function") return s.isWellFormed();
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

// "an ArrayBuffer", "an HTMLDivElement", "a Map", "a Uint8Array": the article a noun takes (an
// acronym's letter may sound like a vowel: "an HTML...", "an SVG...").
const article = (noun) => (/^([AEIO]|[FHLMNRSX][A-Z])/.test(noun) ? `an ${noun}` : `a ${noun}`);

function describeObject(v) {
  const kind = toString.call(v).slice(8, -1);
  if (kind === "Date") {
    const ms = Date.prototype.getTime.call(v);
    return Number.isNaN(ms) ? "an Invalid Date" : `Date(${ms})`;
  }
  if (kind === "ArrayBuffer") return `an ArrayBuffer (${v.byteLength} bytes)`;
  if (ArrayBuffer.isView(v)) return `${article(kind)} (${v.byteLength} bytes)`;
  if (kind === "Number" || kind === "String" || kind === "Boolean" || kind === "BigInt" || kind === "Symbol") {
    return `${article(kind)} object (${describe(v.valueOf())})`;
  }
  if (kind === "Map" || kind === "Set") return `${article(kind)} (${v.size} entries)`;
  if (Array.isArray(v) || kind === "Object") {
    let json;
    try { json = JSON.stringify(v); } catch { json = undefined; }
    if (json === undefined) return Array.isArray(v) ? "an array" : "an object";
    return json.length > 60 ? `${json.slice(0, 57)}...` : json;
  }
  return article(kind);
}

// A value as a developer would recognise it in a message: "abc", 12, NaN, {"a":1}, 5n,
// Date(1800000000000), a function, an HTMLDivElement, an ArrayBuffer (8 bytes). Never throws.
export function describe(v) {
  try {
    switch (typeof v) {
      case "string": {
        const cut = v.length > 100 ? `${JSON.stringify(v.slice(0, 100))}... (${v.length} characters)` : JSON.stringify(v);
        return wellFormed(v) ? cut : `${cut} (with a lone surrogate)`;
      }
      case "bigint": return `${v}n`;
      case "symbol": return `a symbol (${String(v.description)})`;
      case "function": return "a function";
      case "object": return v === null ? "null" : describeObject(v);
      default: return String(v);
    }
  } catch (e) {
    return `a value that cannot be read (${errorText(e)})`;
  }
}

export function errorText(e) {
  try {
    if (e instanceof Error) return `${e.name}: ${e.message}`;
    return String(e);
  } catch {
    return "an exception that cannot be shown";
  }
}

// The TypeError for a value whose reading threw: it names where, and carries the user's error.
function unreadable(what, at, e) {
  return new TypeError(`${what}${at} cannot be read: ${errorText(e)}`, { cause: e });
}

// `v` as plain data for the core (core/value.rs): primitives as they are, plain objects and
// arrays copied (own enumerable string keys, read once; properties set to undefined left out),
// null, Dates and everything else tagged. `keyed`, if given, names a top-level property whose
// value is replaced by its grouping key (see metaKey). Throws a TypeError naming `what` and the
// path if reading throws. `fns`, if given, receives the functions and other non-plain objects
// found as top-level properties (`onExpire`, `signal`), by name, so such an option is read once
// with the rest.
export function plain(v, what, keyed, fns) {
  let at = "";
  const seen = new Set();
  const copy = (x, path, depth) => {
    at = path;
    switch (typeof x) {
      case "undefined": case "boolean": case "number": return x;
      case "string": return wellFormed(x) ? x : tag("other", describe(x));
      case "function": if (fns && depth === 1) fns[path.slice(1)] = x; return tag("other", describe(x));
      case "bigint": return { [TAG]: "bigint", v: Number(x), s: String(x) };
      case "symbol": return tag("other", describe(x));
    }
    if (x === null) return tag("null");
    if (seen.has(x)) return tag("other", "a cyclic reference");
    if (depth > MAX_DEPTH) return tag("other", "an object nested too deep");
    const kind = toString.call(x);
    if (kind === "[object Date]") return tag("date", Date.prototype.getTime.call(x));
    const array = Array.isArray(x);
    if (!array && kind !== "[object Object]") {
      if (fns && depth === 1) fns[path.slice(1)] = x;
      return tag("other", describe(x));
    }
    seen.add(x);
    let out;
    if (array) {
      const n = x.length;
      out = new Array(n);
      for (let i = 0; i < n; i++) out[i] = copy(x[i], `${path}[${i}]`, depth + 1);
    } else {
      out = {};
      for (const k of Object.keys(x)) {
        const value = depth === 0 && k === keyed ? metaKey(x[k]) : copy(x[k], `${path}.${k}`, depth + 1);
        if (value !== undefined) out[k] = value;
      }
    }
    seen.delete(x);
    at = path;
    return out;
  };
  try {
    return copy(v, "", 0);
  } catch (e) {
    throw unreadable(what, at, e);
  }
}

// The header fields ttlFromHeaders reads (src/js/http.rs), from a Headers or a plain object whose
// names are in any case (two names that differ by case are two lines of one field, joined as
// Headers joins them): [cache-control, age, expires, date], each a string or undefined.
// Undefined if `h` is neither; a TypeError naming the field if reading it throws or gives a
// value that is not a string.
const FIELDS = ["cache-control", "age", "expires", "date"];
export function readHeaders(h) {
  const what = "ttlFromHeaders headers";
  const out = [];
  let at = "";
  let bad;
  try {
    const kind = h !== null && typeof h === "object" ? toString.call(h) : "";
    if (kind === "[object Headers]") {
      for (const n of FIELDS) {
        at = `.get("${n}")`;
        out.push(Headers.prototype.get.call(h, n) ?? undefined);
      }
      return out;
    }
    if (kind !== "[object Object]") return undefined;
    for (const k of Object.keys(h)) {
      const i = FIELDS.indexOf(k.toLowerCase());
      if (i < 0) continue;
      at = `[${JSON.stringify(k)}]`;
      const v = h[k];
      if (typeof v === "string") out[i] = out[i] === undefined ? v : `${out[i]}, ${v}`;
      else if (v !== undefined) { bad = `${what}${at} ${describe(v)} is not accepted; expected a string`; break; }
    }
  } catch (e) {
    throw unreadable(what, at, e);
  }
  if (bad) throw new TypeError(bad);
  out.length = FIELDS.length;
  return out;
}

// A copy of the array `v` (its elements as they are), or undefined if `v` is not an array.
export function readArray(v, what) {
  let at = "";
  try {
    if (!Array.isArray(v)) return undefined;
    const n = v.length;
    const out = new Array(n);
    for (let i = 0; i < n; i++) { at = `[${i}]`; out[i] = v[i]; }
    return out;
  } catch (e) {
    throw unreadable(what, at, e);
  }
}

// setMany's entries, [key, value] or [key, value, options]: their keys and values as they are,
// their options as plain data. `bad` is the index of the first entry of another shape (-1: none).
export function readEntries(v) {
  const entries = readArray(v, "setMany entries");
  if (entries === undefined) return undefined;
  const keys = [];
  const values = [];
  const options = [];
  for (let i = 0; i < entries.length; i++) {
    const where = `setMany entry ${i}`;
    const e = readArray(entries[i], where);
    if (e === undefined || e.length < 2 || e.length > 3) return { bad: i, shown: describe(entries[i]) };
    keys.push(e[0]);
    values.push(e[1]);
    options.push(plain(e[2], `${where} options`));
  }
  return { keys, values, options, bad: -1, shown: "" };
}

// The value at a field path of `doc`, as MongoDB reads a dotted path ("meta.createdAt"): through
// embedded objects, and through an array by each object in it, the values found given as one
// array (so a TTL field takes the earliest of them); a name without a dot is a plain property.
// `parts` is the path split at its dots. Reading may throw (a getter, a Proxy): callers catch.
function atPath(v, parts, i = 0) {
  if (i === parts.length) return v;
  if (v === null || typeof v !== "object") return undefined;
  if (Array.isArray(v) && !/^\d+$/.test(parts[i])) {
    const found = [];
    for (const e of v) {
      if (e === null || typeof e !== "object" || Array.isArray(e)) continue;
      const x = atPath(e, parts, i);
      if (Array.isArray(x)) found.push(...x);
      else if (x !== undefined) found.push(x);
    }
    return found.length > 0 ? found : undefined;
  }
  return atPath(v[parts[i]], parts, i + 1);
}

// Documents to put: each one's id (at `keyPath`) and, if `field` is given, the value at that
// field path as plain data. `bad` is the index of the first document that is not an object (-1: none).
export function readDocs(docs, what, keyPath, field) {
  const parts = field === undefined ? undefined : field.split(".");
  const ids = [];
  const fields = [];
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    const where = docs.length === 1 && what === "document" ? what : `${what} ${i}`;
    if (d === null || typeof d !== "object" || readArray(d, where) !== undefined) {
      return { bad: i, shown: describe(d) };
    }
    let at = `.${keyPath}`;
    try {
      ids.push(d[keyPath]);
      at = `.${field}`;
      fields.push(parts === undefined ? undefined : plain(atPath(d, parts), `${where}.${field}`));
    } catch (e) {
      throw e instanceof TypeError && e.message.startsWith(where) ? e : unreadable(where, at, e);
    }
  }
  return { ids, fields, bad: -1, shown: "" };
}

// Reads the time and meta fields (field paths, read as atPath reads them) of every event at once.
// Times that are numbers (Unix seconds) or Dates come back in `values` (kind 0 / 1); anything
// else is left in `raw` for the Rust parser (kind 2), or described (kind 3: not a string either).
export function readEvents(events, what, timeField, metaField) {
  const n = events.length;
  const timePath = timeField.split(".");
  const metaPath = metaField === undefined ? undefined : metaField.split(".");
  const kinds = new Uint8Array(n);
  const values = new Float64Array(n);
  const raw = new Array(n);
  const metaKeys = new Array(n);
  const metas = new Array(n);
  const sizes = new Float64Array(n);
  let i = 0;
  try {
    for (; i < n; i++) {
      const e = events[i];
      const object = e !== null && typeof e === "object";
      const t = object ? atPath(e, timePath) : undefined;
      if (typeof t === "number") { values[i] = t; }
      else if (t !== null && typeof t === "object" && toString.call(t) === "[object Date]") { kinds[i] = 1; values[i] = Date.prototype.getTime.call(t); }
      else if (typeof t === "string" && wellFormed(t)) { kinds[i] = 2; raw[i] = t; }
      else { kinds[i] = 3; raw[i] = describe(t); }
      const m = metaPath === undefined || !object ? undefined : atPath(e, metaPath);
      metas[i] = m === undefined ? null : m;
      metaKeys[i] = metaKey(m);
      sizes[i] = jsonBytes(e);
    }
  } catch (e) {
    throw unreadable(`${what} ${i}`, "", e);
  }
  return { kinds, values, raw, metaKeys, metas, sizes };
}

// An event's size as JSON (what closes a bucket at maxBucketBytes): UTF-16 code units of
// JSON.stringify, 0 for what JSON cannot write (a BigInt, a cycle: the bucket's event count still
// closes it).
function jsonBytes(e) {
  try {
    return JSON.stringify(e)?.length ?? 0;
  } catch {
    return 0;
  }
}

// The grouping key of a meta value: equal JSON, equal series (MongoDB compares meta values
// whole). No meta value: "".
export function metaKey(m) {
  if (m === undefined) return "";
  try { return JSON.stringify(m) ?? String(m); } catch { return describe(m); }
}

// The path of the first Blob or File inside `v` ("value.files[2]"), or undefined. Walks what
// structured clone walks (arrays, plain and class objects, Map, Set), each object once.
export function blobPath(v) {
  const seen = new WeakSet();
  const stack = [[v, "value"]];
  while (stack.length > 0) {
    const [x, path] = stack.pop();
    if (x === null || typeof x !== "object") continue;
    if (x instanceof Blob) return path;
    if (seen.has(x) || ArrayBuffer.isView(x) || x instanceof ArrayBuffer || x instanceof Date) continue;
    seen.add(x);
    if (x instanceof Map) {
      for (const [k, val] of x) { stack.push([k, `${path}.keys()`], [val, `${path}.get(${String(k)})`]); }
    } else if (x instanceof Set) {
      for (const val of x) stack.push([val, `${path}.values()`]);
    } else {
      const array = Array.isArray(x);
      for (const k of Object.keys(x)) stack.push([x[k], array ? `${path}[${k}]` : `${path}.${k}`]);
    }
  }
  return undefined;
}

// ---- The origin's storage (StorageManager) ----
// navigator.storage.estimate()'s { usage, quota }, or {} where there is none (an insecure
// context, an old browser). Rejects as the browser does.
export async function storageEstimate() {
  const s = globalThis.navigator && globalThis.navigator.storage;
  if (!s || typeof s.estimate !== "function") return {};
  const { usage, quota } = await s.estimate();
  return { usage, quota };
}
// navigator.storage.persist(): whether the origin's storage is (now) persistent; false where
// the browser has no StorageManager.
export async function persistStorage() {
  const s = globalThis.navigator && globalThis.navigator.storage;
  if (!s || typeof s.persist !== "function") return false;
  return Boolean(await s.persist());
}
