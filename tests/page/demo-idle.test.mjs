// Page tests for the demo's "Idle session" panel (www/idle.js): a session set with { idle, ttl }
// stays live while "Use it" (get) is pressed, ends between 90 % and 100 % of its idle window after
// the last use once it stops, and ends at its cap however often it is used. The readout reads
// ttl("session", { detail: true }) and must never extend the session itself. Debian's Chromium
// (playwright-core) against www/, served by scripts/serve.mjs; run with `node --test tests/page/`
// after scripts/build.sh.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, TEST_TIMEOUT_MS, poll, sel, waitForLibrary, withDemoPage } from "./harness.mjs";

const state = (page) => page.getAttribute(sel("idle-state"), "data-state");
const attr = (page, name) => page.getAttribute(sel("idle-panel"), name);
const endedAt = async (page) => Number(await page.getAttribute(sel("idle-state"), "data-ended-at"));

/** Waits for the panel's store, then signs in with `idle` seconds and a cap of `cap` seconds. */
async function signIn(page, idle, cap) {
  await waitForLibrary(page);
  await page.waitForSelector(`${sel("idle-signin")}:not([disabled])`);
  assert.equal(await state(page), "none");
  await page.fill(sel("idle-window"), String(idle));
  await page.fill(sel("idle-cap"), String(cap));
  assert.equal(await page.textContent(sel("idle-preview")), `await store.set("session", { user: "ada" }, { idle: ${idle}, ttl: ${cap} })`);
  await page.click(sel("idle-signin"));
  await poll(() => state(page), (s) => s === "live", EVENT_TIMEOUT_MS, "the session shown live");
  assert.equal(await attr(page, "data-idle"), String(idle));
}

/** Presses "Use it" every `everyMs` until `untilMs` (page clock); returns the last use's time. */
async function useUntil(page, everyMs, untilMs) {
  for (;;) {
    await page.click(sel("idle-use"));
    assert.equal(await state(page), "live", "live while used");
    if (Date.now() + everyMs > untilMs) break;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return Number(await attr(page, "data-used-at"));
}

test("a used session stays live past its idle window, then ends 90-100 % of it after the last use", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemoPage(async ({ page }) => {
    await signIn(page, 2, 6);
    const signedInAt = Number(await attr(page, "data-signed-in-at"));
    const lastUse = await useUntil(page, 1_000, signedInAt + 4_000);
    assert.ok(lastUse - signedInAt > 3_000, `used for ${lastUse - signedInAt} ms, past the 2 s window`);
    await poll(() => page.textContent(sel("idle-said")), (t) => /get\("session"\) → .*its window starts again/.test(t), EVENT_TIMEOUT_MS, "get's answer");
    await poll(() => page.textContent(sel("idle-stat-extended")), (t) => Number(t) >= 3, EVENT_TIMEOUT_MS, "stats().idleExtended");

    // Peek and the readout do not extend: the session ends as if nothing had read it.
    await page.click(sel("idle-peek"));
    await poll(() => page.textContent(sel("idle-said")), (t) => /peek\("session"\) → .*not moved/.test(t), EVENT_TIMEOUT_MS, "peek's answer");
    await poll(() => state(page), (s) => s === "ended", EVENT_TIMEOUT_MS, "the session ends once unused");
    const ended = await endedAt(page);
    assert.ok(ended - lastUse >= 1_800, `ended ${ended - lastUse} ms after the last use, before 90 % of the window`);
    assert.ok(ended - lastUse <= 2_500, `ended ${ended - lastUse} ms after the last use, later than the window and a tick`);
    assert.equal(await page.getAttribute(sel("idle-state"), "data-reason"), "idle");
    assert.equal(await page.evaluate(async () => (await window.idleStore.peek("session")) === undefined), true, "peek() agrees");

    // "Use it" does not bring an ended session back.
    await page.click(sel("idle-use"));
    await poll(() => page.textContent(sel("idle-said")), (t) => /get\("session"\) → undefined/.test(t), EVENT_TIMEOUT_MS, "get's answer");
    assert.equal(await state(page), "ended");
  });
});

test("a session used every 0.5 s still ends at its cap", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDemoPage(async ({ page }) => {
    await signIn(page, 2, 6);
    const capMs = Number(await attr(page, "data-cap")) * 1000;
    const signedInAt = Number(await attr(page, "data-signed-in-at"));
    assert.ok(Math.abs(capMs - (signedInAt + 6_000)) < 500, `cap ${capMs}, signed in at ${signedInAt}`);
    let uses = 0;
    while ((await state(page)) === "live" && Date.now() < capMs + 2_000) {
      await page.click(sel("idle-use"));
      uses += 1;
      await new Promise((r) => setTimeout(r, 500));
    }
    await poll(() => state(page), (s) => s === "ended", EVENT_TIMEOUT_MS, `the session ended at its cap (${uses} uses)`);
    const ended = await endedAt(page);
    assert.ok(ended >= capMs - 50, `ended ${capMs - ended} ms before its cap`);
    assert.ok(ended <= capMs + 600, `ended ${ended - capMs} ms after its cap`);
    assert.ok(uses >= 8, `used ${uses} times`);
    assert.ok(Number(await attr(page, "data-used-at")) > capMs - 1_000, "used until its cap");
    assert.equal(await page.getAttribute(sel("idle-state"), "data-reason"), "cap");
  });
});
