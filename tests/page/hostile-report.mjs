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

/** Fails unless `report` (from `engine`) ran more than 1 000 cases and none went wrong. */
export function check(t, engine, report) {
  assert.equal(report.crashed, undefined, `${engine}: the catalogue crashed: ${report.crashed}`);
  const { cases, outcomes, failures } = report;
  t.diagnostic(`${engine}: ${cases} cases: ${outcomes.accepted} accepted as documented, ${outcomes.TypeError} TypeError, ` +
    `${outcomes.RangeError} RangeError; ${failures.length} failures`);
  assert.ok(cases > 1000, `${engine}: the catalogue ran (${cases} cases)`);
  assert.deepEqual(failures, [], `${engine}: ${failures.length} cases went wrong`);
}
