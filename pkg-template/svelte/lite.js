// "idb-ttl/lite/svelte": the store of "idb-ttl/svelte" (it takes a store of either entry), under
// the lite entry's name, so an app on "idb-ttl/lite" imports nothing named after the default one.

export { entry } from "./store.js";
