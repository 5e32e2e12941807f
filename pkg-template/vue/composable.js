// The Vue 3 composable of "idb-ttl/vue" (and "idb-ttl/lite/vue"): JavaScript over a store's public
// API, whichever entry opened it. useEntry is one `store.watch(key)` behind a shallowRef: the
// store calls it with the value once read, at every write in any tab or worker and with
// `undefined` at the moment of expiry (no polling); the watch starts when the component mounts
// (never on a server) and stops when its effect scope ends.

import { getCurrentInstance, isRef, onMounted, shallowReadonly, shallowRef, toValue, watch } from "vue";

/** `key` as an error message shows it. */
const shown = (key) => {
  try {
    return JSON.stringify(key) ?? String(key);
  } catch {
    return `(a ${typeof key} that cannot be shown)`;
  }
};

/** Throws the TypeError for a key that is neither a string nor a number, naming it. */
const check = (key) => {
  if (typeof key !== "string" && typeof key !== "number") {
    throw new TypeError(`useEntry(store, key): key ${shown(key)} is not accepted; expected a string or a number (or a ref or getter of one)`);
  }
};

/**
 * A readonly ref of `key`'s value in `store` (each may be a ref or a getter): `undefined` until
 * mounted and read, then what `store.watch` tells. See the package's vue/index.d.ts and docs/vue.md.
 */
export function useEntry(store, key) {
  if (!isRef(key) && typeof key !== "function") check(key); // a bad key fails the setup, on a server too
  const value = shallowRef();
  // One watch of the current store and key, replaced when either changes, stopped (its
  // onCleanup) with the effect scope it was made in: the component's, or the caller's.
  const follow = () => watch([() => toValue(store), () => toValue(key)], ([s, k], _, onCleanup) => {
    value.value = undefined;
    check(k);
    if (s) onCleanup(s.watch(k, (v) => { value.value = v; }));
  }, { immediate: true });
  // In a component, from its mount: never during server rendering, and hydration sees what the
  // server rendered (undefined). Outside one (a Pinia store, an effectScope), at once.
  if (getCurrentInstance()) onMounted(follow);
  else follow();
  return shallowReadonly(value);
}
