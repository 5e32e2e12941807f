// The "idb-ttl/svelte" and "idb-ttl/lite/svelte" typings (pkg/svelte/*.d.ts): entry gives a store
// Svelte's own Readable type accepts (so `$offer` is typed in a component), with either entry's
// store; misuse does not compile.
import type { Readable } from "svelte/store";
import { TtlStore } from "../../pkg/index.js";
import { TtlStore as LiteStore } from "../../pkg/lite/index.js";
import { entry, type EntryStore } from "../../pkg/svelte/index.js";
import * as lite from "../../pkg/svelte/lite.js";

export function component(store: TtlStore, liteStore: LiteStore, notYet: TtlStore | undefined): unknown[] {
  const offer = entry<{ title: string }>(store, "offer");
  const readable: Readable<{ title: string } | undefined> = offer;
  let title: string | undefined;
  const unsubscribe: () => void = offer.subscribe((o) => { title = o?.title; });
  unsubscribe();
  const likes: EntryStore<number> = lite.entry<number>(liteStore, "likes");
  const fromLite = entry<string>(liteStore, 7);
  const empty = entry(notYet, "draft"); // a store of undefined until there is a store
  empty.subscribe((v: unknown) => v);
  return [readable, title, likes, fromLite];
}

export function misuse(store: TtlStore): void {
  // @ts-expect-error a key is a string or a number
  entry(store, { id: 1 });
  // @ts-expect-error a store has watch()
  entry({}, "k");
  // @ts-expect-error the value may be undefined (not read yet, missing or expired)
  entry<number>(store, "n").subscribe((n: number) => n);
  // @ts-expect-error not a writable store: the store is written with store.set
  entry(store, "n").set(1);
}
