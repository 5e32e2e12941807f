// The "idb-ttl/vue" and "idb-ttl/lite/vue" typings (pkg/vue/*.d.ts): useEntry gives Vue's
// readonly Ref of the value type, with either entry's store given as it is, as a ref or as a
// getter; misuse does not compile.
import { computed, shallowRef, type Ref } from "vue";
import { TtlStore } from "../../pkg/index.js";
import { TtlStore as LiteStore } from "../../pkg/lite/index.js";
import { useEntry, type WatchStore } from "../../pkg/vue/index.js";
import * as lite from "../../pkg/vue/lite.js";

export function setup(store: TtlStore, liteStore: LiteStore): unknown[] {
  const offer = useEntry<{ title: string }>(store, "offer");
  const title: string | undefined = offer.value?.title;
  const asRef: Readonly<Ref<{ title: string } | undefined>> = offer;
  // A store not open yet: a ref of one (undefined until it opens), or a getter.
  const opening = shallowRef<TtlStore>();
  const likes = useEntry<number>(opening, "likes");
  const n: number = likes.value ?? 0;
  const id = shallowRef(7);
  const byGetter = useEntry(() => opening.value, () => `user:${id.value}`);
  const unknownValue: unknown = byGetter.value;
  // Either entry's store, in either module.
  const fromLite = lite.useEntry<string>(liteStore, computed(() => "draft"));
  const draft: string | undefined = fromLite.value;
  const w: WatchStore = liteStore;
  void useEntry(null, 1);
  return [title, asRef, n, unknownValue, draft, w];
}

export function misuse(store: TtlStore): void {
  // @ts-expect-error a key is a string or a number
  useEntry(store, { id: 1 });
  // @ts-expect-error a ref of a key is a ref of a string or a number
  useEntry(store, shallowRef(true));
  // @ts-expect-error a store has watch()
  useEntry({}, "k");
  // @ts-expect-error the ref is readonly: the store is written with store.set
  useEntry<number>(store, "n").value = 1;
  // @ts-expect-error the value may be undefined (not read yet, missing or expired)
  const n: number = useEntry<number>(store, "n").value;
  void n;
}
