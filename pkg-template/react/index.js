// "idb-ttl/react": useEntry, useView and useStore for stores of the default entry ("idb-ttl").
// Loaded only when imported; React (18 or 19) is a peer dependency. For the lite entry's stores,
// "idb-ttl/lite/react" is the same hooks with useStore opening `idb-ttl/lite`'s TtlStore.

import { TtlStore } from "../index.js";
import { storeHook } from "./hooks.js";

export { useEntry, useView } from "./hooks.js";

/** The store `TtlStore.open(name, options)` gives, shared by every component asking for it; `undefined` while it opens. */
export const useStore = storeHook(TtlStore);
