// Option, report and event types of idb-ttl. Included verbatim in the generated idb_ttl.d.ts
// through `typescript_custom_section`; wasm-bindgen generates the `TtlStore` class itself.
// Times are Unix SECONDS unless a name ends in `Ms`.

/** A key: a string or a finite number (IndexedDB key order: numbers sort before strings). */
export type Key = string | number;

/**
 * A time to live, relative to now: a non-negative finite number of seconds (fractions allowed), or
 * a duration string, ISO-8601 (`"PT30S"`, `"PT10M"`, `"P90D"`, `"P1DT2H"`) or plain (`"90 days"`,
 * `"3 months"`, `"1h 30m"`). Calendar units (months, years) count in UTC.
 */
export type TtlInput = number | string;

/**
 * An absolute expiry time: Unix time in seconds (fractions allowed, e.g. `1798761600.5`; a number
 * that looks like milliseconds, such as `Date.now()`, is refused with a `RangeError`), an ISO-8601
 * date or date-time string (`"2026-12-24"`, `"2026-12-24T18:00:00.123+01:00"`; no offset means
 * UTC, a date alone means 00:00:00 UTC), or a `Date`.
 */
export type ExpiresAtInput = number | string | Date;

/** Options of `TtlStore.open(name, options)`. */
export interface StoreOptions {
  /** Expiry given to `set` calls that name none. Default: none (entries never expire). */
  defaultTtl?: TtlInput;
  /** Period of the background reaper, in milliseconds. Default: 60000. */
  reapIntervalMs?: number;
  /** Most entries one reaper pass removes (the rest wait for the next pass). Default: 10000. */
  maxRemovesPerRun?: number;
  /** Entries removed per IndexedDB transaction inside a pass. Default: 500. */
  batchSize?: number;
  /** `false`: no background reaper; only `reap()` removes expired entries. Default: `true`. */
  autoReap?: boolean;
}

/** `set` with an expiry relative to now. */
export interface SetWithTtl {
  /** Time to live: seconds from now, or a duration string. */
  ttl: TtlInput;
  expiresAt?: never;
  keepTtl?: never;
}

/** `set` with an absolute expiry. */
export interface SetWithExpiresAt {
  /** Absolute expiry: Unix seconds, ISO-8601 string, or `Date`. */
  expiresAt: ExpiresAtInput;
  ttl?: never;
  keepTtl?: never;
}

/** `set` that keeps the entry's current expiry (Redis `SET KEEPTTL`). */
export interface SetKeepTtl {
  /** `true`: keep the expiry the entry already has (none if it is new). */
  keepTtl: true;
  ttl?: never;
  expiresAt?: never;
}

/** `set` with no expiry named: the store's `defaultTtl`, or no expiry at all. */
export interface SetWithoutExpiry {
  ttl?: undefined;
  expiresAt?: undefined;
  /** `false` or absent: a plain `set` replaces any earlier expiry. */
  keepTtl?: false;
}

/**
 * Options of `set(key, value, options)`: at most one of `ttl`, `expiresAt`, `keepTtl`. Giving both
 * `ttl` and `expiresAt` throws a `TypeError`. An expiry already in the past stores nothing and
 * removes the key.
 */
export type SetOptions = SetWithTtl | SetWithExpiresAt | SetKeepTtl | SetWithoutExpiry;

/** One entry of `setMany(entries)`: `[key, value]` or `[key, value, options]`. */
export type SetManyEntry =
  | [key: Key, value: unknown]
  | [key: Key, value: unknown, options: SetOptions];

/** Options of `expire(key, options)`: exactly one of `ttl` or `expiresAt`. */
export type ExpireOptions =
  | { /** Seconds from now, or a duration string. */ ttl: TtlInput; expiresAt?: never }
  | { /** Unix seconds, ISO-8601 string, or `Date`. */ expiresAt: ExpiresAtInput; ttl?: never };

/** What one reaper pass did (`reap()`, `stats().lastRun`). */
export interface ReapReport {
  /** Expired entries removed by this pass. */
  removed: number;
  /** Expired entries still stored after the pass (non-zero when `maxRemovesPerRun` was hit). */
  remaining: number;
  /** Wall-clock duration of the pass, in milliseconds. */
  durationMs: number;
}

/** Counters returned by `stats()`. */
export interface Stats {
  /** Reaper passes run since the store was opened (background and `reap()` alike). */
  reaperRuns: number;
  /** Entries removed by all those passes together. */
  removedTotal: number;
  /** The latest pass, or `null` before the first one. */
  lastRun: ReapReport | null;
  /** `true` between `pauseReaper()` and `resumeReaper()`. */
  reaperPaused: boolean;
}

/** `event.detail` of the `"expired"` event: entries a reaper pass removed because they expired. */
export interface ExpiredEventDetail {
  /** Keys of the removed entries. */
  keys: Key[];
}

/** `event.detail` of the `"change"` event, fired after any committed write. */
export interface ChangeEventDetail {
  /** The call that wrote: `"set"`, `"setMany"`, `"delete"`, `"deleteMany"`, `"clear"`, `"expire"`, `"persist"`... */
  op: string;
  /** Keys written or removed (empty for `clear`). */
  keys: Key[];
}

/** The events a `TtlStore` dispatches, for typing `addEventListener` handlers. */
export interface TtlStoreEventMap {
  expired: CustomEvent<ExpiredEventDetail>;
  change: CustomEvent<ChangeEventDetail>;
}

/** The `"expired"` event. */
export type ExpiredEvent = CustomEvent<ExpiredEventDetail>;

/** The `"change"` event. */
export type ChangeEvent = CustomEvent<ChangeEventDetail>;
