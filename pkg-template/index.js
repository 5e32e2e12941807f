// The entry point of the idb-ttl package: the classes of the wasm-bindgen glue (idb_ttl.js),
// with the WebAssembly module loaded on first use.
//
// The module's bytes travel inside idb_ttl_wasm.js (base64 of the gzipped .wasm, written by
// scripts/build.sh), not as a separate .wasm file: bundlers and dev servers (tested: Vite 7 and 8,
// webpack 5, esbuild), workers of any format and Node all load a plain ES module the same way, so
// there is no file to locate, no plugin and no config. It costs about 1% over the gzipped .wasm.

import initGlue, { Collection, TimeSeries, TtlStore, asyncStorageOptions, storageKey, ttlFromHeaders as glueTtlFromHeaders } from "./idb_ttl.js";
import wasmGzipBase64 from "./idb_ttl_wasm.js";

let loading;
let loaded = false;

/**
 * Loads the WebAssembly module. Optional: `TtlStore.open()` and `TtlStore.destroy()` wait for it
 * themselves, and calling it again costs nothing.
 */
export default function init() {
  loading ??= load().catch((e) => {
    loading = undefined;
    throw e;
  });
  return loading;
}

async function load() {
  try {
    const gz = Uint8Array.from(atob(wasmGzipBase64), (c) => c.charCodeAt(0));
    const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
    await initGlue({ module_or_path: await new Response(stream).arrayBuffer() });
    loaded = true;
  } catch (cause) {
    const e = new Error(
      `idb-ttl could not load its WebAssembly module (${cause && cause.name}: ${cause && cause.message}). ` +
        "It needs WebAssembly and DecompressionStream (Chrome 80, Firefox 113, Safari 16.4, Node 18 or later); " +
        "a Content-Security-Policy with script-src must allow 'wasm-unsafe-eval'",
      { cause },
    );
    e.name = "StoreUnavailableError";
    throw e;
  }
}

// The objects this module handed out, with their class. A method called on anything else (a
// detached method, another class's object, a freed one, a forged one) is refused here, before
// wasm-bindgen would follow its pointer into wasm memory as if it were one of its own.
const genuine = new WeakMap();
const handedOut = (v) => {
  genuine.set(v, v.constructor);
  return v;
};

function replace(target, name, make) {
  const d = Object.getOwnPropertyDescriptor(target, name);
  if (d.get) Object.defineProperty(target, name, { ...d, get: make(d.get) });
  else Object.defineProperty(target, name, { ...d, value: make(d.value) });
}

// The methods that answer at once rather than with a Promise.
const SYNC = new Set(["stats", "pauseReaper", "resumeReaper", "close", "addEventListener", "removeEventListener", "ttlIndex", "free", "asyncStorage", "watch", "observe", "exportStream"]);

// store.asyncStorage(options): the storage object of TanStack Query's persisters, a few lines over
// the store's own methods (whose typed errors are its errors). The options and a prefixed key are
// checked in wasm, which reads them once and names them in its errors.
TtlStore.prototype.asyncStorage = function (options) {
  const [prefix, ttl, idle] = asyncStorageOptions(options);
  const store = this;
  const key = (k) => (prefix ? storageKey(prefix, k) : k);
  const defaults = ttl === undefined && idle === undefined ? undefined : idle === undefined ? { ttl } : ttl === undefined ? { idle } : { ttl, idle };
  return {
    getItem: async (k) => (await get.call(store, key(k))) ?? null,
    setItem: async (k, value, options) => { await set.call(store, key(k), value, options ?? defaults); },
    removeItem: async (k) => { await remove.call(store, key(k)); },
    entries: async () => (await entries.call(store))
      .filter(([k]) => typeof k === "string" && k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v]),
  };
};

for (const [cls, label] of [[TtlStore, "store"], [Collection, "collection"], [TimeSeries, "timeSeries"]]) {
  const proto = cls.prototype;
  for (const name of [...Object.getOwnPropertyNames(proto), ...Object.getOwnPropertySymbols(proto)]) {
    // wasm-bindgen's own helpers (__destroy_into_raw) are called by free() itself.
    if (name === "constructor" || (typeof name === "string" && name.startsWith("__"))) continue;
    const getter = Object.getOwnPropertyDescriptor(proto, name).get !== undefined;
    const sync = getter || SYNC.has(name) || typeof name === "symbol";
    const what = typeof name === "symbol" ? name.toString() : name;
    const refuse = (self) => new TypeError(`${cls.name}.${what} was called on ${describeThis(self)} instead of a ${cls.name}; ` +
      `call it on the object itself, e.g. ${label}.${what}(...), or bind it: ${label}.${what}.bind(${label})`);
    replace(proto, name, (direct) => function (...args) {
      if (genuine.get(this) !== cls) {
        if (sync) throw refuse(this);
        return Promise.reject(refuse(this));
      }
      if (name === "free" || name === Symbol.dispose) genuine.delete(this);
      return direct.apply(this, args);
    });
  }
}

// The guarded methods asyncStorage's object calls.
const { get, set, delete: remove, entries } = TtlStore.prototype;

function describeThis(v) {
  if (v === undefined || v === null) return String(v);
  for (const cls of [TtlStore, Collection, TimeSeries]) {
    if (v instanceof cls) return genuine.has(v) ? `a ${cls.name}` : `a ${cls.name} that was freed or not made by idb-ttl`;
  }
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

// The static entry points wait for the module, so there is no init() to forget; what they and
// the factory methods hand out is recorded as genuine.
replace(TtlStore, "open", (direct) => async function (...args) {
  await init();
  return handedOut(await direct.apply(this, args));
});
replace(TtlStore, "destroy", (direct) => async function (...args) {
  await init();
  return direct.apply(this, args);
});
for (const name of ["collection", "timeSeries"]) {
  replace(TtlStore.prototype, name, (guarded) => function (...args) {
    return guarded.apply(this, args).then(handedOut);
  });
}

/**
 * The seconds a response with `headers` stays fresh (RFC 9111), or undefined if it must not be
 * stored. Synchronous, so the module must be loaded: after `await init()` or `TtlStore.open()`.
 */
export function ttlFromHeaders(headers, now) {
  if (!loaded) {
    throw new Error("ttlFromHeaders was called before idb-ttl loaded its WebAssembly module: await init() (or TtlStore.open()) first");
  }
  return glueTtlFromHeaders(headers, now);
}

export { Collection, TimeSeries, TtlStore };
