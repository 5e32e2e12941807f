// The typings of the store "idb-ttl/svelte" and "idb-ttl/lite/svelte" share.
import type { Key, TtlStore } from "../index.js";

/** What `entry` uses of a store: a `TtlStore` of either entry (`idb-ttl` or `idb-ttl/lite`). */
export type WatchStore = Pick<TtlStore, "watch">;

/**
 * Svelte's store contract (`Readable` of `svelte/store`, written out so that no Svelte import is
 * needed): `subscribe(run)` calls `run` with the current value at once and with each new one,
 * and returns the function that unsubscribes.
 */
export interface EntryStore<T> {
  /**
   * Calls `run` with the current value now (`undefined` before the first read) and at every
   * change. The first subscriber starts one `store.watch`, the last one to unsubscribe stops it.
   * @throws what `store.watch` throws at once for the first subscriber (a `NaN` key's
   *   `RangeError`, a closed store's `StoreClosedError`).
   */
  subscribe(this: void, run: (value: T | undefined) => void, invalidate?: () => void): () => void;
}

/**
 * The live value of `key` in `store`, as a Svelte store: `$offer` in a component (Svelte 4, and
 * Svelte 5 in runes mode too) is `undefined` until the key is read (so always on a server, where
 * there is no store), then the stored value, replaced at every write to the key in any tab or
 * worker and set back to `undefined` when it is deleted or at the moment it expires, by one
 * `store.watch` while there are subscribers (no polling, no wait for the reaper, an idle entry
 * not extended). A `store` that is `undefined` or `null` (not open yet) is a store of
 * `undefined`: make the entry again once it is open (`$derived(entry(store, key))`).
 *
 * @throws `TypeError`, thrown at once: a key that is neither a string nor a number, named in the
 *   message.
 * @example
 * ```ts
 * const offer = entry<{ title: string }>(store, "offer");
 * const stop = offer.subscribe((o) => console.log(o?.title ?? "no offer")); // $offer in a component
 * ```
 */
export function entry<T = unknown>(store: WatchStore | null | undefined, key: Key): EntryStore<T>;
