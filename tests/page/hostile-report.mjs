// The check of a hostile-values catalogue report (tests/hostile/catalogue.js), shared by
// chromium-hostile.test.mjs and hostile.test.mjs. Not a test file itself.

import assert from "node:assert/strict";

/** The fixture that runs the catalogue, served from the repository root. */
export const FIXTURE = "tests/page/fixtures/hostile.html";
/**
 * Longest wait for the catalogue to finish in one engine: a bound on a hang, not on speed (each call
 * has its own 30 s bound inside the catalogue). Chromium took 65 s alone on 2 idle cores, and up to
 * 223 s beside the other page files and a loaded machine; 240 s was too close.
 */
export const WAIT_MS = 420_000;

/** The package's entries the catalogue runs against: the fixture's `?entry=`. */
export const ENTRIES = ["default", "lite"];

/**
 * Fewest cases a run of each entry must have made: the default entry's every member (3 603 with a
 * DOM); idb-ttl/lite's key-value members (2 576) and its own cases (4, or 14 once gated), without
 * the default entry's 1 012 value cases and 15 headers cases.
 */
export const MIN_CASES = { default: 3550, lite: 2540 };

/** The fixture's address for `entry`, below the server's root URL. */
export const fixture = (entry) => (entry === "default" ? FIXTURE : `${FIXTURE}?entry=${entry}`);

/**
 * Fails unless `report` (from `engine`) ran against `entry`, made more than MIN_CASES[entry] cases,
 * and none went wrong. idb-ttl/lite's run must also have made its own cases (liteCases), and left
 * out the default entry's.
 */
export function check(t, engine, report, entry = "default") {
  const at = `${engine}, ${entry} entry`;
  assert.equal(report.crashed, undefined, `${at}: the catalogue crashed: ${report.crashed}`);
  const { cases, skipped, liteCases, gated, outcomes, failures } = report;
  t.diagnostic(`${at}: ${cases} cases (${liteCases} of idb-ttl/lite's own, ${skipped} of the default entry's left out; ` +
    `default-only members ${gated ? "absent" : "present"}): ${outcomes.accepted} accepted as documented, ${outcomes.TypeError} TypeError, ` +
    `${outcomes.RangeError} RangeError; ${failures.length} failures`);
  assert.equal(report.entry, entry, `${at}: the catalogue ran against ${report.entry}`);
  assert.ok(cases > MIN_CASES[entry], `${at}: the catalogue ran (${cases} cases, more than ${MIN_CASES[entry]} expected)`);
  if (entry === "lite") {
    assert.ok(skipped > 0, `${at}: the default entry's cases were left out`);
    assert.ok(liteCases >= (gated ? 14 : 4), `${at}: idb-ttl/lite's own cases ran (${liteCases})`);
  } else {
    assert.equal(gated, false, `${at}: the default entry has its collections`);
    assert.equal(skipped, 0, `${at}: no case left out`);
  }
  assert.deepEqual(failures, [], `${at}: ${failures.length} cases went wrong`);
}
