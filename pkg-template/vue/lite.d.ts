// The typings of "idb-ttl/lite/vue": the composable of "idb-ttl/vue", under the lite entry's name.
/**
 * The composable of `"idb-ttl/vue"` (it takes a store of either entry), for apps on the lite
 * entry.
 *
 * @module idb-ttl/lite/vue
 */
export { useEntry } from "./composable.js";
export type { WatchStore } from "./composable.js";
