// Shared helpers for the contenders (plain IndexedDB promises).
export const req2p = (r) => new Promise((ok, ko) => { r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
export const txDone = (tx) => new Promise((ok, ko) => {
  tx.oncomplete = () => ok();
  tx.onerror = () => ko(tx.error);
  tx.onabort = () => ko(tx.error ?? new Error("transaction aborted"));
});
export function openRaw(name, version, upgrade) {
  return new Promise((ok, ko) => {
    const r = version === undefined ? indexedDB.open(name) : indexedDB.open(name, version);
    r.onupgradeneeded = () => upgrade?.(r.result, r.transaction);
    r.onsuccess = () => ok(r.result);
    r.onerror = () => ko(r.error);
    r.onblocked = () => ko(new Error("open blocked: " + name));
  });
}
export function deleteRaw(name) {
  return new Promise((ok, ko) => {
    const r = indexedDB.deleteDatabase(name);
    r.onsuccess = () => ok();
    r.onerror = () => ko(r.error);
    r.onblocked = () => console.warn("deleteDatabase blocked: " + name);
  });
}
/** Untimed population of an out-of-line-keyed store of an existing DB (same bytes the library writes). */
export async function putOutOfLine(dbName, storeName, pairs) {
  const db = await openRaw(dbName);
  try {
    const tx = db.transaction(storeName, "readwrite");
    const s = tx.objectStore(storeName);
    for (const [k, v] of pairs) s.put(v, k);
    await txDone(tx);
  } finally { db.close(); }
}
