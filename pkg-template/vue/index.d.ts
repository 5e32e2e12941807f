// The typings of "idb-ttl/vue": a Vue 3 composable over `store.watch`, for stores of either entry.
/**
 * A Vue 3 composable over a store of either entry: `useEntry(store, key)`, a readonly ref that
 * follows every tab's writes and turns `undefined` at the moment of expiry. JavaScript over the
 * public API, loaded only when imported; Vue 3 as a peer dependency.
 *
 * @module idb-ttl/vue
 */
export { useEntry } from "./composable.js";
export type { WatchStore } from "./composable.js";
