// Server-side rendering: the page's modules are imported in Node, where there is no IndexedDB.
// Importing idb-ttl is safe; opening (or destroying) a store is refused with a StoreUnavailableError, so code
// shared with the server opens the store only in the browser. `node ssr.js` prints what happens.
import { TtlStore } from "idb-ttl";

export async function openCache() {
  if (typeof indexedDB === "undefined") return null; // on the server: render without a cache
  return TtlStore.open("app-cache");
}

const result = { imported: typeof TtlStore.open === "function", guarded: await openCache() };
try {
  await TtlStore.open("app-cache");
  result.open = "opened";
} catch (e) {
  result.open = { name: e.name, message: e.message };
}
try {
  await TtlStore.destroy("app-cache");
  result.destroy = "destroyed";
} catch (e) {
  result.destroy = { name: e.name, message: e.message };
}
console.log(JSON.stringify(result));
