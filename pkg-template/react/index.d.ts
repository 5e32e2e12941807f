// The typings of "idb-ttl/react": React hooks over stores of the default entry (any store for
// useEntry and useView).
/**
 * React hooks over a store of the default entry: `useEntry`, `useView`, `useStore` (`useEntry` and `useView`
 * take a store of either entry). JavaScript over the public API, loaded only when imported; React
 * 18 or 19 as a peer dependency.
 *
 * @module idb-ttl/react
 */
import type { StoreOptions, TtlStore } from "../index.js";

export { useEntry, useView } from "./hooks.js";
export type { EntryOptions, EntrySetter, EntryState, HookStore } from "./hooks.js";

/**
 * `TtlStore.open(name, options)`, once per name and options however many components ask (options
 * compared as data; a function by its source), shared, and closed when the last component using
 * it unmounts. `undefined` while it opens, and always on a server (no error: effects do not run
 * there). An open that fails is thrown to the nearest error boundary. Do not `close()` it yourself.
 */
export function useStore(name: string, options?: StoreOptions): TtlStore | undefined;
