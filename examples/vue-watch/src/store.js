// The app's one store, as a ref: undefined until it opens, and always on a server (there is no
// IndexedDB there, so it is opened only in the browser, by main.js). useEntry takes the ref and
// starts watching once it holds the store.
import { nextTick, shallowRef } from "vue";
import { TtlStore } from "idb-ttl";

/** The store, once open. */
export const store = shallowRef();

/**
 * Opens it. `autoReap: false` only to show that nothing waits for the reaper: an expired offer
 * leaves the page at its expiry while its record is still in IndexedDB (a real app keeps the reaper).
 */
export async function openStore() {
  store.value = await TtlStore.open("vue-watch-example", { autoReap: false });
  (window.stores ??= new Set()).add(store.value); // for the console and the tests
  await nextTick(); // the watches have started
  document.documentElement.dataset.state = "ready";
}
