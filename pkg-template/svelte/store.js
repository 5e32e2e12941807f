// The Svelte store of "idb-ttl/svelte" (and "idb-ttl/lite/svelte"): JavaScript over a store's
// public API, whichever entry opened it, and over Svelte's store contract alone (no import of
// svelte). entry(store, key) is one `store.watch(key)` while it has subscribers: the store calls
// it with the value once read, at every write in any tab or worker and with `undefined` at the
// moment of expiry (no polling); the last unsubscriber stops it.

/** `key` as an error message shows it. */
const shown = (key) => {
  try {
    return JSON.stringify(key) ?? String(key);
  } catch {
    return `(a ${typeof key} that cannot be shown)`;
  }
};

/**
 * A Svelte store (`{ subscribe }`) of `key`'s value in `store`: `undefined` until read, then what
 * `store.watch` tells. See the package's svelte/index.d.ts and docs/svelte.md.
 */
export function entry(store, key) {
  if (typeof key !== "string" && typeof key !== "number") {
    throw new TypeError(`entry(store, key): key ${shown(key)} is not accepted; expected a string or a number`);
  }
  const runs = new Set();
  let value;
  let stop = null;
  return {
    subscribe(run) {
      // Each subscription its own object: the same function subscribed twice is two subscribers.
      const sub = { run };
      runs.add(sub);
      try {
        if (runs.size === 1 && store) {
          stop = store.watch(key, (v) => {
            value = v;
            for (const s of [...runs]) if (runs.has(s)) s.run(v);
          });
        }
      } catch (e) {
        runs.delete(sub); // nothing to unsubscribe: the store refused the watch
        throw e;
      }
      run(value);
      return () => {
        if (!runs.delete(sub) || runs.size > 0) return;
        const s = stop;
        stop = null;
        value = undefined; // a later subscriber waits for a new read, never a stale value
        s?.();
      };
    },
  };
}
