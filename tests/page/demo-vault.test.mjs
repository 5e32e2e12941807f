// Page tests for the demo's "Vault" panel (www/vault.js): a secret saved in a store opened with
// { encryption: true } reads back with get(), while what IndexedDB holds for it (the panel's raw
// readout, and the record read here directly) is ciphertext that does not contain it; "Shred"
// destroys the key, and the read-back is empty. Debian's Chromium (playwright-core) against www/,
// served by scripts/serve.mjs; run with `node --test tests/page/` after scripts/build.sh.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, TEST_TIMEOUT_MS, poll, sel, waitForLibrary, withDemoPage } from "./harness.mjs";

const text = (page, id) => page.textContent(sel(id));
const attr = (page, id, name) => page.getAttribute(sel(id), name);

/** The panel's database as plain IndexedDB holds it: the "token" record's ciphertext bytes, and whether they contain `secret`. */
const rawRecord = (page, secret) => page.evaluate((secret) => new Promise((resolve, reject) => {
  const open = indexedDB.open("idb-ttl-demo-vault");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const get = db.transaction("entries").objectStore("entries").index("by_key").get("token");
    get.onerror = () => reject(get.error);
    get.onsuccess = () => {
      db.close();
      const v = get.result?.v;
      if (!v) return resolve(null);
      const ct = new Uint8Array(v.ct);
      const needle = new TextEncoder().encode(secret);
      const holds = ct.some((_, i) => needle.every((b, j) => ct[i + j] === b));
      resolve({ isBuffer: v.ct instanceof ArrayBuffer, length: ct.length, holds, ivLength: v.iv.length, plainValue: typeof v === "string" });
    };
  };
}), secret);

test("a saved secret reads back, IndexedDB holds only its ciphertext, and shred() leaves nothing", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemoPage(async ({ page }) => {
    await waitForLibrary(page);
    await page.waitForSelector(`${sel("vault-save")}:not([disabled])`);
    await poll(() => text(page, "vault-readback"), (t) => t === "undefined", EVENT_TIMEOUT_MS, "nothing stored yet");

    const secret = `vault-secret-${Math.random().toString(36).slice(2, 10)}`;
    await page.fill(sel("vault-secret"), secret);
    await page.click(sel("vault-save"));
    await poll(() => text(page, "vault-readback"), (t) => t === JSON.stringify(secret), EVENT_TIMEOUT_MS, "the secret read back");
    assert.equal(await attr(page, "vault-readback", "data-state"), "value");

    // The raw readout: the key in plaintext, the value as ciphertext (its JSON's bytes plus
    // AES-GCM's 16-byte tag), and never the secret.
    await poll(() => attr(page, "vault-raw", "data-state"), (s) => s === "sealed", EVENT_TIMEOUT_MS, "the raw record shown");
    const shown = await text(page, "vault-raw");
    assert.ok(!shown.includes(secret), `the raw readout shows the secret: ${shown}`);
    assert.match(shown, /k: "token"/, shown);
    assert.match(shown, /iv: 12 bytes, ct: \d+ bytes: ([0-9a-f]{2} ){12}…/, shown);
    const ctLength = new TextEncoder().encode(JSON.stringify(secret)).length + 16;
    assert.equal(await attr(page, "vault-raw", "data-ct-length"), String(ctLength));
    assert.deepEqual(await rawRecord(page, secret), { isBuffer: true, length: ctLength, holds: false, ivLength: 12, plainValue: false },
      "IndexedDB holds ciphertext without the secret's bytes");
    assert.match(await text(page, "vault-key"), /^key:\d+ AES-GCM-256, extractable: false$/);

    await page.click(sel("vault-shred"));
    await poll(() => text(page, "vault-said"), (t) => t.includes("shred():"), EVENT_TIMEOUT_MS, "shred's answer");
    await poll(() => text(page, "vault-readback"), (t) => t === "undefined", EVENT_TIMEOUT_MS, "nothing reads back after shred");
    assert.equal(await attr(page, "vault-readback", "data-state"), "none");
    assert.equal(await attr(page, "vault-raw", "data-state"), "none", "the record is gone from IndexedDB");
    assert.equal(await text(page, "vault-key"), "none", "no key left");
    assert.equal(await rawRecord(page, secret), null);
    assert.equal(await page.evaluate(() => window.vaultStore.get("token")), undefined, "get() agrees");
  });
});
