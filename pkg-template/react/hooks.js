// The React hooks of "idb-ttl/react" (and "idb-ttl/lite/react"): JavaScript over a store's public
// API, whichever entry opened it. useEntry and useView are `store.observe` behind
// useSyncExternalStore (one view per component, told by the store at every write in any tab and
// at each expiry: no polling); `storeHook(TtlStore)` makes useStore, one `TtlStore.open` per name
// and options shared by every component that asks, closed when the last one unmounts.

import { useMemo, useRef, useSyncExternalStore } from "react";

const NO_ENTRIES = Object.freeze([]);
const OPENING = Object.freeze({ entry: undefined, loading: true, error: undefined });

/** Calls each of `listeners` (React's re-render callbacks). */
const notify = (listeners) => { for (const l of [...listeners]) l(); };

/**
 * useSyncExternalStore's `subscribe` over `listeners`: `open()` for the first listener (it
 * returns its stop, or nothing), that stop once the last one leaves.
 */
function subscribeBy(listeners, open) {
  let stop = null;
  return (listener) => {
    listeners.add(listener);
    if (listeners.size === 1) stop = open() ?? null;
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && stop) {
        const s = stop;
        stop = null;
        s();
      }
    };
  };
}

/** Marks `p` handled (its failure is shown by the hook) and returns it, still rejecting for whoever awaits it. */
const handled = (p) => { p.catch(() => {}); return p; };

/** `key` as an error message shows it. */
const shown = (key) => {
  try {
    return JSON.stringify(key) ?? String(key);
  } catch {
    return `(a ${typeof key} that cannot be shown)`;
  }
};

/** `value` as data, for a key of a memo: what may change between renders without meaning a new store or view. */
function memoId(what, value) {
  try {
    return JSON.stringify(value, (_, v) => (typeof v === "function" ? `function ${v}` : typeof v === "bigint" ? `${v}n` : v));
  } catch (e) {
    throw new TypeError(`${what} must be plain data (strings, numbers, booleans, arrays, objects, Dates): ${e.message}`);
  }
}

/** A key of a memo for useEntry's key (refused later, as the hook's error, unless a string or number): as data, else itself. */
const unshowable = new WeakMap();
let unshowableMade = 0;
const keyId = (key) => {
  try {
    return memoId("", key);
  } catch {
    if (!unshowable.has(key)) unshowable.set(key, (unshowableMade += 1));
    return unshowable.get(key);
  }
};

/**
 * One key of one store as useEntry shows it: the entry `observe({ keys: [key] })` last told, or
 * the value a `set` of this hook is writing (from the call until the store tells what it wrote,
 * so a controlled input keeps its caret), while loading, and the last error.
 */
function entrySource(store, key) {
  const listeners = new Set();
  let snap = OPENING;
  let told; // the entry the view last told (undefined: missing or expired)
  let writing = 0; // sets of this hook not yet settled
  let ours = false; // showing a value this hook wrote, until the view tells again
  const show = (next) => {
    snap = Object.freeze({ ...snap, ...next });
    notify(listeners);
  };
  const start = () => {
    if (!store) return undefined;
    try {
      if (typeof key !== "string" && typeof key !== "number") {
        throw new TypeError(`useEntry(store, key): key ${shown(key)} is not accepted; expected a string or a number`);
      }
      return store.observe({ keys: [key] }, ([entry]) => {
        told = entry;
        if (writing === 0) {
          ours = false;
          show({ entry, loading: false });
        } else if (snap.loading) show({ loading: false });
      });
    } catch (error) {
      show({ loading: false, error }); // a key the store refuses, or a closed store: never thrown into render
      return undefined;
    }
  };
  // The write of `next` with `options`, as the setter was given them: the hook's defaults
  // (`defaults`: its options without `initial`) where the call names no expiry.
  const write = (next, options, defaults, initial) => {
    if (!store) {
      const e = new Error(`useEntry(store, ${shown(key)}): the store is still opening (useStore gives undefined until it is open); write once loading is false`);
      show({ error: e });
      return handled(Promise.reject(e));
    }
    const o = options === undefined ? defaults : options;
    let done;
    try {
      if (typeof next === "function") {
        // store.update: read, run, write in one transaction, so a write from another tab at the
        // same moment is not lost. It keeps the expiry unless told one; keepTtl means just that.
        const plain = o !== null && typeof o === "object" && !Array.isArray(o);
        const { keepTtl, ...expiry } = plain ? o : {};
        const given = plain ? (keepTtl === true || Object.keys(expiry).length === 0 ? undefined : expiry) : o;
        done = store.update(key, (current) => next(current === undefined ? initial : current), given);
      } else {
        const writes = next === undefined ? store.delete(key) : store.set(key, next, o);
        writing += 1;
        ours = true;
        // Until the store tells: the value (with the expiry shown so far), or nothing for a delete.
        show({ entry: next === undefined ? undefined : Object.freeze({ key, value: next, expiresAt: snap.entry === undefined ? undefined : snap.entry.expiresAt }) });
        done = writes.then(() => next, (e) => {
          if (writing === 1) ours = false;
          throw e;
        }).finally(() => {
          writing -= 1;
          if (writing === 0 && !ours) show({ entry: told });
        });
      }
    } catch (e) {
      done = Promise.reject(e);
    }
    return handled(done.then(
      (v) => { if (snap.error !== undefined) show({ error: undefined }); return v; },
      (error) => { show({ error }); throw error; },
    ));
  };
  return { subscribe: subscribeBy(listeners, start), getSnapshot: () => snap, write };
}

const getOpening = () => OPENING;

/**
 * `[value, set, { expiresAt, ttl, loading, error }]` for `key` of `store` (which may be
 * `undefined` while useStore opens it): see the package's index.d.ts and README.
 */
export function useEntry(store, key, options) {
  const source = useMemo(() => entrySource(store, key), [store, keyId(key)]);
  const snap = useSyncExternalStore(source.subscribe, source.getSnapshot, getOpening);
  const latest = useRef(options);
  latest.current = options;
  const set = useMemo(() => (next, writeOptions) => {
    let initial;
    let defaults;
    try {
      ({ initial, ...defaults } = latest.current ?? {});
    } catch (e) {
      return handled(Promise.reject(e)); // options whose reading throws: the write is refused
    }
    return source.write(next, writeOptions, Object.keys(defaults).length === 0 ? undefined : defaults, initial);
  }, [source]);
  let { entry, loading, error } = snap;
  let initial;
  try {
    initial = options?.initial;
  } catch (e) {
    error = e; // never thrown into render
  }
  const expiresAt = entry === undefined ? undefined : entry.expiresAt;
  return [
    entry === undefined ? initial : entry.value,
    set,
    { expiresAt, ttl: expiresAt == null ? expiresAt : Math.max(0, expiresAt - Date.now() / 1000), loading, error },
  ];
}

/** The entries `query` names, live: `store.observe(query)` behind useSyncExternalStore. */
function viewSource(store, query) {
  const listeners = new Set();
  let list = NO_ENTRIES;
  return {
    // A query the store refuses throws its TypeError here, to the nearest error boundary.
    subscribe: subscribeBy(listeners, () => store?.observe(query, (l) => { list = l; notify(listeners); })),
    getSnapshot: () => list,
  };
}

const getNoEntries = () => NO_ENTRIES;

/** The live entries `query` names in `store` (`[]` while `store` is undefined). */
export function useView(store, query) {
  const id = memoId("useView's query", query);
  const source = useMemo(() => viewSource(store, query), [store, id]);
  return useSyncExternalStore(source.subscribe, source.getSnapshot, getNoEntries);
}

const NOT_OPEN = Object.freeze({ store: undefined, error: undefined });
const getNotOpen = () => NOT_OPEN;

/**
 * useStore for stores of class `TtlStore` (the default entry's or the lite entry's): each name
 * and options opened once, shared, and closed a moment after its last user unsubscribes (so
 * StrictMode's unsubscribe-and-subscribe-again keeps it).
 */
export function storeHook(TtlStore) {
  const opened = new Map(); // id -> { users, state, listeners }
  const sourceOf = (id, name, options) => ({
    subscribe(listener) {
      let o = opened.get(id);
      if (!o) {
        o = { users: 0, state: NOT_OPEN, listeners: new Set() };
        opened.set(id, o);
        const settle = (state) => {
          o.state = Object.freeze(state);
          notify(o.listeners);
        };
        o.opening = Promise.resolve().then(() => TtlStore.open(name, options)).then((store) => settle({ store, error: undefined }), (error) => settle({ store: undefined, error }));
      }
      o.users += 1;
      o.listeners.add(listener);
      return () => {
        o.users -= 1;
        o.listeners.delete(listener);
        if (o.users > 0) return;
        queueMicrotask(() => {
          if (o.users > 0 || opened.get(id) !== o) return;
          opened.delete(id);
          o.opening.then(() => { try { o.state.store?.close(); } catch { /* closed already */ } });
        });
      };
    },
    getSnapshot: () => opened.get(id)?.state ?? NOT_OPEN,
  });
  return function useStore(name, options) {
    const id = memoId("useStore's options", [name, options]);
    const source = useMemo(() => sourceOf(id, name, options), [id]);
    const { store, error } = useSyncExternalStore(source.subscribe, source.getSnapshot, getNotOpen);
    if (error !== undefined) throw error; // an open that failed: to the nearest error boundary
    return store;
  };
}
