// The TypeScript declarations of idb-ttl (shipped as index.d.ts, the package's `types`), written
// by hand so that every signature is precise.
// Times are Unix SECONDS unless a name ends in `Ms`.
//#: Lines from `//#full` to `//#end full` are what the "idb-ttl/lite" entry lacks: scripts/build.sh
//#: leaves them out of its typings (lite/index.d.ts), and lines starting `//#` out of both.

/**
 * The default entry, `"idb-ttl"`: everything the package has.
 *
 * A time-to-live store for the browser over IndexedDB. Entries get a `ttl`, an `expiresAt` or an
 * `idle` window; reads never return an expired entry, and a background reaper removes them.
 * Start at {@link TtlStore.open}.
 *
 * Times are Unix **seconds** unless a name ends in `Ms`.
 *
 * @module idb-ttl
 */

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

/** Options of `TtlStore.destroy(name, options)`. */
export interface DestroyOptions {
  /** How long, in milliseconds, the deletion may go unanswered (and as long again after waking
   * IndexedDB) before `destroy` rejects with `TimeoutError`: a whole number up to 2147483647.
   * Default: 30 000. */
  timeoutMs?: number;
}

/** Options of `TtlStore.open(name, options)`. */
export interface StoreOptions {
  /** Expiry given to `set` calls that name none. Default: none (entries never expire). */
  defaultTtl?: TtlInput;
  /** Period of the background reaper, in milliseconds: any whole number up to 2^53 - 1 (periods
   * past 24.8 days work: the timer is chained). Default: 60000. */
  reapIntervalMs?: number;
  /** Most entries one reaper pass removes (the rest wait for the next pass). Default: 10000. */
  maxRemovesPerRun?: number;
  //#full: not in idb-ttl/lite
  /**
   * Most records one pass removes from any one collection (the key-value entries count as one,
   * so does each collection and time series). ArangoDB's `--ttl.max-collection-removes`.
   * Default: `maxRemovesPerRun` (so `{ maxRemovesPerRun: 100000 }` alone removes 100 000 entries
   * a pass).
   */
  maxRemovesPerCollection?: number;
  //#end full
  /**
   * Records removed per second at most (CockroachDB's `ttl_delete_rate_limit`): batches are at
   * most one second's worth and are spaced to keep the rate. `0`: no limit. Default: 0.
   */
  maxRemovesPerSecond?: number;
  /** Entries removed per IndexedDB transaction inside a pass. Default: 500. */
  batchSize?: number;
  /**
   * Records looked up per step of a batch (CockroachDB's `ttl_select_batch_size`, beside
   * `batchSize`'s `ttl_delete_batch_size`): a batch reads the keys it removes this many at a time.
   * Default: 500.
   */
  selectBatchSize?: number;
  /** `false`: no background reaper; only `reap()` removes expired entries. Default: `true`. */
  autoReap?: boolean;
  /**
   * How long an IndexedDB request or commit may go unanswered (another tab holding a long
   * transaction, a stuck browser) before its transaction is aborted and the call rejects with a
   * `TimeoutError`, in milliseconds, 1 to 2147483647. Default: 30000. A transaction that touches
   * more than one record and has answered once is running and is never aborted for being slow
   * (a million-entry `setMany` commits for minutes): only one that gets no answer times out.
   * Until its first answer a transaction cannot be told from a stuck one, so a browser too busy
   * to answer (a loaded phone, a page under heavy work) counts as no answer: keep `timeoutMs` in
   * seconds, well above the slowest first answer your users' devices give.
   */
  timeoutMs?: number;
  //#full: not in idb-ttl/lite
  /**
   * Hand-off: called with each batch of expired records before any of them leaves the live data
   * (deleted, or moved to an archive), and awaited. Only once it resolves are exactly those
   * records removed or archived, by primary key (a record written again meanwhile is not
   * touched). If it throws, rejects, or gives no answer within `timeoutMs`, all of them stay:
   * the pass stops there, an `"error"` event carries a `HandOffError` (`detail.records`: how
   * many were offered), `reap()` resolves with `handOffFailed: true`, and they are offered again
   * on a later pass; background passes back off meanwhile (`reapIntervalMs` x 2^(n-1) after n
   * failures in a row, at most one hour, or the interval if longer). Reads never show waiting
   * records: they have expired.
   *
   * Delivery is at least once: a tab closed between the hook's success and the delete offers
   * the same records again, so a server should write them idempotently, keyed by
   * `(kind, name, key)` with `expiresAt` as an absolute expiry (examples/redis-handoff/).
   * Each call gets one batch of a pass: at most `batchSize` records (without `batchSize`, 500
   * growing to 4000 over a backlog), within the pass caps. The pass runs where the reaper runs
   * (the leader) or where `reap()` is called, with that store's own options: give every tab and
   * worker that opens the database the same `onExpire`. With `onExpire`, neither `maxEntries`
   * nor `evictOnQuota` evicts an expired entry: it waits for the hook.
   */
  onExpire?: (records: ExpiredRecord[]) => unknown | Promise<unknown>;
  //#end full
  //#full: not in idb-ttl/lite
  /**
   * Archive tier of the key-value entries: expired entries move to `store.archive` instead of
   * being deleted, and are deleted `archiveFor` after their expiry. Seconds above 0, or an exact
   * duration (`"30 days"`, `"PT12H"`; months and years are refused: their length varies).
   * Default: none (expired entries are deleted).
   */
  archiveFor?: TtlInput;
  //#end full
  /**
   * Most entries the key-value store keeps (Redis `maxmemory` with `volatile-ttl`), a whole
   * number from 1 to 4294967295. A write (`set`, `setMany`, `import`) that leaves more stored
   * evicts, in its own transaction, from the front of the expiry order: expired entries not yet
   * reaped first (they count until reaped), then the live entries nearest to expiry; never an
   * entry without expiry nor one of the call's own keys. Evicted entries are deleted (not
   * archived, not offered to `onExpire`) and reported by an `"evicted"` event (`reason:
   * "maxEntries"`). When only such entries could make room, the call rejects with a
   * `QuotaExceededError` (`maxEntries 4 reached: 1 more would have to go, ...`) and writes
   * nothing. With `onExpire` or `archiveFor`, only live entries count and expired ones are left
   * for the reaper (to be offered or archived).
   * The same in every engine: the browser's quota is never asked. Default: no cap.
   */
  maxEntries?: number;
  /**
   * `true`: when the browser refuses a `set` or `setMany` for space (`QuotaExceededError`),
   * evict and retry (lscache's policy): expired entries first (unless `onExpire` or
   * `archiveFor` is set: those wait for the reaper), then the soonest-to-expire live entries, never an entry without expiry nor one
   * of the call's keys; 1, 2, 4... times as many entries as the write puts, retrying after each
   * round, until it fits or nothing evictable is left (at most 8 rounds). What went is reported
   * by an `"evicted"` event (`reason: "quota"`); a write still refused rejects with a
   * `QuotaExceededError` saying how many entries were evicted. Firefox counts freed space back
   * at once; Chromium only after its LevelDB compaction, so there the retry can still be
   * refused right after evicting. Default: `false`.
   */
  evictOnQuota?: boolean;
  //#full: not in idb-ttl/lite
  /**
   * Encryption at rest: entry values and documents are written AES-GCM-encrypted (Web Crypto,
   * a fresh IV per record, the record's key as additional data) under a non-extractable key the
   * store keeps in its own database; keys, ids and expiries stay plaintext (they order and index
   * the records). Values must be what the store can write faithfully: strings, numbers (NaN,
   * Infinity, -0 too), booleans, null, undefined, BigInt, arrays, plain objects, Date, Map, Set,
   * ArrayBuffer, typed arrays and DataView; anything else (a Blob, a class instance, a cycle, a
   * sparse array) is refused with a `TypeError` naming it. `{ keyTtl }`: writes move to a new key
   * after this long; the old key stays readable as long again, then expires like an entry: what
   * it encrypted reads as missing from then on and the next reaper pass removes it (an
   * `"expired"` event), then the key; a value is readable at least `keyTtl` after it was written,
   * at most twice that. `shred()`
   * destroys every key. Cannot be combined with `onExpire` or `archiveFor`. `export()` gives
   * plain values (a snapshot is the app's to keep safe); `import()` encrypts. Time series events
   * are not encrypted.
   */
  encryption?: boolean | {
    /**
     * How long writes use one key (a duration above 0 without months or years, as `archiveFor`
     * takes it): then a new key is made, and the old one stays readable as long again.
     */
    keyTtl?: TtlInput;
  };
  //#end full
}

//#full: not in idb-ttl/lite
/**
 * An expired key-value entry offered to `onExpire`. `expiresAt` (Unix seconds) is when it is
 * gone for good: for `"delete"` the expiry it reached, for `"archive"` (with `archiveFor`) its
 * expiry + `archiveFor`, when it leaves the archive. An entry already past that when offered is
 * a `"delete"`.
 */
export interface ExpiredEntryRecord {
  /** An entry of the key-value store. */
  kind: "entry";
  /** Absent for entries. */
  name?: undefined;
  /** The entry's key. */
  key: Key;
  /** The entry's value. */
  value: unknown;
  /** When it is gone for good, Unix seconds: its expiry, or, archived, its expiry + `archiveFor`. */
  expiresAt: number;
  /** `"archive"` with `archiveFor` (it moves to `store.archive`), else `"delete"`. */
  action: "archive" | "delete";
}

/**
 * An expired document offered to `onExpire`. `expiresAt` (Unix seconds): for `"delete"`, the
 * expiry it reached (reference + `expireAfter` or the delete tier's `after`); for `"archive"`,
 * its delete tier, when it leaves the archive, or `null` when no delete tier follows the
 * archive tier. A document already past its delete tier when offered is a `"delete"`.
 */
export interface ExpiredDocumentRecord {
  /** A document of a collection. */
  kind: "document";
  /** The collection. */
  name: string;
  /** The document's id. */
  key: Key;
  /** The whole document. */
  value: unknown;
  /** When it is gone for good, Unix seconds; `null` when no delete tier follows its archive tier. */
  expiresAt: number | null;
  /** `"archive"` at an archive tier, else `"delete"`. */
  action: "archive" | "delete";
  /**
   * The tier reached, by its index in `ttlIndex.tiers` (YDB's chain), when the index's tiers
   * name `handOff`; absent otherwise.
   */
  tier?: number;
}

/** A whole expired time-series bucket offered to `onExpire`; `expiresAt` is its latest event's time + `expireAfter`. */
export interface ExpiredEventsRecord {
  /** A whole time-series bucket. */
  kind: "events";
  /** The time series. */
  name: string;
  /** A string identifying the bucket (the same each time the bucket is offered). */
  key: string;
  /** The bucket's events. */
  value: unknown[];
  /** Its latest event's time + `expireAfter`, Unix seconds. */
  expiresAt: number;
  /** Buckets are deleted, never archived. */
  action: "delete";
}

/**
 * One record of an `onExpire` batch: `{ kind, name, key, value, expiresAt, action }`, where
 * `kind` says what it is (an entry, a document, a whole time-series bucket), `name` the
 * collection or time series (absent for entries), `expiresAt` Unix seconds (when it is gone for
 * good; `null` when nothing deletes it) and `action` whether it is being archived or deleted.
 */
export type ExpiredRecord = ExpiredEntryRecord | ExpiredDocumentRecord | ExpiredEventsRecord;
//#end full

/** `set` with an expiry relative to now. */
export interface SetWithTtl {
  /** Time to live: seconds from now, or a duration string. */
  ttl: TtlInput;
  /** @hidden */
  expiresAt?: never;
  /** @hidden */
  keepTtl?: never;
  /** @hidden */
  idle?: never;
}

/** `set` with an absolute expiry. */
export interface SetWithExpiresAt {
  /** Absolute expiry: Unix seconds, ISO-8601 string, or `Date`. */
  expiresAt: ExpiresAtInput;
  /** @hidden */
  ttl?: never;
  /** @hidden */
  keepTtl?: never;
  /** @hidden */
  idle?: never;
}

/**
 * `set` of an idle entry (expire-after-access): it expires `idle` after its last read, never past
 * an absolute cap given beside it as `ttl` or `expiresAt` (none without). Every read that returns
 * it (`get`, `getMany`, `values`, `entries`, `asyncStorage().getItem`, in any tab or worker)
 * starts its window again; `peek`, `has`, `keys`, `ttl` and `watch` do not. Precision: a read moves
 * the stored expiry on only once a tenth of the window has passed, so the entry expires between
 * 90 % and 100 % of `idle` after its last read (between 27 and 30 minutes for `"30 min"`), or at
 * its cap. The reads of one moment are written together, 50 ms later, in one transaction.
 */
export interface SetIdle {
  /** The idle window: seconds, or a duration string. */
  idle: TtlInput;
  /** The absolute cap, relative to now. */
  ttl?: TtlInput;
  /** The absolute cap (with `ttl`, a `TypeError`). */
  expiresAt?: ExpiresAtInput;
  /** @hidden */
  keepTtl?: never;
}

/** `set` that keeps the entry's current expiry (Redis `SET KEEPTTL`), an idle entry's window and cap too. */
export interface SetKeepTtl {
  /** `true`: keep the expiry the entry already has (none if it is new). */
  keepTtl: true;
  /** @hidden */
  ttl?: never;
  /** @hidden */
  expiresAt?: never;
  /** @hidden */
  idle?: never;
}

/** `set` with no expiry named: the store's `defaultTtl`, or no expiry at all. */
export interface SetWithoutExpiry {
  /** Absent: no expiry named. */
  ttl?: undefined;
  /** Absent: no expiry named. */
  expiresAt?: undefined;
  /** Absent: not an idle entry. */
  idle?: undefined;
  /** `false` or absent: a plain `set` replaces any earlier expiry. */
  keepTtl?: false;
}

/**
 * Options of `set(key, value, options)`: at most one of `ttl`, `expiresAt`, `keepTtl`, or `idle`
 * with `ttl` or `expiresAt` as its cap. Giving both `ttl` and `expiresAt` throws a `TypeError`.
 * An expiry already in the past stores nothing and removes the key.
 */
export type SetOptions = SetWithTtl | SetWithExpiresAt | SetIdle | SetKeepTtl | SetWithoutExpiry;

/** Options of `store.asyncStorage(options)`. */
export interface AsyncStorageOptions {
  /**
   * Put before every key in the store, so one store serves several caches; `entries()` lists only
   * the keys that start with it, without it. Default: none (`""`).
   */
  prefix?: string;
  /**
   * Every `setItem`'s expiry: seconds or a duration string (for a TanStack persister, its `maxAge`
   * / 1000). Default: the store's `defaultTtl`, or no expiry. With `idle`, the cap.
   */
  ttl?: TtlInput;
  /** Every `setItem` stores an idle entry: it expires this long after its last `getItem` (see `SetIdle`). */
  idle?: TtlInput;
}

/**
 * The storage object of `store.asyncStorage()`: the `{ getItem, setItem, removeItem, entries }`
 * that TanStack Query's persisters take (`experimental_createQueryPersister`,
 * `createAsyncStoragePersister`). Values are stored as they are (structured clone); bad keys and
 * options reject with the `TypeError` or `RangeError` the store's methods give.
 */
export interface TtlAsyncStorage<T = unknown> {
  /**
   * The value, or `null` (never `undefined`) if missing or expired.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  getItem(key: string): Promise<T | null>;
  /**
   * Stores `value` with the storage's `ttl`, or with `options` as `set()` takes them instead.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  setItem(key: string, value: T, options?: SetOptions): Promise<void>;
  /**
   * Removes `key`.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  removeItem(key: string): Promise<void>;
  /**
   * Live `[key, value]` pairs whose key starts with the prefix (taken off), in key order.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  entries(): Promise<[string, T][]>;
}

/** One entry of `setMany(entries)`: `[key, value]` or `[key, value, options]`. */
export type SetManyEntry =
  | [key: Key, value: unknown]
  | [key: Key, value: unknown, options: SetOptions];

/**
 * `expire`'s condition (Redis 7's `EXPIRE` flags): `"noExpiry"` (NX) only if the entry has no
 * expiry now; `"hasExpiry"` (XX) only if it has one; `"later"` (GT) only if the new expiry is
 * later than the current one (an entry without expiry expires never, so nothing is later);
 * `"sooner"` (LT) only if it is sooner (an entry without expiry always gets it).
 */
export type ExpireCondition = "noExpiry" | "hasExpiry" | "later" | "sooner";

/**
 * Options of `expire(key, options)`: exactly one of `ttl` or `expiresAt`, or `idle` with either as
 * its cap; `only`, the condition on which the expiry is set (none: always).
 */
export type ExpireOptions =
  | {
      /** Seconds from now, or a duration string. */ ttl: TtlInput;
      /** @hidden */ expiresAt?: never;
      /** @hidden */ idle?: never;
      /** The condition on which the expiry is set; none: always. */ only?: ExpireCondition;
    }
  | {
      /** Unix seconds, ISO-8601 string, or `Date`. */ expiresAt: ExpiresAtInput;
      /** @hidden */ ttl?: never;
      /** @hidden */ idle?: never;
      /** The condition on which the expiry is set; none: always. */ only?: ExpireCondition;
    }
  | {
      /** The idle window (see `SetIdle`). */ idle: TtlInput;
      /** The cap, relative to now. */ ttl?: TtlInput;
      /** The cap, absolute (with `ttl`, a `TypeError`). */ expiresAt?: ExpiresAtInput;
      /** The condition on which the expiry is set; none: always. */ only?: ExpireCondition;
    };

/**
 * Options of `incr` and `update`: the expiry to write, as `set` takes it, but no `keepTtl`:
 * keeping the entry's expiry is what they do without options. `incr` gives it only to a key it
 * creates (a missing or expired one); `update` writes it whatever it finds.
 */
export type ModifyOptions =
  | {
      /** Seconds from now, or a duration string. */ ttl: TtlInput;
      /** @hidden */ expiresAt?: never;
      /** @hidden */ idle?: never;
      /** @hidden */ keepTtl?: never;
    }
  | {
      /** Unix seconds, ISO-8601 string, or `Date`. */ expiresAt: ExpiresAtInput;
      /** @hidden */ ttl?: never;
      /** @hidden */ idle?: never;
      /** @hidden */ keepTtl?: never;
    }
  | {
      /** The idle window (see `SetIdle`). */ idle: TtlInput;
      /** The cap, relative to now. */ ttl?: TtlInput;
      /** The cap, absolute (with `ttl`, a `TypeError`). */ expiresAt?: ExpiresAtInput;
      /** @hidden */ keepTtl?: never;
    };

/**
 * What an `update` updater may return: its result type `R` as it is, unless `R` is a Promise or
 * another thenable (the transaction cannot wait for it: a `TypeError` at run time) or `void` (a
 * function that returns nothing would delete the entry). Those become a type that names the
 * mistake, so the call does not compile.
 */
export type SyncResult<R> = [R] extends [{ then(...args: never[]): unknown }]
  ? "an updater runs inside the transaction, which cannot wait: it must not return a Promise (await first, then call update)"
  : [R] extends [void]
    ? [void] extends [R]
      ? unknown extends R
        ? R
        : "an updater that returns nothing deletes the entry: return the new value (or undefined to delete it on purpose)"
      : R
    : R;

/** `ttl(key, { detail: true })`: the expiry of a live entry, told apart from an idle one's. */
export interface TtlDetail {
  /** Seconds left (fractional); `null` = no expiry. For an idle entry, until its window ends. */
  ttl: number | null;
  /** An idle entry's window in seconds; `null` for an entry that is not idle. */
  idle: number | null;
  /** An idle entry's absolute cap, Unix seconds; `null` without one. */
  cap: number | null;
}

/** What one reaper pass did (`reap()`, `stats().lastRun`). */
export interface ReapReport {
  /**
   * Records that left the live data in this pass, deleted or moved to an archive: entries,
   * documents and whole time-series buckets.
   */
  removed: number;
  /**
   * Expired records still stored after the pass (non-zero when a cap was hit or `onExpire`
   * failed). Archived records are not counted: they are no longer live data.
   */
  remaining: number;
  /** Of `removed`, how many moved to an archive (`archiveFor`, an archive tier). */
  archived: number;
  /**
   * How many records `onExpire` accepted (0 without `onExpire`): those of `removed` it was given,
   * and archived documents handed off at a later tier of a chain (not in `removed`: they stay
   * archived).
   */
  handedOff: number;
  /** `true` when `onExpire` failed in this pass: the pass stopped there and its records wait. */
  handOffFailed: boolean;
  /** Archived records deleted at their delete tier (not counted in `removed`). */
  archiveRemoved: number;
  /** Wall-clock duration of the pass, in milliseconds. */
  durationMs: number;
  /** Documents removed, by collection name (collections with none removed are absent). */
  collections: Record<string, number>;
  /** Whole buckets removed, by time-series name. */
  timeSeries: Record<string, number>;
}

/** Counters returned by `stats()`. */
export interface Stats {
  /** Reaper passes run since the store was opened (background and `reap()` alike). */
  reaperRuns: number;
  /** Records (entries, documents, buckets) removed by all those passes together. */
  removedTotal: number;
  /**
   * Expired records still stored after the latest pass of this member (an estimate: non-zero
   * when a cap stopped the pass; the next pass then comes within 50 ms).
   */
  waiting: number;
  /** When the latest pass of this member ended, Unix seconds, or `null` before the first one. */
  lastRunAt: number | null;
  /** The latest pass, or `null` before the first one. */
  lastRun: ReapReport | null;
  /** `true` between `pauseReaper()` and `resumeReaper()`. */
  reaperPaused: boolean;
  /**
   * `true` in the one member (tab, iframe, worker) of this database that runs the background
   * passes: the holder of its Web Lock. Where Web Locks is missing every member leads.
   */
  leader: boolean;
  /** Bytes of WebAssembly memory the module holds (one module per page or worker, all stores). */
  memoryBytes: number;
  /** Records moved to an archive by this member's passes. */
  archivedTotal: number;
  /** Records `onExpire` accepted in this member's passes. */
  handedOff: number;
  /**
   * Expired records waiting for `onExpire` after this member's latest pass (`waiting` when
   * `onExpire` is set; 0 without it).
   */
  handOffWaiting: number;
  /** This member's passes whose `onExpire` failed. */
  handOffFailures: number;
  /** Entries evicted by this member's writes, for `maxEntries` or `evictOnQuota`. */
  evictedTotal: number;
  /** Keys with at least one `watch()` listener on this store. */
  watchedKeys: number;
  /**
   * When the store's one watch timer rings (Unix seconds): the soonest expiry among the watched
   * keys, however many there are; `null` when none of them can expire.
   */
  watchTimerAt: number | null;
  /** Idle entries this member's reads extended (written; the reads of one moment count once per key). */
  idleExtended: number;
  /** Extensions this member's reads made that are not written yet (written within 50 ms, or by the next reaper pass). */
  idleWaiting: number;
  /** Live views (`observe`) open on this store. */
  views: number;
  /** Entries those views show, all together. */
  viewEntries: number;
  /** When the views' one timer rings (Unix seconds): the soonest expiry they show; `null` for none. */
  viewTimerAt: number | null;
}

/** `event.detail` of the `"expired"` event: entries a reaper pass removed because they expired. */
export interface ExpiredEventDetail {
  /** Keys of the removed entries. */
  keys: Key[];
  /** Ids of the removed documents, by collection name. */
  collections: Record<string, Key[]>;
  /** Number of whole buckets removed, by time-series name. */
  timeSeries: Record<string, number>;
  /** `true` when the pass ran in another member (tab, worker) of the database. */
  remote?: true;
}

/** `event.detail` of the `"change"` event, fired after any committed write. */
export interface ChangeEventDetail {
  /**
   * The call that wrote. Entries: `"set"`, `"setMany"`, `"delete"`, `"deleteMany"`, `"clear"`,
   * `"expire"`, `"persist"`, `"extend"` (reads moved idle entries' expiries on), `"add"`,
   * `"replace"`, `"take"`, `"incr"`, `"update"` (only when they wrote: an `add` that resolved
   * `false` fires nothing). Collections: `"put"`, `"update"`, `"delete"`, `"clear"`,
   * `"expire"` (only when the document was live), `"setExpireAfter"`, `"setTiers"`,
   * `"setSchedule"`, `"pauseReaper"`, `"resumeReaper"`, `"createTtlIndex"`, `"dropTtlIndex"`. Time series: `"insert"`, `"deleteMany"`, `"clear"`,
   * `"setGranularity"`.
   */
  op: string;
  /** Keys or document ids written or removed (empty for `clear`, index changes and events). */
  keys: Key[];
  /** The collection written, for a collection write. */
  collection?: string;
  /** The time series written, for a time-series write. */
  timeSeries?: string;
  /** `true` when the write was made in another member (tab, worker) of the database. */
  remote?: true;
}

/**
 * `event.detail` of the `"evicted"` event: live or expired entries a write
 * deleted to stay within `maxEntries` or to fit the browser's quota (`evictOnQuota`). They are
 * not `"expired"` events. Every member (tab, worker) of the database receives it, with
 * `remote: true` in the others.
 */
export interface EvictedEventDetail {
  /** Keys of the evicted entries. */
  keys: Key[];
  /** `"maxEntries"`: the cap; `"quota"`: the browser refused the write for space. */
  reason: "maxEntries" | "quota";
  /** `true` when the write was made in another member (tab, worker) of the database. */
  remote?: true;
}

/** The events a `TtlStore` dispatches, for typing `addEventListener` handlers. */
export interface TtlStoreEventMap {
  /** Records a reaper pass removed because they expired, in any member of the database. */
  expired: CustomEvent<ExpiredEventDetail>;
  /** A committed write, in any member of the database. */
  change: CustomEvent<ChangeEventDetail>;
  /** A background pass failed, or `onExpire` failed, in this member. */
  error: CustomEvent<ErrorEventDetail>;
  /** Entries a write evicted for `maxEntries` or `evictOnQuota`, in any member of the database. */
  evicted: CustomEvent<EvictedEventDetail>;
  /** The browser had closed the connection and this member's next call opened the database again. */
  reopened: CustomEvent<ReopenedEventDetail>;
}

/**
 * `event.detail` of the `"reopened"` event, fired in a member whose connection the browser
 * closed (site data cleared, the backing store shut down): its next call opened the database
 * again and went on. Calls made meanwhile wait for that open; the reaper, watches and views carry
 * on. A read in flight on the closed connection is read again on the new one; a write in flight
 * rejects with a `StorageError`, having written nothing. Another context deleting or upgrading
 * the database, or `close()`, still ends the store (`StoreClosedError`).
 */
export interface ReopenedEventDetail {
  /** `true` if the database had to be created again: what the store held is gone. */
  isNew: boolean;
  /** `"total"` when the browser said it deleted a corrupt database (Chromium), else `"none"`. */
  dataLoss: "none" | "total";
}

/**
 * `event.detail` of the `"error"` event, fired in the member that ran the pass: a background
 * reaper pass failed (a `reap()` call rejects instead), or `onExpire` failed in any pass
 * (`reap()` then resolves, with `handOffFailed: true`).
 */
export interface ErrorEventDetail {
  /**
   * A `StoreClosedError`, `QuotaExceededError` or `StorageError`; or a `HandOffError` when
   * `onExpire` threw, rejected or gave no answer within `timeoutMs` (`onExpire failed: Error:
   * server down; the 30 record(s) it was offered stay in the store (hidden from reads) and are
   * offered again on a later pass`).
   */
  error: Error;
  /** With a `HandOffError`: how many records `onExpire` was offered (all of them stay). */
  records?: number;
}

/** `store.estimate()`: the origin's storage as the browser counts it, and the store's entries. */
export interface StoreEstimate {
  /** `navigator.storage.estimate().usage`: bytes the whole origin uses (absent without a StorageManager). */
  usage?: number;
  /** `navigator.storage.estimate().quota`: bytes the origin may use (absent without a StorageManager). */
  quota?: number;
  /** Live key-value entries. */
  live: number;
  /** Expired key-value entries still stored (not reaped yet, or waiting for `onExpire`). */
  expired: number;
}

//#full: not in idb-ttl/lite
/**
 * An archive: records past an archive tier (`archiveFor` for the key-value entries, an
 * `"archive"` tier for a collection), readable until their delete tier. Archived records are no
 * longer live data: `get`, `values` and `count` of the store or collection do not show them, and
 * `export()` does not carry them.
 */
export class Archive {
  private constructor();
  /** Frees the wasm-side handle; the archive's records stay. */
  free(): void;
  /**
   * The archived value (entry value or document), `undefined` if not archived or past its delete tier.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  get<T = unknown>(key: Key): Promise<T | undefined>;
  /**
   * Archived values, the soonest to be deleted first.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  values<T = unknown>(): Promise<T[]>;
  /**
   * How many records the archive holds (not yet at their delete tier).
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  count(): Promise<number>;
  /**
   * Empties the archive.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  clear(): Promise<void>;
}
//#end full

/** The `"expired"` event. */
export type ExpiredEvent = CustomEvent<ExpiredEventDetail>;

/** The `"change"` event. */
export type ChangeEvent = CustomEvent<ChangeEventDetail>;

/** Unit of number and `BigInt` TTL-field values: seconds (default), milliseconds, microseconds, nanoseconds. */
export type TimeUnit = "s" | "ms" | "us" | "ns";

//#full: not in idb-ttl/lite
/**
 * A TTL index: a document expires at `reference + expireAfter`, the reference being the value
 * at `field`: a number or `BigInt` (Unix time in `unit`), an ISO-8601 string, a `Date`, or an
 * array of those (the earliest counts). A document whose field is missing, `null`, `NaN`,
 * `±Infinity` or not a valid date never expires (no error): the supported way to exempt a
 * document. A number, `BigInt` or `Date` whose date, read in `unit`, is after year 9999 is
 * refused with a `RangeError` (see `unit`).
 */
export type TtlIndexOptions = TtlIndexWithExpireAfter | TtlIndexWithTiers | TtlIndexAutomatic | TtlIndexAutomaticWithTiers;

/**
 * An automatic TTL index (CockroachDB's `ttl_expire_after`): no field; each document's expiry is
 * stamped at its write, `expireAfter` later, and stamped again at every later write (`put`,
 * `putMany`, `update`). Changing `expireAfter` stays O(1). `collection.expire(id, ...)` overrides
 * one document's expiry until its next write; `collection.expiresAt(id)` reads it.
 *
 * ```js
 * const sessions = await store.collection("sessions", { ttlIndex: { automatic: true, expireAfter: "30 days" } });
 * await sessions.put({ id: 1, user: 7 });     // expires 30 days from now
 * await sessions.expire(1, { ttl: "1h" });   // this one in an hour, until it is written again
 * ```
 */
export interface TtlIndexAutomatic {
  /** Stamps each document's expiry at its write. */
  automatic: true;
  /** See `TtlIndexWithExpireAfter.schedule`. */
  schedule?: string;
  /** Seconds, or a duration, months and years included, as in `TtlIndexWithExpireAfter`. */
  expireAfter: TtlInput;
  /** @hidden */
  field?: never;
  /** @hidden */
  unit?: never;
  /** @hidden */
  tiers?: never;
}

/** An automatic TTL index with tiers (YDB): each tier reached `after` the document's last write. */
export interface TtlIndexAutomaticWithTiers {
  /** Stamps each document's reference at its write. */
  automatic: true;
  /** See `TtlIndexWithExpireAfter.schedule`. */
  schedule?: string;
  /** The tiers, each reached at the last write + `after`; see `TtlTiers`. */
  tiers: TtlTiers;
  /** @hidden */
  expireAfter?: never;
  /** @hidden */
  field?: never;
  /** @hidden */
  unit?: never;
}

/** A TTL index with one window: documents are deleted at `reference + expireAfter`. */
export interface TtlIndexWithExpireAfter {
  /**
   * The field holding the reference time: a property name, or a dotted path into embedded
   * documents (`"meta.createdAt"`) read as MongoDB reads one: through embedded objects, and
   * through an array by each object in it (the values found form one array, so the earliest
   * date counts). A top-level property literally named `"meta.createdAt"` is not that path.
   * Not the collection's `keyPath`: that is a `TypeError` (MongoDB refuses `_id`).
   */
  field: string;
  /**
   * Seconds, or a duration (`"90 days"`, `"PT1H"`, `"3 weeks"`, `"3 months"`, `"P1Y"`,
   * `"1 year 2 months"`). `0`: the field is the expiry time.
   *
   * Months and years are accepted, as CockroachDB's `ttl_expire_after = '3 months'` (a year is 12
   * months): a document is expired once its reference is at or before `now` minus the months on
   * the UTC calendar, then minus the rest, exact (days are 24 h, weeks 7 days, in UTC). A reference
   * on a day the shorter month lacks expires at the first instant of the month after (Jan 30 with
   * `"1 month"`: Mar 1 00:00 UTC, February having no 30th), so the cut-off never moves back in
   * time. Changing it stays O(1) (`setExpireAfter`): no document is rewritten. Read back by
   * `ttlIndex()` as seconds, or as an ISO-8601 duration when it has months or years (`"P3M"`).
   */
  expireAfter: TtlInput;
  /** @hidden */
  tiers?: never;
  /**
   * When background passes reap this collection (CockroachDB's `ttl_job_cron`): `"@hourly"`,
   * `"@daily"`, `"@weekly"`, `"@monthly"`, `"@yearly"` or five CRON fields in UTC (`minute hour
   * day-of-month month day-of-week`; each `*`, a number or a range `a-b`, either followed by a
   * step `/n`, or a list of those), checked at each background pass (so within
   * `reapIntervalMs`). A run missed while no tab was open runs at the next open. `reap()` still
   * reaps everything now. Without it, every background pass reaps the collection. A bad
   * expression is a `TypeError` naming it. Given again with other options it replaces the saved
   * one.
   */
  schedule?: string;
  /**
   * Unit of number and `BigInt` field values (YDB's: a `Uint64` of nanoseconds is `"ns"`).
   * Default `"s"`. A value whose date in this unit is after year 9999 (`Date.now()`
   * milliseconds under `"s"`) is refused with a `RangeError` that suggests the unit that fits.
   */
  unit?: TimeUnit;
}

/** A TTL index with tiers (YDB): exactly one of `expireAfter` and `tiers`. */
export interface TtlIndexWithTiers {
  /**
   * The field holding the reference time: a property name, or a dotted path into embedded
   * documents (`"meta.createdAt"`) read as MongoDB reads one: through embedded objects, and
   * through an array by each object in it (the values found form one array, so the earliest
   * date counts). A top-level property literally named `"meta.createdAt"` is not that path.
   * Not the collection's `keyPath`: that is a `TypeError` (MongoDB refuses `_id`).
   */
  field: string;
  /** The tiers, each reached at `reference + after`; see `TtlTiers`. */
  tiers: TtlTiers;
  /** @hidden */
  expireAfter?: never;
  /** See `TtlIndexWithExpireAfter.schedule`. */
  schedule?: string;
  /**
   * Unit of number and `BigInt` field values (YDB's: a `Uint64` of nanoseconds is `"ns"`).
   * Default `"s"`. A value whose date in this unit is after year 9999 (`Date.now()`
   * milliseconds under `"s"`) is refused with a `RangeError` that suggests the unit that fits.
   */
  unit?: TimeUnit;
}

/**
 * An archive tier: at `reference + after` the document leaves the live data (`get`, `values`,
 * `count` no longer show it) and is readable through `collection.archive`. `after`: seconds, or
 * a duration, months and years included, as `expireAfter`.
 */
export interface ArchiveTier {
  /**
   * Seconds after the reference time, or a duration (`"7 days"`, `"1 month"`, `"P1Y"`). Months
   * and years count as in {@link TtlIndexWithExpireAfter.expireAfter}: the months on the UTC
   * calendar, then the exact rest; a day the shorter month lacks goes to the first instant of the
   * month after.
   */
  after: TtlInput;
  /** The document leaves the live data for `collection.archive`. */
  action: "archive";
  /**
   * `onExpire` is awaited for the documents reaching this tier (`record.tier` is its index).
   * When any tier says `handOff`, only those tiers call it; without it anywhere, every tier
   * does (when `onExpire` is given). An archive tier after the first is reached while archived:
   * handing off is what it does.
   */
  handOff?: boolean;
}

/** A delete tier: at `reference + after` the document is deleted (from the archive, if it was archived). `after` as in `ArchiveTier`. */
export interface DeleteTier {
  /**
   * Seconds after the reference time, or a duration (`"90 days"`, `"1 month"`, `"P1Y"`). Months
   * and years count as in {@link TtlIndexWithExpireAfter.expireAfter}. After an archive tier it
   * must be later than that tier's `after` for every date: its months and its rest each at least
   * that tier's, and not both equal; or, counting its months as 28 days and that tier's as 31,
   * longer. Archive after `"30 days"`, then delete after `"1 month"` is refused with a
   * `RangeError` (February is shorter); `"30 days"` then `"32 days"`, `"1 month"` then
   * `"32 days"`, `"1 month"` then `"1 month 1 day"` are accepted.
   */
  after: TtlInput;
  /** The document is deleted. */
  action: "delete";
  /** `onExpire` is awaited for the documents reaching this tier, as in `ArchiveTier.handOff`. */
  handOff?: boolean;
}

/**
 * A TTL index's tiers (YDB's chain), in order, each `after` later than the one before for every
 * date (see `DeleteTier.after`); only the last may delete.
 * - `[{ after, action: "delete" }]`: the same as `expireAfter: after`;
 * - `[{ after, action: "archive" }]`: archived at `after` and kept there until
 *   `collection.archive.clear()`;
 * - `[{ after, action: "archive" }, { after, action: "delete" }]`: archived, then deleted;
 * - any number of archive tiers, then maybe a delete tier: the later archive tiers are reached
 *   while archived, and hand records to `onExpire` where they say `handOff`. A record past
 *   several tiers at once goes through each hand-off in order, never skipping one (one whose
 *   hand-off failed waits there, and is offered again on a later pass).
 *
 * ```js
 * await store.collection("logs", { ttlIndex: { field: "at", tiers: [
 *   { after: "7 days", action: "archive" },                       // off the live data, kept on the device
 *   { after: "30 days", action: "archive", handOff: true },       // then handed to the server
 *   { after: "90 days", action: "delete" }] } });                 // then dropped
 * ```
 * Anything else is refused with a `TypeError` or `RangeError` saying what is accepted.
 */
export type TtlTiers = readonly [DeleteTier | ArchiveTier] | readonly [...ArchiveTier[], ArchiveTier | DeleteTier];
//#end full

/** A tier as stored: `after` in seconds, or an ISO-8601 duration when it has months or years. */
export interface TtlTierInfo {
  /**
   * Seconds after the reference time (a number) when the tier has no months or years; an
   * ISO-8601 duration (a string) when it has: `"P1M"`, `"P1Y2M"`, `"P1MT172800S"` (1 month
   * 2 days: the rest in seconds).
   */
  after: number | string;
  /** What happens then. */
  action: "archive" | "delete";
  /** `true` when the tier hands its records to `onExpire`. */
  handOff?: true;
}

/**
 * `ttlIndex()`: the TTL index as stored, `expireAfter` in seconds, or an ISO-8601 duration when it
 * has months or years.
 */
export interface TtlIndexInfo {
  /** The field (a property name or dotted path) holding the reference time; absent when `automatic`. */
  field?: string;
  /** `true` for an automatic index (documents expire `expireAfter` after their last write). */
  automatic?: true;
  /**
   * Seconds (a number) when the window has no months or years (`"90 days"` reads back `7776000`);
   * an ISO-8601 duration (a string) when it has: `"3 months"` reads back `"P3M"`,
   * `"1 year 2 months"` `"P1Y2M"`, `"1 month 2 days"` `"P1MT172800S"` (the rest in seconds). With
   * tiers, the first tier's `after` (when documents leave the live data).
   */
  expireAfter: number | string;
  /** Unit of number and `BigInt` field values. */
  unit: TimeUnit;
  /**
   * The tiers, `after` in seconds or as an ISO-8601 duration (as `expireAfter`), when the index
   * has an archive tier (a single delete tier is reported as `expireAfter` alone).
   */
  tiers?: TtlTierInfo[];
  /** The `schedule` background passes reap the collection by, when it has one. */
  schedule?: string;
  /** `true` while `pauseReaper()` holds the collection's reaping (saved in the database). */
  paused?: true;
}

/** `collection.stats()`: counted when called, and this member's reaper counters. */
export interface CollectionStats {
  /** Live documents. */
  live: number;
  /** Expired documents not removed yet. */
  expired: number;
  /** Documents this member's passes removed (moved to the archive included). */
  removedTotal: number;
  /** When this member's last pass ran the collection's turn (Unix seconds), or `null`. */
  lastRunAt: number | null;
  /** The next scheduled run (as `nextReapAt()`), or `null`. */
  nextRunAt: number | null;
  /** Milliseconds this member's passes spent looking up the collection's expired documents. */
  selectMs: number;
  /** Milliseconds they spent deleting them. */
  deleteMs: number;
}

//#full: not in idb-ttl/lite
/** Options of `store.collection(name, options)`. */
export interface CollectionOptions {
  /** The document property holding its id (a string or number). Default `"id"`; fixed once created. */
  keyPath?: string;
  /** The collection's one TTL index. Given for an existing collection it must match, unless it has none. */
  ttlIndex?: TtlIndexOptions;
}

/** A collection of documents with an optional TTL index. Expired documents are never returned. */
export class Collection {
  private constructor();
  /** Frees the wasm-side handle; the collection's documents stay. */
  free(): void;
  /** The collection's name. */
  readonly name: string;
  /** The document property holding its id. */
  readonly keyPath: string;
  /**
   * Stores a document, replacing the one with the same id.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a NaN id, or a number, `BigInt` or `Date` in the TTL field whose date,
   *   read in the index's `unit`, is after year 9999 (`Date.now()` milliseconds under
   *   `unit: "s"`): the message names the document's id, the collection, the field, the value
   *   and the unit, and suggests the unit that fits (`unit: "ms"`); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  put(doc: object): Promise<void>;
  /**
   * Stores documents in one transaction, all or nothing.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a NaN id, or a number, `BigInt` or `Date` in the TTL field whose date,
   *   read in the index's `unit`, is after year 9999 (`Date.now()` milliseconds under
   *   `unit: "s"`): the message names the document's id, the collection, the field, the value
   *   and the unit, and suggests the unit that fits (`unit: "ms"`); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  putMany(docs: object[]): Promise<void>;
  /**
   * The live document, or `undefined`.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  get<T = unknown>(id: Key): Promise<T | undefined>;
  /**
   * The live documents of `ids`, in their order, `undefined` where missing or expired.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  getMany<T = unknown>(ids: Key[]): Promise<(T | undefined)[]>;
  /**
   * `true` if a live document was removed.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  delete(id: Key): Promise<boolean>;
  /**
   * When the document expires: Unix seconds, `null` if it never expires (no TTL index, or a
   * field that is not a date), `undefined` if it is missing or expired.
   * @throws `TypeError`: an id that is not a string or number.
   * @throws `RangeError`: a NaN id.
   * @throws `StoreClosedError`, `TimeoutError`, `StorageError`: as `get`.
   */
  expiresAt(id: Key): Promise<number | null | undefined>;
  /**
   * On a collection with an automatic TTL index: gives the live document `id` the expiry
   * `{ ttl }` (from now) or `{ expiresAt }` until its next write stamps it again (CockroachDB:
   * setting a row's `crdb_internal_expiration`); an expiry already past ends it at once. `false`
   * if it was missing or expired. With months in `expireAfter`, an override lands on a day a
   * shorter month lacks counts from the first instant of the month after.
   * @throws `TypeError`: the collection's index is not automatic (documents dated by a field
   *   expire by that field: write the date there), no index, neither or both of `ttl` and
   *   `expiresAt`, a bad id; nothing is written.
   * @throws `RangeError`: a negative `ttl`, an `expiresAt` that looks like milliseconds or is
   *   past 9999; nothing is written.
   * @throws `StoreClosedError`, `TimeoutError`, `StorageError`: as `put`.
   */
  expire(id: Key, options: { ttl: TtlInput } | { expiresAt: ExpiresAtInput }): Promise<boolean>;
  /**
   * Removes the documents of `ids`; how many live documents were removed.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  deleteMany(ids: Key[]): Promise<number>;
  /**
   * MongoDB's `findOneAndUpdate`: runs `updater(doc)` (the live document, or `undefined`)
   * synchronously inside one readwrite transaction and writes the document it returns, which the
   * promise resolves to. Its id (the `keyPath` field) must still be `id` (else a `TypeError`);
   * its expiry is read from its TTL field, so `doc.createdAt = new Date()` moves it on. Returning
   * `undefined` deletes the document. Throwing and Promises as in `TtlStore.update`.
   * @throws whatever the updater throws; nothing is written.
   * @throws `TypeError`: a bad id, a document whose id changed, an updater that returns a Promise;
   *   nothing is written.
   * @throws `RangeError`: the new document's TTL field holds a number, `BigInt` or `Date` whose
   *   date, read in the index's `unit`, is after year 9999, as `put` refuses it (the message names
   *   the document, the field, the value and the unit); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  update<T extends object = Record<string, unknown>, R extends T | undefined = T | undefined>(
    id: Key,
    updater: (doc: T | undefined) => SyncResult<R>,
  ): Promise<R>;
  /**
   * Number of live documents.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  count(): Promise<number>;
  /**
   * Live documents in id order.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  values<T = unknown>(): Promise<T[]>;
  /**
   * Removes every document (the archive stays).
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  clear(): Promise<void>;
  /**
   * Changes the TTL window (MongoDB `collMod`): O(1), no document is rewritten. Seconds or a
   * duration, months and years included (`"3 months"`, `"P1Y"`, `"1 year 2 months"`, as
   * CockroachDB's `ALTER TABLE ... SET (ttl_expire_after = '3 months')`): counted as
   * `ttlIndex.expireAfter` is, the months on the UTC calendar, then the exact rest, when each
   * cut-off is computed.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  setExpireAfter(expireAfter: TtlInput): Promise<void>;
  /**
   * Changes the TTL index's tiers (same rules as `ttlIndex.tiers`): O(1), no document is rewritten.
   * A tier's `after` takes months and years (`{ after: "1 month", action: "archive" }`), and a
   * delete tier must be later than the archive tier for every date (`"30 days"` then `"1 month"`
   * is a `RangeError`: February).
   * @throws `TypeError` or `RangeError`: tiers that are not one of the accepted shapes, saying what
   *   is accepted.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  setTiers(tiers: TtlTiers): Promise<void>;
  /** Documents past an archive tier, readable until their delete tier. */
  readonly archive: Archive;
  /** The TTL index, or `null`. */
  ttlIndex(): TtlIndexInfo | null;
  /**
   * A live view of the collection's documents, as `store.observe` gives the entries:
   * `listener(documents)` with `[{ key: id, value: document, expiresAt }]` in id order (`expiresAt`:
   * the TTL field plus `expireAfter`, in Unix seconds; `null` without a TTL index), at once, after
   * every change here or in another tab or worker (a new window from `setExpireAfter` included),
   * and as each document expires. Returns the function that stops it.
   * @throws `TypeError`, thrown at once: a listener that is not a function.
   * @throws `StoreClosedError`, thrown at once: the store was closed.
   */
  observe<T = unknown>(listener: (documents: readonly ViewEntry<T>[]) => void): () => void;
  /**
   * Removes the TTL index (documents then never expire); `false` if there was none.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  dropTtlIndex(): Promise<boolean>;
  /**
   * Stops the reaper removing this collection's documents, in every member and in stores opened
   * later (CockroachDB's `ttl_pause`, a table parameter): background passes and `reap()` leave
   * them until `resumeReaper()`. Reads still hide expired documents. Saved in the database;
   * `ttlIndex().paused` shows it.
   * @throws `TypeError`: the collection has no TTL index.
   * @throws `StoreClosedError`, `TimeoutError`, `StorageError`: as `put`.
   */
  pauseReaper(): Promise<void>;
  /** Lets the reaper remove this collection's expired documents again, in every member. */
  resumeReaper(): Promise<void>;
  /**
   * When a background pass next reaps the collection by its `schedule` (Unix seconds; in the
   * past while a run is due); `null` without a schedule (every background pass reaps it, each
   * `reapIntervalMs`), while paused, or without a TTL index.
   */
  nextReapAt(): Promise<number | null>;
  /**
   * The collection's live and expired documents (counted now), and this member's reaper
   * counters for it (CockroachDB's `ttl_label_metrics`).
   */
  stats(): Promise<CollectionStats>;
}
//#end full

/** Bucket span: `"seconds"` = 1-hour buckets, `"minutes"` = 1 day, `"hours"` = 30 days. */
export type Granularity = "seconds" | "minutes" | "hours";

//#full: not in idb-ttl/lite
/** Options of `store.timeSeries(name, options)`. */
export interface TimeSeriesOptions {
  /**
   * The event field holding its time: a property name, or a dotted path (`"t.at"`) read as
   * `ttlIndex.field` is. The time is Unix seconds, an ISO-8601 string or a `Date`; a number that
   * looks like milliseconds (`Date.now()`) is refused with a `RangeError` naming the event.
   */
  timeField: string;
  /**
   * The event field identifying its series (sensor, ticker...), a property name or a dotted path
   * (`"meta.sensor"`): events are bucketed per value.
   */
  metaField?: string;
  /**
   * The bucket span: `"seconds"` (1-hour buckets, the default), `"minutes"` (1 day) or `"hours"`
   * (30 days). Changed later with `setGranularity`, to a coarser one only. Not with
   * `bucketMaxSpanSeconds`.
   */
  granularity?: Granularity;
  /**
   * MongoDB's custom bucketing: each bucket spans this many seconds (1 to 31536000), its start
   * rounded down to a multiple of `bucketRoundingSeconds`, which must be equal (as MongoDB
   * requires; otherwise a `TypeError`). Instead of `granularity`.
   */
  bucketMaxSpanSeconds?: number;
  /** Equal to `bucketMaxSpanSeconds`, given with it. */
  bucketRoundingSeconds?: number;
  /**
   * A bucket is closed at this many bytes of events (each event's `JSON.stringify` length) as
   * well as at 1 000 events; an event larger than it gets a bucket of its own. Default 128000
   * (MongoDB's 125 KiB); 1024 to 16777216.
   */
  maxBucketBytes?: number;
  /**
   * Events expire this long after their time (seconds or a duration); whole buckets are reaped.
   * Months and years are accepted (`"1 month"`, `"P1Y"`) and count as a collection's
   * `ttlIndex.expireAfter`: an event is expired once its time is at or before `now` minus the
   * months on the UTC calendar, then minus the exact rest; a day the shorter month lacks goes to
   * the first instant of the month after. Read back in `options.expireAfter` as an ISO-8601
   * duration (`"1 month"`: `"P1M"`).
   */
  expireAfter?: TtlInput;
}
//#end full

/**
 * `timeSeries.options`, `expireAfter` in seconds, or an ISO-8601 duration when it has months or
 * years.
 */
export interface TimeSeriesInfo {
  /** The event field (a property name or dotted path) holding its time. */
  timeField: string;
  /** The event field (a property name or dotted path) identifying its series; `null` for none. */
  metaField: string | null;
  /** The bucket span; `null` with a custom span (`bucketMaxSpanSeconds`). */
  granularity: Granularity | null;
  /** Each bucket's span in seconds (3600, 86400 or 2592000 for a granularity). */
  bucketMaxSpanSeconds: number;
  /** Equal to `bucketMaxSpanSeconds`. */
  bucketRoundingSeconds: number;
  /** Bytes of events at which a bucket is closed. */
  maxBucketBytes: number;
  /**
   * Seconds after their time that events expire (a number) when the window has no months or
   * years; an ISO-8601 duration (a string) when it has (`"1 month"` reads back `"P1M"`); `null`:
   * never.
   */
  expireAfter: number | string | null;
}

//#full: not in idb-ttl/lite
/** Options of `query`: bounds are inclusive and take the `expiresAt` formats. */
export interface QueryOptions {
  /** Only the events of this meta value. */
  meta?: unknown;
  /** The earliest event time, included. */
  from?: ExpiresAtInput;
  /** The latest event time, included. */
  to?: ExpiresAtInput;
}

/** A time series whose events are stored in buckets of up to 1000 (MongoDB time-series collections). */
export class TimeSeries {
  private constructor();
  /** Frees the wasm-side handle; the events stay. */
  free(): void;
  /** The time series' name. */
  readonly name: string;
  /** Its definition, `expireAfter` in seconds (an ISO-8601 duration with months or years). */
  readonly options: TimeSeriesInfo;
  /**
   * Appends one event.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: an event time out of range (a number that looks like milliseconds, as
   *   from `Date.now()`, or a year past 9999), naming the event; nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  insert(event: object): Promise<void>;
  /**
   * Appends events in one transaction, all or nothing; resolves to the bucket records written.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: an event time out of range (a number that looks like milliseconds, as
   *   from `Date.now()`, or a year past 9999), naming the event; nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  insertMany(events: object[]): Promise<number>;
  /**
   * Live events in range, oldest first.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  query<T = unknown>(options?: QueryOptions): Promise<T[]>;
  /**
   * Number of live events.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  count(): Promise<number>;
  /**
   * Bucket records stored (including expired ones not reaped yet).
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  bucketCount(): Promise<number>;
  /**
   * Removes the events with time in `[from, to]` (inclusive; either open when absent; the
   * `expiresAt` formats), of one meta value if `meta` is given (MongoDB `deleteMany` by metaField
   * and time), in one transaction; resolves to how many live events were removed. A bucket left
   * empty goes.
   *
   * ```js
   * await temps.deleteMany({ meta: "sensorA", to: "2026-11-01" });   // sensorA's events up to Nov 1
   * ```
   * @throws `TypeError`: bad options (an unknown option, an unparsable time); nothing is removed.
   * @throws `RangeError`: a time that looks like milliseconds or is past 9999; nothing is removed.
   * @throws `StoreClosedError`, `TimeoutError`, `StorageError`: as `clear`.
   */
  deleteMany(options: QueryOptions): Promise<number>;
  /**
   * Buckets new events by `granularity` from now on (MongoDB `collMod`): the same or a coarser
   * span than today's only; buckets already written keep theirs and stay readable. Every member
   * of the database follows.
   * @throws `TypeError`: a finer granularity than today's, or not one of the three names.
   * @throws `StoreClosedError`, `TimeoutError`, `StorageError`: as `clear`.
   */
  setGranularity(granularity: Granularity): Promise<void>;
  /**
   * Removes every event.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  clear(): Promise<void>;
}
//#end full

/** A JSON snapshot made by `store.export()`. Values are JSON; a `Date` is `{ "$date": ISO }`. */
export interface Snapshot {
  /** Always `"idb-ttl-snapshot"`. */
  format: "idb-ttl-snapshot";
  /** The snapshot format's version. */
  version: 1;
  /** The database it was exported from. */
  database: string;
  /** When, Unix seconds. */
  exportedAt: number;
  /** The live entries. */
  entries: {
    /** The entry's key. */
    key: Key;
    /** Unix seconds; `null` = no expiry. */
    expiresAt: number | null;
    /** The value, as JSON. */
    value: unknown;
  }[];
  /** The collections, each with its definition and live documents. */
  collections: {
    /** The collection's name. */
    name: string;
    /** The document property holding its id. */
    keyPath: string;
    /** Its TTL index, or `null`. */
    ttlIndex: TtlIndexInfo | null;
    /** Its live documents. */
    documents: {
      /** Unix seconds; `null` = never. */
      expiresAt: number | null;
      /** The document, as JSON. */
      document: unknown;
    }[];
  }[];
  /** The time series, each with its definition and live buckets. */
  timeSeries: {
    /** The time series' name. */
    name: string;
    /** Its definition. */
    options: TimeSeriesInfo;
    /** Its buckets. */
    buckets: {
      /** The bucket's meta value. */
      meta: unknown;
      /** When the whole bucket expires, Unix seconds; `null` = never. */
      expiresAt: number | null;
      /** Its events, as JSON. */
      events: unknown[];
    }[];
  }[];
}

/**
 * The last argument of long work (`setMany`, `import`, `export`, `exportStream`, `clear`,
 * `reap`, and `collection` when it builds a TTL index over stored documents). Any other property
 * is a `TypeError`.
 */
export interface LongOptions {
  /**
   * Aborting rejects the call with the signal's reason (`setMany` and `import` write nothing;
   * `reap()` keeps what it removed, announced by `"expired"` and counted in `stats()`; an
   * `exportStream()` errors with it; `collection` creates no index). Already aborted: the call
   * does nothing. An abort after the work committed has no effect.
   */
  signal?: AbortSignal;
  /**
   * Told `{ done, total }` at most every 100 ms while the call runs, when it changed: records
   * written (`setMany`, `import`), read (`export`), removed (`reap`), documents checked then
   * moved (`collection`: twice the documents), or the one request of `clear`. One that throws stops the call as an abort would, which rejects with what it threw.
   */
  onProgress?: (progress: Progress) => void;
}

/** How far a long call got. */
export interface Progress {
  /** Records written, read or removed so far. */
  done: number;
  /** How many there are in all. */
  total: number;
}

/** What `store.import(snapshot)` restored. */
export interface ImportReport {
  /** Entries written. */
  entries: number;
  /** Documents written. */
  documents: number;
  /** Time-series events written. */
  events: number;
  /** Entries, documents and events left out because they expired since the export. */
  skipped: number;
}

/**
 * A time-to-live key-value store over one IndexedDB database. Every method that touches the
 * database returns a Promise; bad arguments reject it with a `TypeError` or `RangeError` (nothing
 * is written), storage failures with an `Error` named `QuotaExceededError` (the browser refused
 * the write for space, or `maxEntries` could not be kept), `StoreClosedError`, `TimeoutError` (no
 * answer within `timeoutMs`; the transaction was aborted), `StoreUnavailableError` (no IndexedDB
 * here, e.g. Node during SSR) or `StorageError`; from `"idb-ttl/lite"` also
 * `StoreUnsupportedError` (the database holds collections, time series, archived records or
 * encryption keys, which only `"idb-ttl"` reads and reaps). A `HandOffError` (`onExpire` failed)
 * never rejects a call: it arrives in an `"error"` event.
 *
 * Options arguments are plain objects; `undefined` or `null` means none. Anything else (a `Date`,
 * a boxed number, an array, a DOM node) is refused with a `TypeError`, as is an argument whose
 * getter throws or a revoked `Proxy` (the thrown error is the `cause`). Names are non-empty strings
 * of at most 1000 characters without lone surrogates. Methods called with another `this` throw
 * (async ones reject) a `TypeError`.
 */
export class TtlStore {
  private constructor();
  /** Frees the wasm-side object; `close()` first if the store is open. */
  free(): void;
  /**
   * Opens (creating if needed) the IndexedDB database `name`. An open that gets no answer within
   * `timeoutMs` wakes IndexedDB and waits `timeoutMs` more on the same request, then rejects with
   * a `TimeoutError` ("while opening the database"): usually another tab or worker keeps an older
   * version of the database open. Close or reload it and open again; the given-up open leaves
   * nothing behind.
   * @throws `TypeError`: a name that is not a non-empty string, an unknown or mistyped option, or
   *   options given to the lite entry that only the default entry has.
   * @throws `RangeError`: an option out of range (a negative `defaultTtl`, `archiveFor: 0`...).
   * @throws `TimeoutError`: the open got no answer within `timeoutMs`, nor `timeoutMs` after waking
   *   IndexedDB.
   * @throws `StoreUnavailableError`: no IndexedDB here (Node during server-side rendering, storage
   *   disabled), or the WebAssembly module could not load (a Content-Security-Policy without
   *   `'wasm-unsafe-eval'`, no `DecompressionStream`).
   * @throws `StoreUnsupportedError`: from `"idb-ttl/lite"` only, the database holds collections,
   *   time series, archived records or encryption keys, which only `"idb-ttl"` reads.
   * @example
   * ```ts
   * const store = await TtlStore.open("app-cache", { defaultTtl: "1 day", reapIntervalMs: 60_000 });
   * ```
   */
  static open(name: string, options?: StoreOptions): Promise<TtlStore>;
  /**
   * Deletes the whole database; open stores on it close (later calls reject with `StoreClosedError`).
   * A connection that does not close when asked (another library's, in another tab or worker)
   * holds the deletion back until it closes.
   * @throws `TypeError`: a name that is not a non-empty string, or bad `options`.
   * @throws `TimeoutError`: no answer within `options.timeoutMs` (default 30 000), nor within as
   *   long again after IndexedDB was woken: a connection keeps the database open. The deletion
   *   stays queued and happens once that connection closes.
   * @throws `StoreUnavailableError`: no IndexedDB here (Node during server-side rendering, storage
   *   disabled), or the WebAssembly module could not load (a Content-Security-Policy without
   *   `'wasm-unsafe-eval'`, no `DecompressionStream`).
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  static destroy(name: string, options?: DestroyOptions): Promise<void>;
  /** The database name. */
  readonly name: string;
  /**
   * `true` if this `open()` created the database: it did not exist, or the browser deleted it (a
   * crash, storage pressure, the user clearing site data). An app that expected data here can
   * tell that it was lost rather than never written.
   */
  readonly isNew: boolean;
  /**
   * `"total"` when the browser deleted a corrupt database and this `open()` created it again
   * (Chromium's `IDBVersionChangeEvent.dataLoss`; `isNew` is `true` then too), else `"none"`.
   * Read from the upgrade event (in a window or a worker): Firefox and WebKit always say `"none"`.
   * `isNew && dataLoss === "total"` means the browser threw data away: fetch it again from the
   * server tier.
   */
  readonly dataLoss: "none" | "total";
  /** The browser's reason for a `dataLoss` of `"total"` (`"total"` if it gave none), else `""`. */
  readonly dataLossMessage: string;
  //#full: not in idb-ttl/lite
  /** The key-value entries' archive (`archiveFor`): expired entries, readable until their delete tier. */
  readonly archive: Archive;
  //#end full
  /**
   * `navigator.storage.estimate()`'s `usage` and `quota` (absent without a StorageManager) with
   * the store's live and expired-but-still-stored entries.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  estimate(): Promise<StoreEstimate>;
  /**
   * Asks for persistent storage (`navigator.storage.persist()`), which the browser does not
   * evict under pressure; resolves to whether it is granted (`false` without a StorageManager).
   * Firefox shows the user a permission prompt and the promise waits for the answer; Chromium
   * grants by site engagement, without asking.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   */
  persistStorage(): Promise<boolean>;
  //#full: not in idb-ttl/lite
  /**
   * Destroys the encryption keys of a store opened with `{ encryption }` and removes everything
   * they encrypted (entries and documents) in one transaction: from the moment it resolves
   * nothing of it is readable in any tab or worker (reads `undefined`, `count()` 0), and views and
   * watches hear a clear. A store without encryption refuses it with a `TypeError` (use `clear()`).
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written. (here: a store opened without
   *   `encryption`)
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  shred(): Promise<void>;
  //#end full
  /**
   * Writes `value` under `key`; resolves once committed. An expiry in the past removes the key.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   * @example
   * ```ts
   * await store.set("session", { user: 7 }, { ttl: 3600 });                    // an hour from now
   * await store.set("banner", "hello", { expiresAt: "2036-12-24T18:00:00Z" }); // an instant
   * await store.set("sid", "abc", { idle: "30 min", ttl: "12 h" });            // idle, with a cap
   * ```
   */
  set(key: Key, value: unknown, options?: SetOptions): Promise<void>;
  /**
   * The value, or `undefined` if missing or expired. An idle entry's window starts again (see `SetIdle`).
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  get<T = unknown>(key: Key): Promise<T | undefined>;
  /**
   * Like `get`, without starting an idle entry's window again.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  peek<T = unknown>(key: Key): Promise<T | undefined>;
  /**
   * Whether `key` has a live (unexpired) entry.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  has(key: Key): Promise<boolean>;
  /**
   * Removes `key`; `true` if a live entry was removed.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  delete(key: Key): Promise<boolean>;
  /**
   * Removes every entry.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   * @throws the `signal`'s reason, when it aborts the call (see `LongOptions`).
   */
  clear(options?: LongOptions): Promise<void>;
  /**
   * Writes every entry in one transaction: all or nothing (an aborted `signal` writes nothing).
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   * @throws the `signal`'s reason, when it aborts the call (see `LongOptions`).
   * @example
   * ```ts
   * await store.setMany([["a", 1], ["b", 2, { ttl: 60 }]], {
   *   signal: controller.signal,
   *   onProgress: ({ done, total }) => console.log(`${done} / ${total}`),
   * });
   * ```
   */
  setMany(entries: SetManyEntry[], options?: LongOptions): Promise<void>;
  /**
   * Values in the order of `keys`, `undefined` where missing or expired.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  getMany<T = unknown>(keys: Key[]): Promise<(T | undefined)[]>;
  /**
   * Removes `keys`; how many live entries were removed.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  deleteMany(keys: Key[]): Promise<number>;
  /**
   * Live keys, in IndexedDB key order (numbers before strings).
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  keys(): Promise<Key[]>;
  /**
   * Live values, in key order.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  values<T = unknown>(): Promise<T[]>;
  /**
   * Live `[key, value]` pairs, in key order.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  entries<T = unknown>(): Promise<[Key, T][]>;
  /**
   * Number of live entries.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  count(): Promise<number>;
  /**
   * Expiry in Unix seconds; `null` = no expiry; `undefined` = missing or expired.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  expiresAt(key: Key): Promise<number | null | undefined>;
  /**
   * Seconds left (fractional); `null` = no expiry; `undefined` = missing or expired.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  ttl(key: Key, options?: { detail?: false }): Promise<number | null | undefined>;
  /** With `{ detail: true }`: seconds left with an idle entry's window and cap; `undefined` = missing or expired. */
  ttl(key: Key, options: { detail: true }): Promise<TtlDetail | undefined>;
  /**
   * Sets or changes the expiry of a live entry (Redis `EXPIRE`), only when `only` holds if given
   * (see `ExpireCondition`); `true` if the entry was live and the expiry was set, `false` if it
   * was missing or expired or the condition did not hold. A past expiry removes it.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  expire(key: Key, options: ExpireOptions): Promise<boolean>;
  /**
   * Removes the expiry (Redis `PERSIST`); `false` if missing or it had none.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  persist(key: Key): Promise<boolean>;
  /**
   * Writes `value` only where no live entry is (Redis `SET NX`; an expired entry not reaped yet
   * counts as absent); `true` if it wrote. Options as `set`'s. One readwrite transaction: of
   * any number of tabs and workers adding one key at once, exactly one gets `true`.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   * @example
   * ```ts
   * if (await store.add("banner:seen", true, { ttl: "1 day" })) showBanner(); // one tab a day
   * ```
   */
  add(key: Key, value: unknown, options?: SetOptions): Promise<boolean>;
  /**
   * Writes `value` only over a live entry (Redis `SET XX`); `true` if it wrote, `false` (nothing
   * written) if the key is missing or expired. Options as `set`'s: `{ keepTtl: true }` keeps the
   * entry's expiry.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  replace(key: Key, value: unknown, options?: SetOptions): Promise<boolean>;
  /**
   * The live value, deleted in the same transaction (Redis `GETDEL`): of several tabs taking one
   * key at once, one gets it. `undefined` (nothing deleted) if missing or expired.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  take<T = unknown>(key: Key): Promise<T | undefined>;
  /**
   * Adds `by` (default 1; any finite number, negative or fractional) to a number entry in one
   * readwrite transaction and resolves to the new number: no count is lost between tabs. A
   * missing or expired key starts from 0 and takes `options`' expiry (or the store's
   * `defaultTtl`); a live one keeps its own expiry (Redis `INCR`), so
   * `incr("hits", 1, { ttl: 60 })` counts in a fixed 60 s window. Nothing is written when the
   * stored value is not a number or `by` is not a finite number (`TypeError` naming the key), or
   * the sum is not finite (`RangeError`).
   * @throws `TypeError`: a bad key or options, a `by` that is not a finite number, or a stored
   *   value that is not a number; nothing is written.
   * @throws `RangeError`: a sum that is not finite, or a number out of range in the options;
   *   nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   * @example
   * ```ts
   * // A fixed-window rate limit: at most 5 attempts a minute, counted across tabs.
   * const attempts = await store.incr(`login:${user}`, 1, { ttl: 60 });
   * if (attempts > 5) throw new Error("too many attempts, try again in a minute");
   * ```
   */
  incr(key: Key, by?: number, options?: ModifyOptions): Promise<number>;
  /**
   * Runs `updater(current)` (the live value, or `undefined`) synchronously inside one readwrite
   * transaction and writes what it returns, which the promise resolves to; returning `undefined`
   * deletes the entry (so `get` afterwards gives what `update` resolved to). The entry's expiry is
   * kept unless `options` give one; a new key takes `options` or the store's `defaultTtl`.
   * An updater that throws rejects the call with what it threw; one that returns a Promise or
   * another thenable is a `TypeError` (it must not be `async`); either way nothing is written.
   * In a store opened with `{ encryption }` the updater may run more than once (the store
   * decrypts outside the transaction and writes only if the entry is unchanged, else retries):
   * keep it free of side effects.
   *
   * Type the value with `update<T>(key, (current) => ...)` or by annotating `current`.
   * @throws whatever the updater throws; nothing is written.
   * @throws `TypeError`: a bad key or options, an updater that is not a function or returns a
   *   Promise or another thenable; nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; in an encrypted store,
   *   also 50 rounds undone by other writes.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   * @example
   * ```ts
   * const recent = await store.update<string[]>("recent", (list) => [...(list ?? []), "/home"].slice(-10));
   * ```
   */
  update<T = unknown, R extends T | undefined = T | undefined>(
    key: Key,
    updater: (current: T | undefined) => SyncResult<R>,
    options?: ModifyOptions,
  ): Promise<R>;
  //#full: not in idb-ttl/lite
  /**
   * Opens collection `name`, creating it if new.
   *
   * A TTL index given to a collection that holds documents keys them by it a page of 1 000 at a
   * time, each page in a transaction of its own (ArangoDB builds a TTL index in the background):
   * every document is checked first, then moved. `long`'s `onProgress({ done, total })` counts
   * both passes (twice the documents) and its `signal` stops the build. Until the call resolves
   * the collection has no TTL index, so reads show every document (none counts as expired);
   * stopped or refused, the index is not created and building it again starts over.
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry, a `ttlIndex.field` equal to the `keyPath`); nothing
   *   is written.
   * @throws `RangeError`: a number out of range (a negative `expireAfter`, a tier out of order),
   *   or, for a TTL index given to a collection that holds documents, a document whose TTL field
   *   holds a date after year 9999 in the index's `unit` (as `Collection.put` refuses it); nothing
   *   is written and the index is not created.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  collection(name: string, options?: CollectionOptions, long?: LongOptions): Promise<Collection>;
  /**
   * Opens time series `name`, creating it with `options` if new (only `expireAfter` may change later).
   * @throws `TypeError`: a bad argument (a key that is not a string or number, an unknown or
   *   mistyped option, an unparsable expiry); nothing is written.
   * @throws `RangeError`: a number out of range (a NaN key, a negative ttl, an expiry that looks
   *   like milliseconds, a year past 9999); nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   */
  timeSeries(name: string, options?: TimeSeriesOptions): Promise<TimeSeries>;
  //#end full
  /**
   * A JSON-serialisable snapshot of every live entry, document and event with its expiry.
   * Rejects with a `TypeError` naming the value if one cannot be carried by JSON (a `Map`, a
   * `Blob`, `undefined`...): nothing is silently changed.
   * @throws `TypeError`: a value JSON cannot carry faithfully (a `Map`, a `Blob`, `undefined`...),
   *   named by its key and path; or a bad option.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   * @throws the `signal`'s reason, when it aborts the call (see `LongOptions`).
   */
  export(options?: LongOptions): Promise<Snapshot>;
  /**
   * The export as a stream of snapshots of up to 1 000 items each (each importable alone), read
   * page by page as the stream is read, so a million entries never sit in one array. Write each
   * as a line of JSON to save it to a file; `import()` takes the stream, or such a file's
   * stream, back. Bad options throw a `TypeError` here.
   * @throws `TypeError`, thrown at once: a bad option. Failures while reading error the stream.
   */
  exportStream(options?: LongOptions): ReadableStream<Snapshot>;
  /**
   * Restores a snapshot, a stream of them (`exportStream()`), or a stream of text or bytes with
   * one snapshot per line (a file of them); what expired since the export is left out. All or
   * nothing: a stream is read to its end before anything is written.
   * @throws `TypeError`: a snapshot item, a stream line or a value that is not what `export()`
   *   writes (nothing is written), or a collection or time series that exists with another
   *   definition.
   * @throws `RangeError`: an expiry out of range (`NaN`, milliseconds), or a document whose TTL
   *   field holds a date after year 9999 in its index's `unit` (as `Collection.put` refuses it);
   *   nothing is written.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `QuotaExceededError`: the browser refused the write for space (with `evictOnQuota`,
   *   even after evicting), or `maxEntries` could not be kept; nothing is written.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   * @throws the `signal`'s reason, when it aborts the call (see `LongOptions`).
   */
  import(snapshot: Snapshot | ReadableStream<Snapshot | string | Uint8Array>, options?: LongOptions): Promise<ImportReport>;
  /**
   * A storage object over this store's entries for TanStack Query's persisters: `prefix`
   * namespaces its keys, `ttl` is every write's expiry. Bad options throw a `TypeError` or
   * `RangeError` here.
   * @throws `TypeError`, thrown at once: an unknown option, a prefix that is not a string, an
   *   `idle` that is not a duration.
   * @throws `RangeError`, thrown at once: a negative `ttl` or `idle`.
   * @example
   * ```ts
   * const storage = store.asyncStorage({ prefix: "queries:", ttl: "1 day" });
   * await storage.setItem("todos", [{ id: 1 }]);
   * ```
   */
  asyncStorage<T = unknown>(options?: AsyncStorageOptions): TtlAsyncStorage<T>;
  /**
   * Runs one reaper pass now (with `onExpire`, awaiting it here). A failed hand-off resolves with `handOffFailed: true`.
   * @throws `StoreClosedError`: the store was closed, or another tab or worker deleted or upgraded
   *   the database.
   * @throws `TimeoutError`: IndexedDB gave no answer within `timeoutMs`; the transaction was
   *   aborted and nothing of the call kept.
   * @throws `StorageError`: any other IndexedDB failure, with the browser's name and message (in an
   *   encrypted store, also a record that does not decrypt).
   * @throws the `signal`'s reason, when it aborts the call (see `LongOptions`). What the pass
   *   removed before stays removed.
   */
  reap(options?: LongOptions): Promise<ReapReport>;
  /** Reaper counters. */
  stats(): Stats;
  /**
   * Stops this member's background passes (`reap()` still works); a paused leader hands
   * leadership to another member (tab, worker) of the database, which reaps from then on.
   */
  pauseReaper(): void;
  /** Restarts background passes here: this member queues for leadership again. */
  resumeReaper(): void;
  /** Stops the reaper and closes the database; later calls reject with `StoreClosedError`. */
  close(): void;
  /**
   * `"expired"`: records a pass removed because they expired; `"change"`: a committed write;
   * `"error"`: a background pass failed, or `onExpire` failed; `"evicted"`: entries a write
   * evicted for `maxEntries` or `evictOnQuota`. Any other type throws a `TypeError`.
   * @throws `TypeError`, thrown at once: an unknown event type or a listener that is not a
   *   function.
   */
  addEventListener<K extends keyof TtlStoreEventMap>(type: K, listener: (event: TtlStoreEventMap[K]) => void): void;
  /** Removes a listener `addEventListener` added. */
  removeEventListener<K extends keyof TtlStoreEventMap>(type: K, listener: (event: TtlStoreEventMap[K]) => void): void;
  /**
   * Watches `key`: `listener(value)` is called with its value once read (`undefined` if missing),
   * then with the new value at every write and with `undefined` once it is deleted or expires,
   * whether in this tab or in another tab or worker with the database open. An expiry is told when
   * it comes (the store keeps one timer for the soonest watched expiry, however many keys are
   * watched), not when the reaper later removes the record. Returns the function that stops
   * watching (calling it again does nothing). A listener that throws is reported (`reportError`)
   * and changes nothing for the store or the other listeners; `close()` ends every watch. A bad
   * key throws a `TypeError` or `RangeError`, a listener that is not a function a `TypeError`.
   *
   * For React's `useSyncExternalStore`, keep the last value a listener was given:
   * `let value; const subscribe = (onChange) => store.watch(key, (v) => { value = v; onChange(); });
   * const getSnapshot = () => value;`
   * @throws `TypeError`, thrown at once: a bad key or a listener that is not a function.
   * @throws `RangeError`, thrown at once: a NaN key.
   * @throws `StoreClosedError`, thrown at once: the store was closed.
   * @example
   * ```ts
   * const stop = store.watch<{ user: number }>("session", (session) => {
   *   if (session === undefined) showLogin(); // deleted, or expired: told at its expiry
   * });
   * ```
   */
  watch<T = unknown>(key: Key, listener: (value: T | undefined) => void): () => void;
  /**
   * A live view: `listener(entries)` is called with the live entries `query` names, in key order,
   * once read, then again after every change to them (a write, delete, eviction or idle
   * extension, in this tab or another tab or worker) and as each one expires, at its expiry (the
   * store keeps one timer for the soonest expiry among all views), never showing an expired
   * entry. A change re-reads only the keys it touched; a read made for a view does not extend an
   * idle entry. Each list is a fresh frozen array, given only after a change (a write counts, even
   * one that stored an equal value: a write racing the first read can repeat it once), so it can be
   * React's `useSyncExternalStore` snapshot as it is:
   * `let list = []; const subscribe = (onChange) => store.observe(q, (l) => { list = l; onChange(); });
   * const getSnapshot = () => list;`
   * Returns the function that stops the view. A bad query or listener throws a `TypeError` (a NaN
   * key a `RangeError`); a listener that throws is reported and changes nothing else.
   * @throws `TypeError`, thrown at once: a query that is not one of the three kinds, or a listener
   *   that is not a function.
   * @throws `RangeError`, thrown at once: a NaN key.
   * @throws `StoreClosedError`, thrown at once: the store was closed.
   * @example
   * ```ts
   * const stop = store.observe<{ user: string }>({ prefix: "session:" }, (sessions) => {
   *   console.log(sessions.map((s) => s.value.user)); // shrinks as each one expires
   * });
   * ```
   */
  observe<T = unknown>(query: ViewQuery, listener: (entries: readonly ViewEntry<T>[]) => void): () => void;
}

/**
 * What `observe` shows: string keys starting with `prefix` (numbers have none), the `keys` listed,
 * or the keys from `from` to `to`, both included (an absent end is open, but not both: `{}` is
 * refused with a TypeError; every entry is `{ from: -Infinity }`).
 */
export type ViewQuery =
  | {
      /** String keys starting with it. */ prefix: string;
      /** @hidden */ keys?: never;
      /** @hidden */ from?: never;
      /** @hidden */ to?: never;
    }
  | {
      /** The keys listed. */ keys: Key[];
      /** @hidden */ prefix?: never;
      /** @hidden */ from?: never;
      /** @hidden */ to?: never;
    }
  | {
      /** The first key, included. */ from: Key;
      /** The last key, included; absent: to the end. */ to?: Key;
      /** @hidden */ prefix?: never;
      /** @hidden */ keys?: never;
    }
  | {
      /** The first key, included; absent: from the start. */ from?: Key;
      /** The last key, included. */ to: Key;
      /** @hidden */ prefix?: never;
      /** @hidden */ keys?: never;
    };

/** An entry as a live view shows it. */
export interface ViewEntry<T = unknown> {
  /** The entry's key (a document's id). */
  readonly key: Key;
  /** Its value (the document). */
  readonly value: T;
  /** Unix seconds; `null` = no expiry. */
  readonly expiresAt: number | null;
}

//#full: not in idb-ttl/lite
/**
 * A response's header fields as `ttlFromHeaders` reads them: a `Headers` (`response.headers`) or
 * a plain object of strings, names in any case (an `undefined` value is an absent field).
 */
export type HeadersInput = Headers | { readonly [name: string]: string | undefined };

/**
 * How many seconds a response with these headers stays fresh (RFC 9111, as a private cache
 * computes it): `Cache-Control: max-age` minus the response's current age (`Age`, or `now -
 * Date` if larger), else `Expires` minus `Date` (minus `now` without `Date`) minus that age; from
 * 0 to 2^31. `undefined` when the response must not be stored (`no-store`) or carries no
 * freshness information; `0` for `no-cache`, `max-age=0`, an invalid `Expires` (`"0"`) or an
 * invalid or repeated, disagreeing `max-age`. `s-maxage` (shared caches) is ignored.
 *
 * `now` is Unix seconds (default: the clock). Synchronous, so the WebAssembly module must be
 * loaded first: after `await init()` or `TtlStore.open()`. Throws a `TypeError` for headers that
 * are neither a `Headers` nor a plain object of strings (or whose reading throws), a `RangeError`
 * for a `now` that is `NaN`, negative or milliseconds.
 *
 * @example
 * const response = await fetch(request);
 * const ttl = ttlFromHeaders(response.headers);
 * if (ttl) await store.set(request.url, await response.clone().arrayBuffer(), { ttl });
 */
export function ttlFromHeaders(headers: HeadersInput, now?: number): number | undefined;
//#end full

/**
 * Loads the WebAssembly module. Optional: `TtlStore.open()` and `TtlStore.destroy()` wait for it
 * themselves, and calling it again costs nothing. Rejects with a `StoreUnavailableError` where
 * WebAssembly or `DecompressionStream` is missing or a Content-Security-Policy forbids WebAssembly.
 */
export default function init(): Promise<void>;
