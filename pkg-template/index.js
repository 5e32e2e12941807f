// The entry point of the idb-ttl package: the classes of the wasm-bindgen glue (idb_ttl.js),
// with the WebAssembly module loaded on first use.
//
// The module's bytes travel inside idb_ttl_wasm.js (base64 of the gzipped .wasm, written by
// scripts/build.sh), not as a separate .wasm file: bundlers and dev servers (tested: Vite 7 and 8,
// webpack 5, esbuild), workers of any format and Node all load a plain ES module the same way, so
// there is no file to locate, no plugin and no config. It costs about 1% over the gzipped .wasm.

import initGlue, { Collection, TimeSeries, TtlStore } from "./idb_ttl.js";
import wasmGzipBase64 from "./idb_ttl_wasm.js";

let loading;

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

// The static entry points wait for the module, so there is no init() to forget.
for (const name of ["open", "destroy"]) {
  const direct = TtlStore[name];
  Object.defineProperty(TtlStore, name, {
    value: async function (...args) {
      await init();
      return direct.apply(this, args);
    },
    writable: true,
    configurable: true,
  });
}

export { Collection, TimeSeries, TtlStore };
