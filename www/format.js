// Formatting helpers shared by the demo's panels (app.js, collections.js).

export function two(n) { return String(n).padStart(2, "0"); }

/**
 * Sets `obj[prop]` only when it differs (an element's property, its `dataset` or its `style`): the
 * panels' timers redraw several times a second, and writing the same value again still makes the
 * browser lay out and paint the page.
 */
export function put(obj, prop, value) {
  if (obj[prop] !== value) obj[prop] = value;
}

/** Sets `el`'s text only when it differs (see `put`). */
export const setText = (el, text) => put(el, "textContent", text);

/** Local wall-clock time with milliseconds, for log lines. */
export function clock(date = new Date()) {
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, "0")}`;
}

/** A JS-literal-like rendering of a value, so the reader sees its real type (structured clone). */
export function describe(v, depth = 0) {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "bigint") return `${v}n`;
  if (v instanceof Date) return `Date(${isNaN(v) ? "Invalid Date" : v.toISOString()})`;
  if (depth > 2) return "…";
  if (Array.isArray(v)) return `[${v.slice(0, 8).map((x) => describe(x, depth + 1)).join(", ")}${v.length > 8 ? ", …" : ""}]`;
  if (v instanceof Map) return `Map(${v.size})`;
  if (v instanceof Set) return `Set(${v.size})`;
  if (typeof Blob !== "undefined" && v instanceof Blob) return `Blob(${v.size} bytes)`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length ?? v.byteLength})`;
  if (typeof v === "object") {
    const keys = Object.keys(v);
    const inner = keys.slice(0, 8).map((k) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${describe(v[k], depth + 1)}`);
    return `{ ${inner.join(", ")}${keys.length > 8 ? ", …" : ""} }`;
  }
  return String(v);
}

export function kindOf(v) {
  if (v === null) return "null";
  if (v instanceof Date) return "Date";
  if (Array.isArray(v)) return "array";
  if (typeof v === "object") return v.constructor && v.constructor !== Object ? v.constructor.name : "object";
  return typeof v;
}

/** Seconds left as "4.2 s", "3m 07s", "2h 05m", "3d 4h". */
export function formatLeft(secs) {
  if (secs <= 0) return "0.0 s";
  if (secs < 60) return `${secs.toFixed(1)} s`;
  const s = Math.floor(secs);
  if (s < 3600) return `${Math.floor(s / 60)}m ${two(s % 60)}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${two(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

/** Unix seconds as "2026-11-21 19:40:07" (UTC). */
export function formatExpiresAt(secs) {
  const d = new Date(secs * 1000);
  if (isNaN(d)) return String(secs);
  return d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z").replace(/Z$/, "");
}

export function errorText(e) {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

/** A value as it would be typed in a call: numbers bare, everything else as a JSON string. */
export function literal(v) {
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : String(v);
  return JSON.stringify(v);
}

/** Appends a `<td data-testid=testid class=cls>` to the row `tr` and returns it. */
export function appendCell(tr, testid, cls) {
  const td = document.createElement("td");
  td.dataset.testid = testid;
  if (cls) td.className = cls;
  tr.append(td);
  return td;
}
