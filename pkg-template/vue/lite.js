// "idb-ttl/lite/vue": the composable of "idb-ttl/vue" (it takes a store of either entry), under
// the lite entry's name, so an app on "idb-ttl/lite" imports nothing named after the default one.

export { useEntry } from "./composable.js";
