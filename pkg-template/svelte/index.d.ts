// The typings of "idb-ttl/svelte": a Svelte store over `store.watch`, for stores of either entry.
/**
 * A Svelte store over a store of either entry: `entry(store, key)`, whose `$entry` follows every
 * tab's writes and turns `undefined` at the moment of expiry. JavaScript over the public API and
 * Svelte's store contract, loaded only when imported; nothing of Svelte is imported at run time.
 *
 * @module idb-ttl/svelte
 */
export { entry } from "./store.js";
export type { EntryStore, WatchStore } from "./store.js";
