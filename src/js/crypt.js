// Encryption at rest (TtlStore.open(name, { encryption })): a value is written as bytes (a
// tagged JSON of what it is), encrypted with AES-GCM under the store's key, a fresh 12-byte IV
// per record, and the record's key (or collection and id) as additional data, so a ciphertext
// moved to another key fails to decrypt. The key is a non-extractable CryptoKey the store keeps in
// its own database (src/store/crypt.rs). Web Crypto answers in promises; the wasm awaits them
// through catch bindings. What a value cannot be written as faithfully is refused, by path.

import { kindOf } from "./snapshot.js";

const ALGORITHM = "AES-GCM";
const ACCEPTED = "strings, numbers (NaN, Infinity and -0 too), booleans, null, undefined, BigInt, " +
  "arrays, plain objects, Date, Map, Set, ArrayBuffer, typed arrays and DataView";
const VIEWS = ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "DataView"];

function refuse(what, path, kind) {
  throw new TypeError(`${what}: ${path} is ${kind}, which an encrypted store cannot write faithfully; ` +
    `it accepts ${ACCEPTED}`);
}

const bytesOf = (buffer, offset, length) => {
  let s = "";
  const b = new Uint8Array(buffer, offset, length);
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
};
const bufferOf = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0)).buffer;

// A value as JSON: strings, finite numbers, booleans and null as they are; everything else an
// array [tag, ...].
function encode(v, what, path, seen) {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0) ? v : ["n", Object.is(v, -0) ? "-0" : String(v)];
  if (v === undefined) return ["u"];
  if (typeof v === "bigint") return ["b", v.toString()];
  if (typeof v !== "object") refuse(what, path, `a ${typeof v}`);
  if (seen.has(v)) refuse(what, path, "a reference to an object it is inside of (a cycle)");
  seen.add(v);
  try {
    if (Array.isArray(v)) {
      const out = ["A"];
      for (let i = 0; i < v.length; i++) {
        if (!(i in v)) refuse(what, `${path}[${i}]`, "a hole in a sparse array");
        out.push(encode(v[i], what, `${path}[${i}]`, seen));
      }
      return out;
    }
    if (v instanceof Date) return ["D", v.getTime()];
    if (v instanceof Map) {
      const out = ["M"];
      let i = 0;
      for (const [k, x] of v) {
        out.push(encode(k, what, `${path}.keys()[${i}]`, seen), encode(x, what, `${path}.get(...)[${i}]`, seen));
        i++;
      }
      return out;
    }
    if (v instanceof Set) {
      const out = ["S"];
      let i = 0;
      for (const x of v) out.push(encode(x, what, `${path}.values()[${i++}]`, seen));
      return out;
    }
    if (v instanceof ArrayBuffer) return ["B", bytesOf(v, 0, v.byteLength)];
    if (ArrayBuffer.isView(v)) {
      const name = v.constructor.name;
      if (!VIEWS.includes(name) || !(v.buffer instanceof ArrayBuffer)) refuse(what, path, kindOf(v));
      return ["V", name, bytesOf(v.buffer, v.byteOffset, v.byteLength)];
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) refuse(what, path, kindOf(v));
    const out = ["O"];
    for (const k of Object.keys(v)) out.push(k, encode(v[k], what, `${path}.${k}`, seen));
    return out;
  } finally {
    seen.delete(v);
  }
}

function decode(j) {
  if (!Array.isArray(j)) return j;
  switch (j[0]) {
    case "n": return j[1] === "-0" ? -0 : Number(j[1]);
    case "u": return undefined;
    case "b": return BigInt(j[1]);
    case "A": return j.slice(1).map(decode);
    case "D": return new Date(j[1]);
    case "M": {
      const m = new Map();
      for (let i = 1; i < j.length; i += 2) m.set(decode(j[i]), decode(j[i + 1]));
      return m;
    }
    case "S": return new Set(j.slice(1).map(decode));
    case "B": return bufferOf(j[1]);
    case "V": {
      const buffer = bufferOf(j[2]);
      return j[1] === "DataView" ? new DataView(buffer) : new globalThis[j[1]](buffer);
    }
    case "O": {
      const o = {};
      for (let i = 1; i < j.length; i += 2) Object.defineProperty(o, j[i], { value: decode(j[i + 1]), enumerable: true, writable: true, configurable: true });
      return o;
    }
    default: throw new TypeError(`an unknown tag ${JSON.stringify(j[0])}`);
  }
}

const text = new TextEncoder();
const words = new TextDecoder();

/** A new non-extractable AES-GCM key. */
export function newKey() {
  return crypto.subtle.generateKey({ name: ALGORITHM, length: 256 }, false, ["encrypt", "decrypt"]);
}

// The additional data of a record: its kind and keys (["e", key], ["d", collection, id]) as
// JSON, so 1 and "1" differ.
const aadOf = (parts) => text.encode(JSON.stringify(parts));

/**
 * `items` ([aad parts, value, what]) encrypted under `key` (id `id`): `{ x: id, iv, ct }` each. A value
 * that cannot be written faithfully throws a TypeError naming `what` and the path, before any
 * encryption.
 */
export function seal(key, id, items) {
  const plain = items.map(([, v, what]) => text.encode(JSON.stringify(encode(v, what, "value", new Set()))));
  return Promise.all(items.map(async ([aad], i) => {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = await crypto.subtle.encrypt({ name: ALGORITHM, iv, additionalData: aadOf(aad) }, key, plain[i]);
    return { x: id, iv, ct };
  }));
}

/** Whether a stored value is a sealed one: `{ x, iv, ct }`. */
const sealed = (v) => v !== null && typeof v === "object" && typeof v.x === "number" && v.iv instanceof Uint8Array && v.ct instanceof ArrayBuffer;

/**
 * `items` ([aad parts, stored value, what]) decrypted with the keys of `keys` (a Map id -> CryptoKey):
 * `undefined` where the key is gone (shredded, expired) or the record is missing. A ciphertext
 * that does not decrypt (altered, or moved from another key) rejects with an Error naming
 * `what`.
 */
export function unseal(keys, items) {
  return Promise.all(items.map(async ([aad, v, what]) => {
    if (v === undefined) return undefined;
    if (!sealed(v)) throw new TypeError(`${what} is not an encrypted record: it was written without encryption or altered`);
    const key = keys.get(v.x);
    if (key === undefined) return undefined;
    let plain;
    try {
      plain = await crypto.subtle.decrypt({ name: ALGORITHM, iv: v.iv, additionalData: aadOf(aad) }, key, v.ct);
    } catch (e) {
      throw new TypeError(`${what} cannot be decrypted (${e && e.name}): its record was altered, or written under another key or record`);
    }
    return decode(JSON.parse(words.decode(plain)));
  }));
}
