// The typings of the composable "idb-ttl/vue" and "idb-ttl/lite/vue" share.
import type { MaybeRefOrGetter, Ref } from "vue";
import type { Key, TtlStore } from "../index.js";

/** What `useEntry` uses of a store: a `TtlStore` of either entry (`idb-ttl` or `idb-ttl/lite`). */
export type WatchStore = Pick<TtlStore, "watch">;

/**
 * The live value of `key` in `store`, as a readonly ref: `undefined` until the component is
 * mounted and the key read (so always on a server, and at hydration), then the stored value,
 * replaced at every write to the key in any tab or worker and set back to `undefined` when it is
 * deleted or at the moment it expires, by one `store.watch` (no polling, no wait for the reaper,
 * an idle entry not extended).
 *
 * `store` and `key` may be refs or getters: a new store or key watches anew (the ref shows
 * `undefined` until the new one is read). A store that is `undefined` or `null` (not open yet)
 * watches nothing. Called in a component's `setup`, the watch starts at its mount; called in
 * another effect scope (a Pinia store, `effectScope().run`), at once. Either way it stops when
 * that scope ends (the component unmounts); outside any scope it lasts until the store closes.
 *
 * @throws `TypeError`, thrown at once: a key (or the key a ref or getter gives) that is neither
 *   a string nor a number, named in the message. What `store.watch` throws (a `NaN` key's
 *   `RangeError`, a closed store's `StoreClosedError`) goes to Vue's error handling
 *   (`onErrorCaptured`, `app.config.errorHandler`).
 * @example
 * ```ts
 * const offer = useEntry<{ title: string }>(store, "offer");
 * // offer.value: the stored offer, or undefined (not read yet, missing, deleted or expired)
 * ```
 */
export function useEntry<T = unknown>(
  store: MaybeRefOrGetter<WatchStore | null | undefined>,
  key: MaybeRefOrGetter<Key>,
): Readonly<Ref<T | undefined>>;
