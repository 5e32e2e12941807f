// The demo's "Vault" panel: a secret kept in a store opened with { encryption: true }. The
// read-back is get(); the raw readout is what IndexedDB itself holds for the key, read with plain
// IndexedDB beside the library: the key and expiry in plaintext, the value as AES-GCM ciphertext
// (shown by length and a hex prefix, never decrypted here), and the CryptoKey the page cannot
// export. "Shred" destroys the key and everything it encrypted. Its own database, since an
// encrypted store is opened with its own options.

import { clock, describe, errorText, formatExpiresAt } from "./format.js";
import { openPanelStore, panelParts } from "./panel.js";

const DB_NAME = "idb-ttl-demo-vault";
const KEY = "token";
const TTL = "1 hour";
const HEX_BYTES = 12;

const [panel, q] = panelParts("vault-panel");
const input = q("vault-secret");
const readback = q("vault-readback");
const raw = q("vault-raw");
const keyShown = q("vault-key");
const said = q("vault-said");

/** Shows what the last call answered. */
function say(text, bad = false) {
  said.textContent = `${clock()} ${text}`;
  said.classList.toggle("bad", bad);
}

/** The first `n` bytes of `buffer` in hex. */
const hex = (buffer, n) => [...new Uint8Array(buffer, 0, Math.min(n, buffer.byteLength))].map((b) => b.toString(16).padStart(2, "0")).join(" ");

/**
 * What IndexedDB holds, read without the library: the entry record of KEY (`undefined` if none)
 * and the encryption key records of meta.
 */
function readRaw() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME);
    // The store created the database at load; this read never creates one.
    open.onupgradeneeded = () => open.transaction.abort();
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(["entries", "meta"], "readonly");
      const record = tx.objectStore("entries").index("by_key").get(KEY);
      const keys = tx.objectStore("meta").getAll(IDBKeyRange.bound("key:", "key:\uffff"));
      tx.oncomplete = () => { db.close(); resolve({ record: record.result, keys: keys.result }); };
      tx.onabort = () => { db.close(); reject(tx.error); };
    };
  });
}

/** Shows the raw record: plaintext key and expiry, the value's ciphertext by length and prefix. */
function renderRaw(record) {
  if (record === undefined) {
    raw.dataset.state = "none";
    delete raw.dataset.ctLength;
    raw.textContent = `no record for "${KEY}"`;
    return;
  }
  const v = record.v;
  const expiry = Number.isFinite(record.e) ? `${formatExpiresAt(record.e / 1000)} UTC` : "never";
  if (v && v.ct instanceof ArrayBuffer && v.iv instanceof Uint8Array) {
    raw.dataset.state = "sealed";
    raw.dataset.ctLength = String(v.ct.byteLength);
    raw.textContent = `k: ${describe(record.k)}, e: ${expiry} (plaintext)\n` +
      `v: { x: ${v.x}, iv: ${v.iv.length} bytes, ct: ${v.ct.byteLength} bytes: ${hex(v.ct, HEX_BYTES)} … }`;
  } else {
    // Not what an encrypted store writes; its value is not shown.
    raw.dataset.state = "plain";
    delete raw.dataset.ctLength;
    raw.textContent = `k: ${describe(record.k)}, e: ${expiry}, v: not ciphertext`;
  }
}

/** Shows the key records: each a CryptoKey that cannot leave the browser. */
function renderKeys(keys) {
  keyShown.dataset.count = String(keys.length);
  keyShown.textContent = keys.length === 0 ? "none" : keys.map((r) =>
    `key:${r.id} ${r.key.algorithm.name}-${r.key.algorithm.length}, extractable: ${r.key.extractable}`).join("; ");
}

function mount(store) {
  // Each refresh reads both sides, then shows them together, and only if no later refresh began
  // meanwhile: the read-back and the raw readout never show two different moments (a save's
  // refresh and the load's could otherwise finish out of order, or the read-back show a shred
  // while the raw readout still shows the record).
  let latest = 0;
  const refresh = async () => {
    const mine = ++latest;
    try {
      const value = await store.get(KEY);
      const { record, keys } = await readRaw();
      if (mine !== latest) return;
      readback.dataset.state = value === undefined ? "none" : "value";
      readback.textContent = value === undefined ? "undefined" : describe(value);
      renderRaw(record);
      renderKeys(keys);
    } catch (e) {
      if (mine === latest) say(`reading "${KEY}": ${errorText(e)}`, true);
    }
  };

  const button = (id, fn) => {
    const b = q(id);
    b.disabled = false;
    b.addEventListener("click", async () => {
      try { await fn(); } catch (e) { say(errorText(e), true); }
      await refresh();
    });
  };
  button("vault-save", async () => {
    await store.set(KEY, input.value, { ttl: TTL });
    say(`set("${KEY}", …, { ttl: "${TTL}" }): saved, encrypted`);
  });
  button("vault-shred", async () => {
    await store.shred();
    say("shred(): the key is destroyed, and every record it encrypted is gone");
  });

  // A save or shred in another tab.
  store.addEventListener("change", (ev) => {
    if (ev.detail?.remote) refresh();
  });
  refresh();
}

async function main() {
  const store = await openPanelStore(DB_NAME, { encryption: true }, "vaultStore", (m) => say(m, true));
  if (store) mount(store);
}

main();
