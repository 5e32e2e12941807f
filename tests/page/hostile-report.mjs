// The hostile-values catalogue (tests/hostile/catalogue.js) as page tests, shared by
// chromium-hostile.test.mjs and hostile.test.mjs: the catalogue runs in shards (the fixture's
// `?shard=k/n`, every n-th case), each a test with its own page and deadlines, then a test that
// checks the shards together ran the whole catalogue. Not a test file itself.

import assert from "node:assert/strict";
import { test } from "node:test";

/** The fixture that runs the catalogue, served from the repository root. */
export const FIXTURE = "tests/page/fixtures/hostile.html";

/** The package's entries the catalogue runs against: the fixture's `?entry=`. */
export const ENTRIES = ["default", "lite"];

/**
 * How many shards each entry's catalogue runs in: about 900 cases each (default about 900, lite
 * about 860), so that no test holds many minutes of work under one deadline (and a shard's wait is
 * on progress anyway). The whole default catalogue took 65 s in Chromium alone on 2 idle cores, and
 * over 420 s beside the other page files on a loaded machine. Each shard pays a browser, the
 * catalogue's values and stores, and its own heavy cases: 8 and 6 shards cost the Chromium file
 * 665 s in a cold run (shards of 14 to 198 s, two at a time), most of the page tests' stage. Each
 * shard prints where its time went (its calls, the counts after them, fresh databases...).
 */
export const SHARDS = { default: 4, lite: 3 };

/**
 * Fewest cases a run of each entry must have made, all shards together: the default entry's every
 * member (3 603 with a DOM); idb-ttl/lite's key-value members (2 576) and its own cases (4, or 14
 * once gated), without the default entry's 1 012 value cases and 15 headers cases.
 */
export const MIN_CASES = { default: 3550, lite: 2540 };

/**
 * A shard has hung when no case completed for this long: longer than the catalogue's own bound on
 * one call (HANG_MS, 120 s), so that a hung call is reported by the catalogue, naming its case.
 */
export const STALL_MS = 180_000;

/** The longest a shard may run in all, however steady its progress: a bound on a runaway, not on speed. */
export const SHARD_MS = 20 * 60_000;

/** `node:test` timeout of a shard's test: its bound, and time to start and stop a browser. */
export const SHARD_TEST_MS = SHARD_MS + 3 * 60_000;

/**
 * The fixture's address for `entry` and `shard` ([k, n]), and with `only` (positions' labels)
 * those positions' cases only, below the server's root URL.
 */
export const fixture = (entry, [k, n] = [1, 1], only) =>
  `${FIXTURE}?entry=${entry}&shard=${k}/${n}${only ? `&only=${only.map(encodeURIComponent).join("|")}` : ""}`;

/** In a page: what the fixture has published, `{ report, done, at }` (report: JSON text or null). */
export const readProgress = () => {
  const d = document.documentElement.dataset;
  return { report: d.report ?? null, done: d.done ?? null, at: d.at ?? null };
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits for the fixture's report, polling `read()` (resolves to `readProgress()` in the page) once a
 * second, for as long as cases keep completing: fails when none completed for STALL_MS (naming where
 * the run stopped), or the shard ran longer than SHARD_MS. Resolves to the parsed report.
 */
export async function waitForReport(read, what) {
  const started = Date.now();
  let last = { done: null, at: null };
  let lastChange = Date.now();
  for (;;) {
    let timer;
    const stalled = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: the page did not answer for ${STALL_MS / 1000} s (last at ${last.at}, ${last.done} cases done)`)), STALL_MS);
    });
    let now;
    try {
      now = await Promise.race([read(), stalled]).finally(() => clearTimeout(timer));
    } catch (e) {
      // A WebDriver script that timed out (the page busy with a 10 MB case): not progress, not yet a hang.
      if (!/script timeout|timed out/i.test(String(e && e.message))) throw e;
      now = last;
    }
    if (now.report) return JSON.parse(now.report);
    if (now.done !== last.done || now.at !== last.at) {
      last = now;
      lastChange = Date.now();
    }
    if (Date.now() - lastChange > STALL_MS) assert.fail(`${what}: no case completed for ${STALL_MS / 1000} s: stopped at ${last.at} (${last.done} cases done)`);
    if (Date.now() - started > SHARD_MS) assert.fail(`${what}: still running after ${SHARD_MS / 60_000} min (at ${now.at}, ${now.done} cases done)`);
    await sleep(1_000);
  }
}

/**
 * Fails unless `report` (from `engine`) ran shard `shard` ([k, n]) of the catalogue against `entry`,
 * made cases, and none went wrong. The counts are checked for all shards together by `totalTest`.
 */
export function checkShard(t, engine, report, entry, [k, n]) {
  const at = `${engine}, ${entry} entry, shard ${k}/${n}`;
  assert.equal(report.crashed, undefined, `${at}: the catalogue crashed: ${report.crashed}`);
  const { cases, skipped, liteCases, gated, outcomes, failures } = report;
  t.diagnostic(`${at}: ${cases} cases (${liteCases} of idb-ttl/lite's own, ${skipped} of the default entry's left out; ` +
    `default-only members ${gated ? "absent" : "present"}): ${outcomes.accepted} accepted as documented, ${outcomes.TypeError} TypeError, ` +
    `${outcomes.RangeError} RangeError; ${failures.length} failures; the whole catalogue ${report.total.cases} cases`);
  // Where the shard's calls spent their time (the calls alone, not the checks after them): what
  // to look at when the catalogue's share of the test command grows.
  const byValue = Object.entries(report.byValue ?? {}).sort((a, b) => b[1] - a[1]).slice(0, 5);
  t.diagnostic(`${at}: slowest calls ${(report.slowest ?? []).map(([ms, w]) => `${ms} ms ${w}`).join("; ")}; ` +
    `most time by value ${byValue.map(([v, ms]) => `${v} ${ms} ms`).join(", ")}`);
  const calls = Object.values(report.byValue ?? {}).reduce((a, b) => a + b, 0);
  t.diagnostic(`${at}: ${report.ms} ms in the page: calls ${calls} ms; ` +
    Object.entries(report.phases ?? {}).map(([p, [ms, n]]) => `${p} ${ms} ms (${n})`).join("; ") +
    `; slowest: ${(report.slowPhases ?? []).map(([ms, w]) => `${ms} ms ${w}`).join("; ")}`);
  assert.equal(report.entry, entry, `${at}: the catalogue ran against ${report.entry}`);
  assert.equal(report.shard, `${k}/${n}`, `${at}: the catalogue ran shard ${report.shard}`);
  assert.ok(cases > 0, `${at}: the shard ran cases (${cases})`);
  if (entry !== "lite") {
    assert.equal(gated, false, `${at}: the default entry has its collections`);
    assert.equal(skipped, 0, `${at}: no case left out`);
  }
  assert.deepEqual(failures, [], `${at}: ${failures.length} cases went wrong`);
}

/**
 * Fails unless the shards' reports together ran the whole catalogue against `entry`: every shard
 * counted the same whole, their cases add up to it, and it is more than MIN_CASES[entry].
 * idb-ttl/lite's shards must together have made its own cases (liteCases) and left out the default
 * entry's.
 */
export function checkTotal(t, engine, reports, entry) {
  const at = `${engine}, ${entry} entry, ${reports.length} shards`;
  const whole = reports[0].total;
  for (const r of reports) assert.deepEqual(r.total, whole, `${at}: shard ${r.shard} counted another catalogue`);
  const sum = (f) => reports.reduce((s, r) => s + r[f], 0);
  t.diagnostic(`${at}: ${sum("cases")} cases (${reports.map((r) => r.cases).join(" + ")}) of ${whole.cases}; ` +
    `${sum("liteCases")} of idb-ttl/lite's own, ${sum("skipped")} left out`);
  assert.equal(sum("cases"), whole.cases, `${at}: the shards ran ${sum("cases")} of the catalogue's ${whole.cases} cases`);
  assert.ok(sum("cases") > MIN_CASES[entry], `${at}: the catalogue ran (${sum("cases")} cases, more than ${MIN_CASES[entry]} expected)`);
  assert.equal(sum("skipped"), whole.skipped, `${at}: the shards left out ${sum("skipped")} of ${whole.skipped}`);
  assert.equal(sum("liteCases"), whole.liteCases, `${at}: the shards ran ${sum("liteCases")} of ${whole.liteCases} lite cases`);
  if (entry === "lite") {
    const gated = reports[0].gated;
    assert.ok(sum("skipped") > 0, `${at}: the default entry's cases were left out`);
    assert.ok(sum("liteCases") >= (gated ? 14 : 4), `${at}: idb-ttl/lite's own cases ran (${sum("liteCases")})`);
  } else {
    assert.equal(sum("skipped"), 0, `${at}: no case left out`);
  }
}

/**
 * Defines one test per shard of `entry`'s catalogue in `engine`: `runShard(path, what)` opens the
 * fixture at `path` (below the server's root URL) in a page of its own and resolves to its report
 * (by `waitForReport`). Returns the shards' reports, as promises, for `totalTest`.
 */
export function shardTests(engine, entry, runShard, { skip } = {}) {
  const n = SHARDS[entry];
  const reports = [];
  for (let k = 1; k <= n; k++) {
    let settle;
    const report = new Promise((resolve, reject) => { settle = { resolve, reject }; });
    report.catch(() => {}); // read by totalTest
    reports.push(report);
    const what = `hostile values, ${engine}, ${entry} entry, shard ${k}/${n}`;
    test(what, { timeout: SHARD_TEST_MS, skip }, async (t) => {
      t.signal.addEventListener("abort", () => settle.reject(new Error(`shard ${k}/${n} was stopped`)));
      let got;
      try {
        got = await runShard(fixture(entry, [k, n]), what);
      } catch (e) {
        settle.reject(e);
        throw e;
      }
      settle.resolve(got);
      checkShard(t, engine, got, entry, [k, n]);
    });
  }
  return reports;
}

/** Defines the test that the shards of `shardTests` together ran `entry`'s whole catalogue in `engine`; define it after them. */
export function totalTest(engine, entry, reports, { skip } = {}) {
  test(`hostile values, ${engine}, ${entry} entry: the ${reports.length} shards together ran the whole catalogue`, { timeout: 60_000, skip }, async (t) => {
    const settled = await Promise.allSettled(reports);
    const missing = settled.map((s, i) => (s.status === "rejected" ? `shard ${i + 1}: ${s.reason && s.reason.message}`
      : s.value.crashed ? `shard ${i + 1}: crashed: ${s.value.crashed}` : null)).filter(Boolean);
    assert.deepEqual(missing, [], `${engine}, ${entry} entry: shards without a report`);
    checkTotal(t, engine, settled.map((s) => s.value), entry);
  });
}
