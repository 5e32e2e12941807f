// What both entries of the package (index.js, the default; lite/index.js, the key-value store
// only) do with their own wasm-bindgen glue: load its WebAssembly module on first use, guard the
// methods of the classes it hands out, and add asyncStorage(). No side effect until called.
//
// The module's bytes travel inside idb_ttl_wasm.js (base64 of the gzipped .wasm, written by
// scripts/build.sh), not as a separate .wasm file: bundlers and dev servers (tested: Vite 7 and 8,
// webpack 5, esbuild), workers of any format and Node all load a plain ES module the same way, so
// there is no file to locate, no plugin and no config. It costs about 1% over the gzipped .wasm.

/**
 * Wires one glue: `initGlue` its default export, `wasmGzipBase64` its idb_ttl_wasm.js, then two of
 * its functions; `classes` `[class, label]` of every class it hands out (TtlStore first),
 * `factories` the TtlStore methods that resolve to one of them. Returns `[init, isLoaded]`.
 */
export function wire(initGlue, wasmGzipBase64, asyncStorageOptions, storageKey, classes, factories) {
  const [[TtlStore]] = classes;
  let loading;
  let loaded = false;

  function init() {
    loading ??= load().catch((e) => {
      loading = undefined;
      throw e;
    });
    return loading;
  }

  async function load() {
    try {
      // Base64 to bytes: the engine's own decoder where there is one (Chrome 140, Firefox 133,
      // Safari 18.2), else a plain loop (not Uint8Array.from(string, mapFn): a call per byte).
      let gz = Uint8Array.fromBase64?.(wasmGzipBase64);
      if (!gz) {
        const s = atob(wasmGzipBase64);
        gz = new Uint8Array(s.length);
        for (let i = 0; i < s.length; i++) gz[i] = s.charCodeAt(i);
      }
      // Inflated as it is compiled: the glue hands a Response to WebAssembly.instantiateStreaming.
      const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
      await initGlue({ module_or_path: new Response(stream, { headers: { "content-type": "application/wasm" } }) });
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

  // The objects this glue handed out, with their class. A method called on anything else (a
  // detached method, another class's object, a freed one, a forged one) is refused here, before
  // wasm-bindgen would follow its pointer into wasm memory as if it were one of its own.
  const genuine = new WeakMap();
  const handedOut = (v) => {
    genuine.set(v, v.constructor);
    return v;
  };

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

  for (const [cls, label] of classes) {
    const proto = cls.prototype;
    for (const name of [...Object.getOwnPropertyNames(proto), ...Object.getOwnPropertySymbols(proto)]) {
      // wasm-bindgen's own helpers (__destroy_into_raw) are called by free() itself.
      if (name === "constructor" || (typeof name === "string" && name.startsWith("__"))) continue;
      const getter = Object.getOwnPropertyDescriptor(proto, name).get !== undefined;
      const sync = getter || (SYNC.has(name) && !ASYNC_IN[label]?.has(name)) || typeof name === "symbol";
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
    for (const [cls] of classes) {
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
  for (const name of factories) {
    replace(TtlStore.prototype, name, (guarded) => function (...args) {
      return guarded.apply(this, args).then(handedOut);
    });
  }

  return [init, () => loaded];
}

// The methods that answer at once rather than with a Promise, and those of these names that a
// class answers with a Promise (by the label its objects are named by).
const SYNC = new Set(["stats", "pauseReaper", "resumeReaper", "close", "addEventListener", "removeEventListener", "ttlIndex", "free", "asyncStorage", "watch", "observe", "exportStream"]);
const ASYNC_IN = { collection: new Set(["stats", "pauseReaper", "resumeReaper"]) };

function replace(target, name, make) {
  const d = Object.getOwnPropertyDescriptor(target, name);
  if (d.get) Object.defineProperty(target, name, { ...d, get: make(d.get) });
  else Object.defineProperty(target, name, { ...d, value: make(d.value) });
}
