// Helpers shared by the page tests that drive several tabs of one Chromium on the blank fixture
// (tests/page/fixtures/blank.html): storage-errors.test.mjs and tabs.test.mjs. Not a test file.

import assert from "node:assert/strict";
import { READY_TIMEOUT_MS, ROOT, withChromium } from "./harness.mjs";

const FIXTURE = "tests/page/fixtures/blank.html";
/** Longest an idb-ttl call may take in these tests before it counts as a hang. */
export const CALL_MS = 5_000;

/**
 * Runs `fn({ context, origin, openTab })` with the repository root served and a Chromium on a
 * fresh profile. `openTab()` opens the fixture in a new tab of the same browser (same origin, so
 * the tabs share IndexedDB) and resolves once the wasm module is initialised. Uncaught page
 * errors in any tab fail the test. Server, browser and profile are always cleaned up.
 */
export function withBrowser(fn) {
  return withChromium(ROOT, async ({ context, url }) => {
    const pageErrors = [];
    let tabs = 0;
    const openTab = async () => {
      const tab = ++tabs;
      const page = await context.newPage();
      page.on("pageerror", (e) => pageErrors.push(`tab ${tab}: ${e.message}`));
      await page.goto(new URL(FIXTURE, url).href);
      await page.waitForSelector("html[data-state]", { state: "attached", timeout: READY_TIMEOUT_MS });
      const state = await page.getAttribute("html", "data-state");
      if (state !== "ready") {
        assert.fail(`the fixture did not load the library: ${await page.getAttribute("html", "data-error")}`);
      }
      return page;
    };
    await fn({ context, origin: new URL(url).origin, openTab });
    assert.deepEqual(pageErrors, [], "uncaught errors in the pages");
  });
}

/**
 * Runs `body` (source of an async function body, with `store`, `TtlStore`, `arg` in scope) in
 * `page` through the fixture's bounded `outcome`, and returns how it ended.
 */
export function run(page, body, arg, ms = CALL_MS) {
  return page.evaluate(
    ({ body, arg, ms }) => {
      // eslint-disable-next-line no-new-func
      const fn = new Function("store", "TtlStore", "arg", `return (async () => { ${body} })();`);
      return window.outcome(() => fn(window.store, window.idbTtl.TtlStore, arg), ms);
    },
    { body, arg, ms },
  );
}

/** `run`, asserting that it resolved; returns the value. */
export async function value(page, body, arg, ms) {
  const out = await run(page, body, arg, ms);
  assert.equal(out.status, "resolved", `${body}\n  ended as ${JSON.stringify(out)}`);
  return out.value;
}

