// Compiled with `tsc --strict --noEmit` against the built package's declarations (pkg/index.d.ts)
// by scripts/test.sh: the README's examples must type-check, and misuse must not.
import {
  TtlStore,
  type Collection,
  type TimeSeries,
  type ReapReport,
  type Snapshot,
  type Stats,
  type ImportReport,
} from "../../pkg/index.js";

export async function readmeExamples(readings: object[]): Promise<unknown[]> {
  const store = await TtlStore.open("app-cache", { reapIntervalMs: 60_000, maxRemovesPerCollection: 1000 });
  await store.set("session", { user: 7 }, { ttl: 3600 });
  await store.set("banner", "hello", { expiresAt: "2026-12-24T18:00:00+01:00" });
  await store.set("token", "abc", { expiresAt: 1798761600 });
  await store.set("draft", new Map([["body", "..."]]), { ttl: "7 days" });
  await store.set("kept", 1, { keepTtl: true });
  await store.setMany([["a", 1], ["b", 2, { ttl: 60 }]]);
  const session = await store.get<{ user: number }>("session");
  const left: number | null | undefined = await store.ttl("session");
  await store.expire("session", { ttl: "PT30M" });
  await store.persist("session");
  store.addEventListener("expired", (e) => console.log(e.detail.keys, e.detail.collections, e.detail.timeSeries));
  store.addEventListener("change", (e) => console.log(e.detail.op, e.detail.keys));

  const events: Collection = await store.collection("events", {
    keyPath: "id",
    ttlIndex: { field: "createdAt", expireAfter: "90 days", unit: "s" },
  });
  await events.put({ id: 1, createdAt: "2026-11-21T10:00:00Z", kind: "click" });
  await events.setExpireAfter(3600);
  const index = events.ttlIndex();

  const temps: TimeSeries = await store.timeSeries("temps", {
    timeField: "ts", metaField: "sensor", granularity: "minutes", expireAfter: "7 days" });
  const written: number = await temps.insertMany(readings);
  const rows = await temps.query<{ ts: Date }>({ meta: "sensorA", from: "2026-11-20", to: "2026-11-21" });

  const report: ReapReport = await store.reap();
  const stats: Stats = store.stats();
  const memory: number = stats.memoryBytes;
  const fresh: boolean = store.isNew;
  const snapshot: Snapshot = await store.export();
  const restored: ImportReport = await store.import(JSON.parse(JSON.stringify(snapshot)));
  store.close();
  return [session?.user, left, index?.expireAfter, written, rows[0]?.ts, report.collections, stats.lastRun, restored.skipped, memory, fresh];
}

export async function misuse(store: TtlStore): Promise<void> {
  // @ts-expect-error ttl and expiresAt are exclusive
  await store.set("k", 1, { ttl: 1, expiresAt: 2 });
  // @ts-expect-error keepTtl goes alone
  await store.set("k", 1, { keepTtl: true, ttl: 5 });
  // @ts-expect-error keys are strings or numbers
  await store.get({ id: 1 });
  // @ts-expect-error expire needs ttl or expiresAt
  await store.expire("k", {});
  // @ts-expect-error unknown event type
  store.addEventListener("expire", () => {});
  // @ts-expect-error granularity is one of three
  await store.timeSeries("t", { timeField: "ts", granularity: "days" });
  // @ts-expect-error unit is s, ms, us or ns
  await store.collection("c", { ttlIndex: { field: "at", expireAfter: 1, unit: "minutes" } });
  // @ts-expect-error isNew is read-only
  store.isNew = false;
  // @ts-expect-error a Date is not an options object
  await store.set("k", 1, new Date());
}
