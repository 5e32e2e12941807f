// The "idb-ttl/react" and "idb-ttl/lite/react" typings (pkg/react/*.d.ts): the README's hooks
// compile with their value types, with either entry's store; misuse does not. The hooks are called
// as plain functions here: typing them needs no React types.
import { TtlStore } from "../../pkg/index.js";
import { TtlStore as LiteStore } from "../../pkg/lite/index.js";
import { useEntry, useStore, useView, type EntryState } from "../../pkg/react/index.js";
import * as lite from "../../pkg/react/lite.js";

export function component(): unknown[] {
  const store: TtlStore | undefined = useStore("app", { defaultTtl: "1 day" });
  // With `initial`: the value is always a T, and so is an updater's `current`.
  const [draft, setDraft, { ttl, loading, error }] = useEntry(store, "draft", { initial: "", ttl: "7 days" });
  const text: string = draft;
  void setDraft("hello");
  void setDraft((d) => `${d}!`, { keepTtl: true });
  void setDraft(undefined); // deletes
  // Without: T | undefined.
  const [session, setSession, state] = useEntry<{ user: number }>(store, "session");
  const user: number | undefined = session?.user;
  void setSession({ user: 7 }, { idle: "30 min" });
  void setSession((s) => (s ? { user: s.user + 1 } : undefined), { ttl: 60 });
  const left: number | null | undefined = state.ttl;
  const at: number | null | undefined = state.expiresAt;
  const written: Promise<{ user: number } | undefined> = setSession({ user: 8 });
  const items = useView<{ title: string }>(store, { prefix: "item:" });
  const titles: string[] = items.map((e) => e.value.title);
  const s: EntryState = state;
  return [text, ttl, loading, error, user, left, at, written, titles, s];
}

export function liteComponent(): unknown[] {
  const store: LiteStore | undefined = lite.useStore("app");
  const [n, setN] = lite.useEntry(store, "n", { initial: 0 });
  const count: number = n;
  void setN((c) => c + 1);
  // A lite store in the default entry's hooks too.
  const [v] = useEntry<string>(store, "k");
  const list = useView(store, { from: "a", to: "b" });
  return [count, v, list];
}

export function misuse(store: TtlStore): void {
  // @ts-expect-error a key is a string or a number
  useEntry(store, { id: 1 });
  // @ts-expect-error the value's type
  useEntry(store, "n", { initial: 0 })[1]("one");
  // @ts-expect-error an updater cannot be async: it runs inside the transaction
  useEntry(store, "n", { initial: 0 })[1](async (c) => c + 1);
  // @ts-expect-error an updater returns the new value
  useEntry(store, "n", { initial: 0 })[1]((c) => `${c}`);
  // @ts-expect-error ttl and expiresAt together
  useEntry(store, "n", { initial: 0 })[1](1, { ttl: 1, expiresAt: 2 });
  // @ts-expect-error keepTtl is true or absent, not a duration
  useEntry(store, "n")[1](1, { keepTtl: "1 day" });
  // @ts-expect-error a query names one kind
  useView(store, { prefix: "a", keys: ["b"] });
  // @ts-expect-error a store's name is a string
  useStore(42);
  // @ts-expect-error no such option
  useStore("app", { ttl: 60 });
  // @ts-expect-error the lite useStore takes no encryption
  lite.useStore("vault", { encryption: true });
  // @ts-expect-error the value is a T, not T | undefined, with initial
  const nope: undefined = useEntry(store, "n", { initial: 0 })[0];
  void nope;
}
