// The "idb-ttl/lite" entry: the key-value store only (TtlStore without collections, time series,
// tiers, hand-off, encryption), from its own build of the crate (`--no-default-features`) with
// its own glue and WebAssembly module; the same database format as the default entry.

import initGlue, { TtlStore, asyncStorageOptions, storageKey } from "./idb_ttl.js";
import wasmGzipBase64 from "./idb_ttl_wasm.js";
import { wire } from "../wire.js";

const [init] = wire(initGlue, wasmGzipBase64, asyncStorageOptions, storageKey, [[TtlStore, "store"]], []);

/**
 * Loads the WebAssembly module. Optional: `TtlStore.open()` and `TtlStore.destroy()` wait for it
 * themselves, and calling it again costs nothing.
 */
export default init;

export { TtlStore };
