// The typings of "idb-ttl/lite/svelte": the store of "idb-ttl/svelte", under the lite entry's name.
/**
 * The store of `"idb-ttl/svelte"` (it takes a store of either entry), for apps on the lite entry.
 *
 * @module idb-ttl/lite/svelte
 */
export { entry } from "./store.js";
export type { EntryStore, WatchStore } from "./store.js";
