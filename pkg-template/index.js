// The entry point of the idb-ttl package: the classes of the wasm-bindgen glue (idb_ttl.js),
// with the WebAssembly module loaded on first use (wire.js). The key-value store alone, a smaller
// build of the same crate, is the "idb-ttl/lite" entry (lite/index.js).

import initGlue, { Collection, TimeSeries, TtlStore, asyncStorageOptions, storageKey, ttlFromHeaders as glueTtlFromHeaders } from "./idb_ttl.js";
import wasmGzipBase64 from "./idb_ttl_wasm.js";
import { wire } from "./wire.js";

const [init, isLoaded] = wire(initGlue, wasmGzipBase64, asyncStorageOptions, storageKey,
  [[TtlStore, "store"], [Collection, "collection"], [TimeSeries, "timeSeries"]], ["collection", "timeSeries"]);

/**
 * Loads the WebAssembly module. Optional: `TtlStore.open()` and `TtlStore.destroy()` wait for it
 * themselves, and calling it again costs nothing.
 */
export default init;

/**
 * The seconds a response with `headers` stays fresh (RFC 9111), or undefined if it must not be
 * stored. Synchronous, so the module must be loaded: after `await init()` or `TtlStore.open()`.
 */
export function ttlFromHeaders(headers, now) {
  if (!isLoaded()) {
    throw new Error("ttlFromHeaders was called before idb-ttl loaded its WebAssembly module: await init() (or TtlStore.open()) first");
  }
  return glueTtlFromHeaders(headers, now);
}

export { Collection, TimeSeries, TtlStore };
