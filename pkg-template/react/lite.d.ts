// The typings of "idb-ttl/lite/react": the hooks of "idb-ttl/react", with useStore opening the
// lite entry's TtlStore.
/**
 * The hooks of `"idb-ttl/react"`, with `useStore` opening the lite entry's `TtlStore`.
 *
 * @module idb-ttl/lite/react
 */
import type { StoreOptions, TtlStore } from "../lite/index.js";

export { useEntry, useView } from "./hooks.js";
export type { EntryOptions, EntrySetter, EntryState, HookStore } from "./hooks.js";

/** As `idb-ttl/react`'s `useStore`, with `idb-ttl/lite`'s `TtlStore`. */
export function useStore(name: string, options?: StoreOptions): TtlStore | undefined;
