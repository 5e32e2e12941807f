// "idb-ttl/svelte": entry, a Svelte store over `store.watch`, for stores of either entry. Loaded
// only when imported; it needs nothing of Svelte at run time (the store contract is plain
// JavaScript). "idb-ttl/lite/svelte" is the same module for apps on the lite entry.

export { entry } from "./store.js";
