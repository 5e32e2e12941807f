// The typings of the hooks "idb-ttl/react" and "idb-ttl/lite/react" share.
import type { Key, SetOptions, SyncResult, TtlStore, ViewEntry, ViewQuery } from "../index.js";

/** What the hooks use of a store: a `TtlStore` of either entry (`idb-ttl` or `idb-ttl/lite`). */
export type HookStore = Pick<TtlStore, "observe" | "set" | "delete" | "update">;

/**
 * Options of `useEntry`: `initial`, the value shown while the key is missing or expired (and given
 * to an updater then), and the expiry every write of the setter takes when it names none, as
 * `set` takes it (`{ ttl: "7 days" }`, `{ idle: "30 min" }`...). Without one, the store's
 * `defaultTtl` (or no expiry).
 */
export type EntryOptions<T> = SetOptions & {
  /** Shown while the key is missing or expired, and while the first read is pending. */
  initial?: T;
};

/** The state beside the value: its expiry, and how the hook is doing. */
export interface EntryState {
  /** Unix seconds; `null` = no expiry; `undefined` = missing, expired, or not read yet. */
  readonly expiresAt: number | null | undefined;
  /** Seconds left when this render ran (fractional); `null` = no expiry; `undefined` = missing. */
  readonly ttl: number | null | undefined;
  /** `true` until the store is open and the key's first read answered. */
  readonly loading: boolean;
  /**
   * What went wrong, if anything: a key the store refuses, a closed store, or the last write that
   * failed (cleared by the next write that succeeds). Never thrown into render.
   */
  readonly error: unknown;
}

/**
 * The setter: a value (`undefined` deletes the key), or an updater run by `store.update` in one
 * transaction (its `current` is `initial` while the key is missing; it must not be `async`;
 * returning `undefined` deletes the key), with the write's expiry (`SetOptions`; without it, the
 * hook's). Resolves to the value written once committed; rejects as the store's call does, and
 * the failure is also the hook's `error`.
 */
export type EntrySetter<T, C> = <R extends T | undefined = T | undefined>(
  next: T | undefined | ((current: C) => SyncResult<R>),
  options?: SetOptions,
) => Promise<T | undefined>;

/**
 * `[value, set, { expiresAt, ttl, loading, error }]`: the live value of `key` in `store` (the
 * stored value, or `options.initial` while it is missing, expired or not read yet), re-rendered
 * at every write in any tab or worker and at its expiry, by one `store.observe` (no polling). A
 * value set here shows at once, until the store tells what it committed. `store` may be
 * `undefined` (useStore while it opens): `loading` then, no error.
 */
export function useEntry<T>(
  store: HookStore | undefined,
  key: Key,
  options: EntryOptions<T> & { initial: T },
): [T, EntrySetter<T, T>, EntryState];
export function useEntry<T = unknown>(
  store: HookStore | undefined,
  key: Key,
  options?: EntryOptions<T>,
): [T | undefined, EntrySetter<T, T | undefined>, EntryState];

/**
 * The live entries `query` names in `store` (`{ prefix }`, `{ keys }` or `{ from, to }`), in key
 * order: `store.observe` behind `useSyncExternalStore`, so concurrent rendering never tears; a new
 * frozen array only when something changed. `[]` while `store` is `undefined`. A query the store
 * refuses throws its `TypeError` to the nearest error boundary.
 */
export function useView<T = unknown>(store: HookStore | undefined, query: ViewQuery): readonly ViewEntry<T>[];
