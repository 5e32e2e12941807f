// The "idb-ttl/lite" typings (pkg/lite/index.d.ts): the key-value API compiles as with the default
// entry, and what the lite entry lacks (collections, time series, archive, hand-off, encryption,
// ttlFromHeaders) is refused.
import init, { TtlStore, type Key, type Snapshot, type TtlAsyncStorage, type ViewEntry } from "../../pkg/lite/index.js";
// @ts-expect-error the lite entry has no ttlFromHeaders
import { ttlFromHeaders } from "../../pkg/lite/index.js";
// @ts-expect-error nor the Collection type
import type { Collection } from "../../pkg/lite/index.js";

export async function liteKeyValue(): Promise<unknown[]> {
  await init();
  const store = await TtlStore.open("lite", { defaultTtl: "1 hour", reapIntervalMs: 60_000, maxEntries: 1000, evictOnQuota: true });
  await store.set("session", { user: 7 }, { ttl: 3600 });
  await store.set("banner", "hello", { expiresAt: "2026-12-24T18:00:00+01:00" });
  await store.set("sid", "abc", { idle: "30 min", ttl: "12 h" });
  await store.setMany([["a", 1], ["b", 2, { ttl: 60 }]], { onProgress: (p) => console.log(p.done, p.total) });
  const session = await store.get<{ user: number }>("session");
  const left: number | null | undefined = await store.ttl("session");
  await store.expire("session", { ttl: "PT30M" });
  await store.persist("session");
  const attempts: number = await store.incr("login:ada", 1, { ttl: 60 });
  const claimed: boolean = await store.add("lock:token", "me", { ttl: 30 });
  const renewed: boolean = await store.expire("lock:token", { ttl: 30, only: "hasExpiry" });
  const freed: string | undefined = await store.update<string>("lock:token", (h) => (h === "me" ? undefined : h));
  const replaced: boolean = await store.replace("session", { user: 8 }, { keepTtl: true });
  const taken: unknown = await store.take("session");
  const keys: Key[] = await store.keys();
  const unwatch: () => void = store.watch<string>("sid", (v) => console.log(v));
  let list: readonly ViewEntry[] = [];
  const unobserve = store.observe({ prefix: "user:" }, (l) => { list = l; });
  unwatch();
  unobserve();
  store.addEventListener("expired", (e) => console.log(e.detail.keys));
  store.addEventListener("evicted", (e) => console.log(e.detail.reason));
  const snapshot: Snapshot = await store.export();
  await store.import(snapshot);
  const storage: TtlAsyncStorage<string> = store.asyncStorage({ prefix: "q:", ttl: "1 day" });
  await storage.setItem("k", "v");
  const report = await store.reap();
  store.pauseReaper();
  store.resumeReaper();
  store.close();
  await TtlStore.destroy("lite");
  return [session, left, keys, list, report.removed, store.stats().reaperRuns, ttlFromHeaders, attempts, claimed, renewed, freed, replaced, taken];
}

export async function liteRefuses(store: TtlStore, c: Collection): Promise<void> {
  // @ts-expect-error no collections in the lite entry
  await store.collection("users");
  // @ts-expect-error no time series
  await store.timeSeries("metrics");
  // @ts-expect-error no archive
  await store.archive.count();
  // @ts-expect-error no encryption, so nothing to shred
  await store.shred();
  // @ts-expect-error no encryption option
  await TtlStore.open("vault", { encryption: true });
  // @ts-expect-error no hand-off
  await TtlStore.open("handoff", { onExpire: () => {} });
  // @ts-expect-error no archive tier
  await TtlStore.open("archive", { archiveFor: "30 days" });
  // @ts-expect-error the lite entry's updater cannot be async either
  await store.update("k", async (v) => v);
  // @ts-expect-error nor is only a Redis flag
  await store.expire("k", { ttl: 1, only: "XX" });
  console.log(c);
}
