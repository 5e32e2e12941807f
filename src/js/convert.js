// Conversion helpers for src/js/convert.rs: reading fields of many user objects in one call.

// Reads the time and meta fields of every event at once. Times that are numbers (Unix seconds)
// or Dates come back in `values` (kind 0 / 1); anything else is left in `raw` for the Rust parser.
export function readEvents(events, timeField, metaField) {
  const n = events.length;
  const kinds = new Uint8Array(n); // 0 number, 1 Date, 2 other (see `raw`)
  const values = new Float64Array(n);
  const raw = new Array(n);
  const metaKeys = new Array(n);
  const metas = new Array(n);
  for (let i = 0; i < n; i++) {
    const e = events[i];
    const t = e === null || typeof e !== "object" ? undefined : e[timeField];
    if (typeof t === "number") { values[i] = t; }
    else if (t instanceof Date) { kinds[i] = 1; values[i] = t.getTime(); }
    else { kinds[i] = 2; raw[i] = t; }
    const m = metaField === undefined || e === null || typeof e !== "object" ? undefined : e[metaField];
    metas[i] = m === undefined ? null : m;
    metaKeys[i] = metaKey(m);
  }
  return { kinds, values, raw, metaKeys, metas };
}

// The grouping key of a meta value: equal JSON, equal series (MongoDB compares meta values
// whole). No meta value: "".
export function metaKey(m) {
  if (m === undefined) return "";
  try { return JSON.stringify(m) ?? String(m); } catch { return String(m); }
}
