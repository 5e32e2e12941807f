// "idb-ttl/vue": useEntry, a Vue 3 composable over `store.watch`, for stores of either entry.
// Loaded only when imported; Vue 3 is a peer dependency. "idb-ttl/lite/vue" is the same module
// for apps on the lite entry.

export { useEntry } from "./composable.js";
