// "idb-ttl/lite/react": the hooks of "idb-ttl/react", with useStore opening the lite entry's
// TtlStore ("idb-ttl/lite"), so an app on the lite entry never loads the default one.

import { TtlStore } from "../lite/index.js";
import { storeHook } from "./hooks.js";

export { useEntry, useView } from "./hooks.js";

/** The store `TtlStore.open(name, options)` of idb-ttl/lite gives, shared by every component asking for it; `undefined` while it opens. */
export const useStore = storeHook(TtlStore);
