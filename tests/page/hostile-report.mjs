// The check of a hostile-values catalogue report (tests/hostile/catalogue.js), shared by
// chromium-hostile.test.mjs and hostile.test.mjs. Not a test file itself.

import assert from "node:assert/strict";

/** The fixture that runs the catalogue, served from the repository root. */
export const FIXTURE = "tests/page/fixtures/hostile.html";
/** Longest wait for the catalogue to finish in one engine. */
export const WAIT_MS = 240_000;

/** Fails unless `report` (from `engine`) ran more than 1 000 cases and none went wrong. */
export function check(t, engine, report) {
  assert.equal(report.crashed, undefined, `${engine}: the catalogue crashed: ${report.crashed}`);
  const { cases, outcomes, failures } = report;
  t.diagnostic(`${engine}: ${cases} cases: ${outcomes.accepted} accepted as documented, ${outcomes.TypeError} TypeError, ` +
    `${outcomes.RangeError} RangeError; ${failures.length} failures`);
  assert.ok(cases > 1000, `${engine}: the catalogue ran (${cases} cases)`);
  assert.deepEqual(failures, [], `${engine}: ${failures.length} cases went wrong`);
}
