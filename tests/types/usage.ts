// Compiled with `tsc --strict --noEmit` against the built package's declarations (pkg/index.d.ts)
// by scripts/test.sh: the examples of the README and docs/ must type-check, and misuse must not.
import {
  TtlStore,
  ttlFromHeaders,
  type HeadersInput,
  type Collection,
  type TimeSeries,
  type ReapReport,
  type Snapshot,
  type Stats,
  type TtlDetail,
  type ViewEntry,
  type ImportReport,
  type Archive,
  type ExpiredRecord,
  type StoreEstimate,
  type TtlIndexInfo,
  type TtlTiers,
  type TtlAsyncStorage,
  type Key,
  type LongOptions,
  type Progress,
  type SetManyEntry,
  type Granularity,
} from "../../pkg/index.js";
import { QueryClient } from "@tanstack/query-core";
import { experimental_createQueryPersister, type AsyncStorage as TanStackStorage, type PersistedQuery } from "@tanstack/query-persist-client-core";

export async function readmeExamples(readings: object[]): Promise<unknown[]> {
  const store = await TtlStore.open("app-cache", { reapIntervalMs: 60_000, maxRemovesPerCollection: 1000 });
  await store.set("session", { user: 7 }, { ttl: 3600 });
  await store.set("banner", "hello", { expiresAt: "2026-12-24T18:00:00+01:00" });
  await store.set("token", "abc", { expiresAt: 1798761600 });
  await store.set("draft", new Map([["body", "..."]]), { ttl: "7 days" });
  await store.set("kept", 1, { keepTtl: true });
  await store.set("sid", "abc", { idle: "30 min", ttl: "12 h" });
  await store.setMany([["page", "<html>", { idle: "7 days" }]]);
  await store.expire("sid", { idle: 1800, expiresAt: new Date(Date.now() + 3_600_000) });
  const peeked: string | undefined = await store.peek<string>("sid");
  const detail: TtlDetail | undefined = await store.ttl("sid", { detail: true });
  const idleFor: number | null | undefined = detail?.idle;
  const extended: number = store.stats().idleExtended;
  const sessions = store.asyncStorage({ prefix: "s:", idle: "30 min" });
  let list: readonly ViewEntry<{ user: number }>[] = [];
  const unobserve: () => void = store.observe<{ user: number }>({ prefix: "user:" }, (l) => { list = l; });
  store.observe({ from: "a", to: 9 }, (l) => console.log(l.map((e) => [e.key, e.expiresAt])));
  unobserve();
  await store.setMany([["a", 1], ["b", 2, { ttl: 60 }]]);
  const session = await store.get<{ user: number }>("session");
  const left: number | null | undefined = await store.ttl("session");
  await store.expire("session", { ttl: "PT30M" });
  await store.persist("session");
  store.addEventListener("expired", (e) => console.log(e.detail.keys, e.detail.collections, e.detail.timeSeries));
  store.addEventListener("change", (e) => console.log(e.detail.op, e.detail.keys));
  const vault = await TtlStore.open("vault", { encryption: { keyTtl: "30 days" } });
  await vault.set("token", new Map([["t", 1]]), { ttl: "1 hour" });
  await vault.shred();
  vault.close();
  store.addEventListener("reopened", (e) => { if (e.detail.isNew) console.log("refetch", e.detail.dataLoss); });

  const events: Collection = await store.collection("events", {
    keyPath: "id",
    ttlIndex: { field: "createdAt", expireAfter: "90 days", unit: "s" },
  });
  await events.put({ id: 1, createdAt: "2026-11-21T10:00:00Z", kind: "click" });
  await events.setExpireAfter(3600);
  const index = events.ttlIndex();
  // Months and years (CockroachDB's ttl_expire_after = '3 months') read back as an ISO-8601 string.
  const quarterly = await store.collection("quarterly", { ttlIndex: { field: "at", expireAfter: "3 months" } });
  await quarterly.setExpireAfter("P1Y");
  const shown: number | string | undefined = quarterly.ttlIndex()?.expireAfter;
  const months: string | null = typeof shown === "string" ? shown : null;
  // An automatic index (CockroachDB): no field, each write stamps the expiry; one document overridden.
  const stampedDocs = await store.collection("sessions", { ttlIndex: { automatic: true, expireAfter: "30 days" } });
  const overridden: boolean = await stampedDocs.expire(1, { ttl: "1h" });
  const sessionEnds: number | null | undefined = await stampedDocs.expiresAt(1);
  const stamped: true | undefined = stampedDocs.ttlIndex()?.automatic;
  // CockroachDB's ttl_job_cron, ttl_pause and the collection's metrics.
  const hourly = await store.collection("hourly", { ttlIndex: { field: "at", expireAfter: "30 days", schedule: "@hourly" } });
  const nextRun: number | null = await hourly.nextReapAt();
  await hourly.pauseReaper();
  const held: true | undefined = hourly.ttlIndex()?.paused;
  const { live, expired, removedTotal, selectMs }: { live: number; expired: number; removedTotal: number; selectMs: number } = await hourly.stats();
  await TtlStore.open("stepped", { batchSize: 1000, selectBatchSize: 250 });
  await TtlStore.destroy("stepped", { timeoutMs: 5_000 });
  // @ts-expect-error destroy takes timeoutMs only
  await TtlStore.destroy("stepped", { autoReap: false });
  const stopEvents: () => void = events.observe<{ kind: string }>((docs) => console.log(docs.map((d) => d.value.kind)));
  stopEvents();

  const temps: TimeSeries = await store.timeSeries("temps", {
    timeField: "ts", metaField: "sensor", granularity: "minutes", expireAfter: "7 days" });
  const written: number = await temps.insertMany(readings);
  const rows = await temps.query<{ ts: Date }>({ meta: "sensorA", from: "2026-11-20", to: "2026-11-21" });
  const monthly = await store.timeSeries("monthly", { timeField: "ts", expireAfter: "1 month" });
  const kept: number | string | null = monthly.options.expireAfter;
  // MongoDB's custom bucketing, a coarser granularity later, deletes by meta and time.
  const custom = await store.timeSeries("custom", { timeField: "ts", bucketMaxSpanSeconds: 600, bucketRoundingSeconds: 600, maxBucketBytes: 65536 });
  const span: number = custom.options.bucketMaxSpanSeconds;
  const named: Granularity | null = custom.options.granularity;
  await temps.setGranularity("hours");
  const removed: number = await temps.deleteMany({ meta: "sensorA", to: "2026-11-01" });

  const report: ReapReport = await store.reap();
  const stats: Stats = store.stats();
  const memory: number = stats.memoryBytes;
  const fresh: boolean = store.isNew;
  const snapshot: Snapshot = await store.export();
  const restored: ImportReport = await store.import(JSON.parse(JSON.stringify(snapshot)));
  store.close();
  return [list, peeked, idleFor, extended, sessions, session?.user, left, index?.expireAfter, months, kept, written, rows[0]?.ts, report.collections, stats.lastRun, restored.skipped, memory, fresh];
}

export async function misuse(store: TtlStore): Promise<void> {
  // @ts-expect-error ttl and expiresAt are exclusive
  await store.set("k", 1, { ttl: 1, expiresAt: 2 });
  // @ts-expect-error keepTtl goes alone
  await store.set("k", 1, { keepTtl: true, ttl: 5 });
  // @ts-expect-error keepTtl keeps the current expiry, idle sets one
  await store.set("k", 1, { keepTtl: true, idle: 5 });
  // @ts-expect-error one kind of view per query
  store.observe({ prefix: "a", keys: ["b"] }, () => {});
  // @ts-expect-error a range names at least one end ({ from: -Infinity } for every entry)
  store.observe({}, () => {});
  store.observe({ to: "m" }, () => {});
  store.observe({ from: -Infinity }, () => {});
  // @ts-expect-error the detail is an object, not seconds
  const secs: number | null | undefined = await store.ttl("k", { detail: true });
  // @ts-expect-error keys are strings or numbers
  await store.get({ id: 1 });
  // @ts-expect-error expire needs ttl or expiresAt
  await store.expire("k", {});
  // @ts-expect-error unknown event type
  store.addEventListener("expire", () => {});
  // @ts-expect-error granularity is one of three
  await store.timeSeries("t", { timeField: "ts", granularity: "days" });
  // @ts-expect-error setGranularity takes a granularity name
  await temps.setGranularity(600);
  // @ts-expect-error an automatic index has no field
  await store.collection("c", { ttlIndex: { automatic: true, field: "at", expireAfter: 1 } });
  // @ts-expect-error collection.expire needs ttl or expiresAt
  await events.expire(1, {});
  // @ts-expect-error unit is s, ms, us or ns
  await store.collection("c", { ttlIndex: { field: "at", expireAfter: 1, unit: "minutes" } });
  // @ts-expect-error isNew is read-only
  store.isNew = false;
  // @ts-expect-error a Date is not an options object
  await store.set("k", 1, new Date());
}

// docs/tiers-and-storage-pressure.md.
export async function tiersHandOffAndPressure(): Promise<unknown[]> {
  const store = await TtlStore.open("app-cache", {
    archiveFor: "30 days",
    onExpire: async (records) => {
      const r = await fetch("/handoff", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(records),
      });
      if (!r.ok) throw new Error(`handoff: ${r.status}`);
    },
    maxEntries: 10_000,
    evictOnQuota: true,
  });
  store.addEventListener("error", (e) => console.warn(e.detail.error.message, e.detail.records));
  store.addEventListener("evicted", (e) => console.log(e.detail.reason, e.detail.keys));

  const archived = await store.archive.get<{ user: number }>("session");
  const estimate: StoreEstimate = await store.estimate();
  const persisted: boolean = await store.persistStorage();
  if (store.isNew && store.dataLoss === "total") {
    console.log(store.dataLossMessage);
  }

  const events = await store.collection("events", {
    ttlIndex: { field: "createdAt", tiers: [
      { after: "7 days", action: "archive" },
      { after: "90 days", action: "delete" },
    ] },
  });
  await events.get(1);
  const doc = await events.archive.get(1);
  await events.setTiers([{ after: "1 day", action: "archive" }, { after: "30 days", action: "delete" }]);
  const keepForever: TtlTiers = [{ after: 3600, action: "archive" }];
  await events.setTiers(keepForever);
  const tiers = [{ after: "1 day", action: "delete" }] as const;
  await events.setTiers(tiers);
  const index: TtlIndexInfo | null = events.ttlIndex();
  const monthly = await store.collection("monthly", {
    ttlIndex: { field: "at", tiers: [{ after: "1 month", action: "archive" }, { after: "P1Y", action: "delete" }] },
  });
  const tierAfter: number | string | undefined = monthly.ttlIndex()?.tiers?.[0]?.after; // "P1M"
  const archive: Archive = events.archive;
  const [values, count] = await Promise.all([archive.values(), archive.count(), store.archive.clear()]);

  const report = await store.reap();
  const stats = store.stats();
  const counters: number[] = [
    report.archived, report.handedOff, report.archiveRemoved,
    stats.archivedTotal, stats.handedOff, stats.handOffWaiting, stats.handOffFailures, stats.evictedTotal,
  ];
  const failed: boolean = report.handOffFailed;
  const usage: number | undefined = estimate.usage;
  return [archived?.user, persisted, doc, index?.tiers?.[0]?.action, tierAfter, values, count, counters, failed, usage, estimate.live + estimate.expired];
}

// A server-tier hook narrows records by kind (examples/redis-handoff/).
export function redisKey(r: ExpiredRecord): string {
  switch (r.kind) {
    case "entry": return `entry::${JSON.stringify(r.key)}`;
    case "document": return `document:${r.name}:${JSON.stringify(r.key)}`;
    case "events": {
      const events: unknown[] = r.value;
      return `events:${r.name}:${r.key}:${events.length}`;
    }
  }
}

export function expiryMs(r: ExpiredRecord): number | null {
  return r.expiresAt === null ? null : r.expiresAt * 1000;
}

export async function tiersMisuse(store: TtlStore, events: Collection): Promise<void> {
  // @ts-expect-error onExpire is a function
  await TtlStore.open("x", { onExpire: 5 });
  // @ts-expect-error maxEntries is a number
  await TtlStore.open("x", { maxEntries: "10" });
  // @ts-expect-error evictOnQuota is a boolean
  await TtlStore.open("x", { evictOnQuota: "yes" });
  // @ts-expect-error archiveFor is seconds or a duration
  await TtlStore.open("x", { archiveFor: new Date() });
  // @ts-expect-error archive keys are strings or numbers
  await store.archive.get({});
  // @ts-expect-error a tier's action is "archive" or "delete"
  await store.collection("c", { ttlIndex: { field: "at", tiers: [{ after: 60, action: "move" }] } });
  // @ts-expect-error expireAfter and tiers are exclusive
  await store.collection("c", { ttlIndex: { field: "at", expireAfter: 60, tiers: [{ after: 60, action: "delete" }] } });
  // @ts-expect-error only the last tier may delete
  await events.setTiers([{ after: 60, action: "delete" }, { after: 600, action: "archive" }]);
  // A chain of tiers (YDB), hand-offs where they say so.
  await events.setTiers([{ after: 60, action: "archive" }, { after: 600, action: "archive", handOff: true }, { after: 6000, action: "delete" }]);
  // @ts-expect-error only the last tier may delete, in a chain too
  await events.setTiers([{ after: 60, action: "archive" }, { after: 600, action: "delete" }, { after: 6000, action: "archive" }]);
  // @ts-expect-error a window with months reads back as an ISO-8601 string ("P3M"), not seconds
  const secs: number | undefined = events.ttlIndex()?.expireAfter;
  // @ts-expect-error dataLoss is read-only
  store.dataLoss = "none";
  // @ts-expect-error the archive is read-only
  store.archive = events.archive;
  // @ts-expect-error "evicted" details have no collections
  store.addEventListener("evicted", (e) => e.detail.collections);
  // @ts-expect-error unknown eviction reason
  store.addEventListener("evicted", (e) => e.detail.reason === "lru");
}

// docs/integrations.md, "Persist TanStack Query's cache": the storage object is what TanStack's persisters take.
export async function tanstackStorage(store: TtlStore): Promise<unknown[]> {
  const maxAge = 24 * 60 * 60 * 1000;
  const persister = experimental_createQueryPersister<PersistedQuery>({
    storage: store.asyncStorage<PersistedQuery>({ prefix: "queries:", ttl: maxAge / 1000 }),
    maxAge,
    serialize: (query) => query,
    deserialize: (query) => query,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { persister: persister.persisterFn } } });
  const storage: TanStackStorage<PersistedQuery> = store.asyncStorage<PersistedQuery>({ prefix: "q:", ttl: 86_400 });
  const strings: TanStackStorage<string> = store.asyncStorage<string>({ ttl: "1 day" });
  const own: TtlAsyncStorage<{ n: number }> = store.asyncStorage({ ttl: 60 });
  await own.setItem("k", { n: 1 });
  await own.setItem("k", { n: 2 }, { expiresAt: "2030-01-01" });
  const item: { n: number } | null = await own.getItem("k");
  const pairs: [string, { n: number }][] = await own.entries();
  await own.removeItem("k");
  return [storage, strings, item?.n, pairs, queryClient];
}

export function asyncStorageMisuse(store: TtlStore, own: TtlAsyncStorage<string>): void {
  // @ts-expect-error prefix is a string
  store.asyncStorage({ prefix: 1 });
  // @ts-expect-error ttl is seconds or a duration
  store.asyncStorage({ ttl: new Date() });
  // @ts-expect-error maxAge is the persister's option, ttl the storage's
  store.asyncStorage({ maxAge: 1000 });
  // @ts-expect-error getItem resolves to null, never undefined
  const missing: Promise<string | undefined> = own.getItem("k");
  // @ts-expect-error a storage's keys are strings
  void own.removeItem(5);
  void missing;
}

export async function httpCache(store: TtlStore, request: Request, response: Response): Promise<number | undefined> {
  const ttl: number | undefined = ttlFromHeaders(response.headers);
  if (ttl) await store.set(request.url, { status: response.status, body: await response.clone().arrayBuffer() }, { ttl });
  const plain: HeadersInput = { "Cache-Control": "max-age=60", Age: "10", "x-none": undefined };
  return ttlFromHeaders(plain, Date.now() / 1000) ?? ttlFromHeaders(new Headers({ expires: "0" }), 1_800_000_000);
}

export function httpMisuse(response: Response): void {
  // @ts-expect-error the headers, not the response
  ttlFromHeaders(response);
  // @ts-expect-error header values are strings
  ttlFromHeaders({ age: 5 });
  // @ts-expect-error a Map is not a Headers
  ttlFromHeaders(new Map([["age", "5"]]));
  // @ts-expect-error headers are required
  ttlFromHeaders();
  // @ts-expect-error now is Unix seconds, not a Date
  ttlFromHeaders(response.headers, new Date());
  // @ts-expect-error now is a number
  ttlFromHeaders(response.headers, "1800000000");
  // @ts-expect-error undefined when the response must not be stored
  const ttl: number = ttlFromHeaders(response.headers);
  void ttl;
}

// docs/react.md and docs/idle-views-encryption.md, "One key: `watch()`": the subscribe / getSnapshot pair of React's useSyncExternalStore.
export function watched<T>(store: TtlStore, key: Key): { subscribe: (onChange: () => void) => () => void; getSnapshot: () => T | undefined } {
  let value: T | undefined;
  return {
    subscribe: (onChange) => store.watch<T>(key, (v) => { value = v; onChange(); }),
    getSnapshot: () => value,
  };
}

export function watchUsage(store: TtlStore): unknown[] {
  const stop: () => void = store.watch<{ user: number }>("session", (session) => console.log(session?.user));
  stop();
  const stats = store.stats();
  const at: number | null = stats.watchTimerAt;
  return [stats.watchedKeys, at];
}

export function watchMisuse(store: TtlStore): void {
  // @ts-expect-error keys are strings or numbers
  store.watch({ id: 1 }, () => {});
  // @ts-expect-error the listener is a function
  store.watch("k", "log");
  // @ts-expect-error the listener may be told undefined (deleted, expired)
  store.watch<number>("k", (n: number) => console.log(n + 1));
  // @ts-expect-error watch answers at once with the stop function, not a Promise
  const p: Promise<void> = store.watch("k", () => {});
  void p;
}

// docs/long-work.md, "Progress and Cancel" and "Streams".
export async function longWork(store: TtlStore, rows: SetManyEntry[], bar: HTMLProgressElement, file: File): Promise<unknown[]> {
  const controller = new AbortController();
  const options: LongOptions = {
    signal: controller.signal,
    onProgress: ({ done, total }: Progress) => { bar.max = total; bar.value = done; },
  };
  try {
    await store.setMany(rows, options);
  } catch (e) {
    if (e !== controller.signal.reason) throw e;
  }
  await store.clear({ signal: AbortSignal.timeout(5_000) });
  const report: ReapReport = await store.reap({ onProgress: (p) => console.log(p.done, p.total) });
  const snapshot: Snapshot = await store.export({ signal: controller.signal });
  const chunks: ReadableStream<Snapshot> = store.exportStream({ onProgress: (p) => console.log(p.done) });
  const lines = chunks.pipeThrough(new TransformStream<Snapshot, string>({
    transform(chunk, out) { out.enqueue(JSON.stringify(chunk) + "\n"); },
  }));
  const url = URL.createObjectURL(await new Response(lines).blob());
  const imported: ImportReport = await store.import(file.stream(), { onProgress: ({ done, total }) => console.log(done, total) });
  const again: ImportReport = await store.import(store.exportStream());
  return [report, snapshot, url, imported, again];
}

export function longWorkMisuse(store: TtlStore, rows: SetManyEntry[]): void {
  // @ts-expect-error only signal and onProgress
  void store.setMany(rows, { anything: 1 });
  // @ts-expect-error the signal is an AbortSignal, not its controller
  void store.clear({ signal: new AbortController() });
  // @ts-expect-error onProgress is told one object
  void store.reap({ onProgress: (done: number, total: number) => console.log(done, total) });
  // @ts-expect-error exportStream answers at once with the stream, not a Promise
  const p: Promise<Snapshot> = store.exportStream();
  void p;
}

// docs/counting-and-claiming.md, "Three examples": the rate limiter, the self-freeing lock, the once-a-day banner,
// and each verb's result type.
export async function countingAndClaiming(store: TtlStore, events: Collection): Promise<unknown[]> {
  const attempts: number = await store.incr("login:ada", 1, { ttl: 60 });
  const down: number = await store.incr("stock", -0.5);
  const byDefault: number = await store.incr("visits");
  const capped: number = await store.incr("n", undefined, { idle: "10 min", expiresAt: "2030-01-01" });
  const me = crypto.randomUUID();
  const claimed: boolean = await store.add("lock:token", me, { ttl: 30 });
  const renewed: boolean = await store.expire("lock:token", { ttl: 30, only: "hasExpiry" });
  const released: string | undefined = await store.update<string>("lock:token", (holder) => (holder === me ? undefined : holder));
  const shown: boolean = await store.add("banner:spring-sale", Date.now(), { ttl: "1 day" });
  const replaced: boolean = await store.replace("cfg", { theme: "dark" }, { keepTtl: true });
  const taken: { code: string } | undefined = await store.take<{ code: string }>("once");
  const list: string[] = await store.update("list", (old: string[] | undefined) => [...(old ?? []), "x"]);
  const typed: string[] | undefined = await store.update<string[]>("list", (old) => [...(old ?? []), "y"], { ttl: "1 hour" });
  const counted: number | undefined = await store.update("n", (n: number | undefined) => ((n ?? 0) >= 3 ? undefined : (n ?? 0) + 1));
  const deleted: undefined = await store.update("gone", () => undefined);
  const conditions: boolean[] = await Promise.all((["noExpiry", "hasExpiry", "later", "sooner"] as const).map((only) => store.expire("k", { expiresAt: new Date(), only })));
  const doc: { id: number; n: number } | undefined = await events.update<{ id: number; n: number }>(1, (d) => (d ? { ...d, n: d.n + 1 } : { id: 1, n: 1 }));
  const dropped = await events.update(2, () => undefined);
  store.addEventListener("change", (e) => { if (e.detail.op === "incr") console.log(e.detail.keys); });
  return [attempts, down, byDefault, capped, claimed, renewed, released, shown, replaced, taken?.code, list, typed, counted, deleted, conditions, doc?.n, dropped];
}

export async function countingAndClaimingMisuse(store: TtlStore, events: Collection): Promise<void> {
  // @ts-expect-error by is a number, not a string
  await store.incr("hits", "1");
  // @ts-expect-error nor a bigint
  await store.incr("hits", 1n);
  // @ts-expect-error incr keeps a live key's expiry anyway: no keepTtl
  await store.incr("hits", 1, { keepTtl: true });
  // @ts-expect-error nor update: it keeps the expiry without options
  await store.update("k", (v) => v, { keepTtl: true });
  // @ts-expect-error incr resolves to a number
  const s: string = await store.incr("hits");
  // @ts-expect-error add resolves to whether it wrote
  const v: string = await store.add("k", "v");
  // @ts-expect-error only is one of the four names, not Redis's flags
  await store.expire("k", { ttl: 60, only: "NX" });
  // @ts-expect-error only goes with a new expiry
  await store.expire("k", { only: "later" });
  // @ts-expect-error an updater runs inside the transaction: it cannot be async
  await store.update("k", async (old) => old);
  // @ts-expect-error nor return a Promise from an annotated one
  await store.update("n", (old: number | undefined) => Promise.resolve((old ?? 0) + 1));
  // @ts-expect-error nor another thenable
  await store.update("k", () => ({ then(resolve: (v: number) => void) { resolve(1); } }));
  // @ts-expect-error an updater that returns nothing would delete the entry
  await store.update<{ items: number[] }>("cart", (cart) => { cart?.items.push(1); });
  // @ts-expect-error the updater returns the entry's type
  await store.update<number>("n", (n) => String(n));
  // @ts-expect-error the updater is a function
  await store.update("k", 5);
  // @ts-expect-error a collection's updater cannot be async either
  await events.update(1, async (d) => d);
  // @ts-expect-error a document is an object
  await events.update(1, () => 5);
  void s;
  void v;
}
