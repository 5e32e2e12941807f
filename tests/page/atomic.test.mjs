// The read-modify-write verbs (issue 33) are atomic across contexts: two tabs of one origin on one
// database, then a tab and its dedicated worker, each firing a burst of calls on one key at once
// (every call made in one synchronous loop; one BroadcastChannel message gives both the time to
// start; a race whose two bursts did not overlap in time is run again, up to 10 times, each one's
// results meeting the bar):
//   - 300 incr(key) from each: the 600 results are exactly 1..600, and get() gives 600;
//   - 20 add(key) from each: exactly one true, and get() gives that call's value;
//   - 100 update(key) from each, appending one item: 200 items, all distinct, all there, and the
//     200 arrays the calls resolved to have lengths 1..200 (each saw every one before it).
// Against both entries (idb-ttl and idb-ttl/lite: the fixture's ?entry=), in Chromium on LevelDB
// and on its SQLite backend (Playwright), Firefox and WebKit (WebDriver, webdriver.mjs): one
// browser per engine, both tabs in it. Fixture: tests/page/fixtures/atomic.html (atomic-member.mjs,
// atomic-worker.mjs). Run with `node --test tests/page/` after scripts/build.sh.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import {
  CHROMIUM, READY_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, backendOnDisk, chromiumArgsOn,
  startServer, stopServer,
} from "./harness.mjs";
import { available, launch } from "./webdriver.mjs";

const FIXTURE = "tests/page/fixtures/atomic.html";
const ENTRIES = ["default", "lite"];

/** Each burst's calls per member, and its key (with the attempt's number appended). */
const BURSTS = { incr: { n: 300, key: "hits" }, add: { n: 20, key: "claim" }, update: { n: 100, key: "list" } };

/** The two members of each pairing: which tab, and there the page or its worker. */
const PAIRS = {
  "two tabs": [{ tab: 0, target: "page", label: "tabA" }, { tab: 1, target: "page", label: "tabB" }],
  "a tab and a worker": [{ tab: 0, target: "page", label: "page" }, { tab: 0, target: "worker", label: "worker" }],
};

/**
 * How far ahead of the "go" message the bursts start (each member waits for that time in a busy
 * loop): longer than the message takes to reach a tab or a worker (under 6 ms seen). A shorter busy
 * wait is preempted less often on 2 loaded cores: with 50 ms, one member often began only once the
 * other's 20 add() calls had all settled.
 */
const LEAD_MS = 20;

/**
 * Longest wait for a burst's calls to settle: longer than the store's timeoutMs (30 s), after which
 * a transaction that got no answer rejects; shorter than WebDriver's script timeout (60 s).
 */
const OUTCOME_MS = 45_000;

/** Races of one burst until one has the two bursts overlap. */
const MAX_ATTEMPTS = 10;

const range = (n) => Array.from({ length: n }, (_, i) => i + 1);
const ascending = (a) => [...a].sort((x, y) => x - y);

/**
 * The fixture's ready state in the current tab, as JSON (in the page: the same function for
 * Playwright's evaluate and WebDriver's eval).
 */
const readyState = () => {
  const root = document.documentElement;
  return root.dataset.state ? { state: root.dataset.state, error: root.dataset.error ?? null } : null;
};

/** `window.atomic.call(target, op, arg)` in the page. */
const callInPage = (target, op, arg) => window.atomic.call(target, op, arg);

/**
 * Chromium on `backend` on a fresh profile, two tabs: `fn(tabs)` with `tabs.load(entry)` (both
 * tabs on the fixture for `entry`) and `tabs.call(tab, target, op, arg)`. Afterwards checks that
 * `backend` wrote the profile (as backends.test.mjs does) and that no page threw uncaught.
 */
async function withChromiumTabs(backend, fn) {
  const profile = mkdtempSync(join(tmpdir(), `idb-ttl-atomic-${backend}-`));
  const server = startServer(ROOT);
  let context;
  try {
    const url = await server.url;
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: chromiumArgsOn(backend),
      headless: true,
    });
    const pages = [context.pages()[0] ?? (await context.newPage()), await context.newPage()];
    const pageErrors = [];
    pages.forEach((p, i) => p.on("pageerror", (e) => pageErrors.push(`tab ${i}: ${e.message}`)));
    await fn({
      async load(entry) {
        for (const page of pages) {
          await page.goto(url + FIXTURE + (entry === "default" ? "" : `?entry=${entry}`));
          const ready = await (await page.waitForFunction(readyState, null, { timeout: READY_TIMEOUT_MS })).jsonValue();
          assert.equal(ready.state, "ready", `chromium (${backend}): the fixture did not load ${entry}: ${ready.error}`);
        }
      },
      call: (tab, target, op, arg) => pages[tab].evaluate(([t, o, a]) => window.atomic.call(t, o, a), [target, op, arg]),
    });
    assert.deepEqual(pageErrors, [], "uncaught errors in the pages");
    await context.close();
    context = undefined;
    assert.equal(backendOnDisk(profile), backend, `Chromium wrote its ${backend} profile with another backend`);
  } finally {
    if (context) await context.close().catch(() => {});
    await stopServer(server.child);
    rmSync(profile, { recursive: true, force: true });
  }
}

/** `engine` (firefox, webkit) over WebDriver, two tabs (windows) of one session: as withChromiumTabs. */
async function withWebDriverTabs(engine, fn) {
  const server = startServer(ROOT);
  let session;
  try {
    const url = await server.url;
    session = await launch(engine);
    const handles = [await session.window(), await session.newWindow()];
    let current = 0;
    const to = async (tab) => {
      if (tab !== current) await session.switchTo(handles[tab]);
      current = tab;
    };
    await fn({
      async load(entry) {
        for (const tab of [0, 1]) {
          await to(tab);
          await session.goto(url + FIXTURE + (entry === "default" ? "" : `?entry=${entry}`));
          const ready = await session.waitFor(readyState, READY_TIMEOUT_MS, `the fixture to load ${entry}`);
          assert.equal(ready.state, "ready", `${engine}: the fixture did not load ${entry}: ${ready.error}`);
        }
      },
      async call(tab, target, op, arg) {
        await to(tab);
        return session.eval(callInPage, target, op, arg);
      },
    });
  } finally {
    if (session) await session.quit();
    await stopServer(server.child);
  }
}

/**
 * One race: both members of `pair` arm `burst` on `key` of the database they have open, one "go"
 * starts both, and each one's outcome comes back ({ label, at, heard, start, end, values, errors }),
 * with what each member's get(key) reads afterwards.
 */
async function race(tabs, pair, burst, key) {
  const run = `atomic-go-${key}-${Math.random().toString(36).slice(2)}`;
  const { n } = BURSTS[burst];
  for (const m of pair) await tabs.call(m.tab, m.target, "arm", { run, burst, key, n, label: m.label });
  await tabs.call(pair[0].tab, "page", "go", { run, leadMs: LEAD_MS });
  const outcomes = [];
  for (const m of pair) outcomes.push({ ...m, ...(await tabs.call(m.tab, m.target, "outcome", { run, ms: OUTCOME_MS })) });
  const stored = [];
  if (outcomes.some((o) => o.hung)) return { key, outcomes, stored };
  for (const m of pair) stored.push(await tabs.call(m.tab, m.target, "get", key));
  return { key, outcomes, stored };
}

/** Whether the bursts ran at once: each began before the other's last call settled. */
const overlapped = ([a, b]) => a.start < b.end && b.start < a.end;
const spans = (outcomes) => outcomes.map((o) =>
  `${o.label} ${(o.start - o.at).toFixed(1)}..${(o.end - o.at).toFixed(1)} (go heard at ${(o.heard - o.at).toFixed(1)})`).join(", ") + " ms from the start time";

/** How often the sequence of results changes hands between the two members: a sign of interleaving. */
function handovers(outcomes, order) {
  const seq = outcomes.flatMap((o) => o.values.map((v) => [order(v), o.label])).sort((x, y) => x[0] - y[0]);
  return seq.filter((s, i) => i > 0 && s[1] !== seq[i - 1][1]).length;
}

/** What each race of a burst must give (`at` names the engine, entry and pairing). */
const BARS = {
  incr(at, { key, outcomes, stored }, pair) {
    const seen = ascending(outcomes.flatMap((o) => o.values));
    const repeated = [...new Set(seen.filter((v, i) => i > 0 && v === seen[i - 1]))];
    assert.deepEqual(seen, range(600), `${at}: the 600 incr results are not 1..600 ` +
      `(${outcomes.map((o) => `${o.label} ${o.values.length}`).join(", ")}; repeated: ${repeated.slice(0, 20)}; max ${seen.at(-1)})`);
    for (const [i, v] of stored.entries()) assert.equal(v, 600, `${at}: ${pair[i].label}'s get("${key}") after the race`);
    return `${handovers(outcomes, (v) => v)} hand-overs between the two in 1..600`;
  },
  add(at, { key, outcomes, stored }, pair) {
    const wins = outcomes.flatMap((o) => o.values.flatMap((v, i) => (v === true ? [`${o.label}-${i}`] : [])));
    const others = outcomes.flatMap((o) => o.values).filter((v) => v !== true && v !== false);
    assert.deepEqual(others, [], `${at}: add() resolved to something else than a boolean`);
    assert.equal(wins.length, 1, `${at}: ${wins.length} of the 40 add() calls wrote: ${wins.join(", ")}`);
    for (const [i, v] of stored.entries()) assert.equal(v, wins[0], `${at}: ${pair[i].label}'s get("${key}") is the winner's value`);
    return `${wins[0]} wrote`;
  },
  update(at, { key, outcomes, stored }, pair) {
    const expected = pair.flatMap((m) => Array.from({ length: 100 }, (_, i) => `${m.label}-${i}`)).sort();
    for (const [i, list] of stored.entries()) {
      assert.ok(Array.isArray(list), `${at}: ${pair[i].label}'s get("${key}") is ${JSON.stringify(list)}`);
      const distinct = new Set(list);
      assert.equal(list.length, 200, `${at}: ${list.length} items (${distinct.size} distinct) after 200 update() calls, read by ${pair[i].label}`);
      assert.equal(distinct.size, 200, `${at}: ${200 - distinct.size} items repeated`);
      assert.deepEqual([...list].sort(), expected, `${at}: not every update's item is there`);
    }
    // Each call resolved to the array it wrote: one longer than the one before it.
    const lengths = ascending(outcomes.flatMap((o) => o.values.map((v) => (Array.isArray(v) ? v.length : -1))));
    assert.deepEqual(lengths, range(200), `${at}: the arrays update() resolved to do not have lengths 1..200`);
    return `${handovers(outcomes, (v) => v.length)} hand-overs between the two in 200 writes`;
  },
};

/**
 * Races `burst` between the members of `pair` until the bursts overlap (a CPU-starved tab or
 * worker can start late enough that one burst ends before the other begins, which tests nothing),
 * at most MAX_ATTEMPTS times, each on a fresh key; every attempt's results must meet the bar.
 */
async function raceUntilOverlap(t, at, tabs, pair, burst) {
  for (let attempt = 1; ; attempt++) {
    const r = await race(tabs, pair, burst, `${BURSTS[burst].key}-${attempt}`);
    // A member the "go" never reached ran no call: the BroadcastChannel message was lost (seen in
    // WebKit, a second window, beside other page test files), not a call of the store. No race was
    // run, as when the bursts do not overlap: try again on a fresh key.
    const unheard = r.outcomes.filter((o) => o.hung && !o.started);
    if (unheard.length > 0 && unheard.length < r.outcomes.length && r.outcomes.every((o) => !o.hung || !o.started)) {
      t.diagnostic(`${at}, ${burst}: attempt ${attempt}: the go never reached ${unheard.map((o) => o.label).join(", ")}; no race was run`);
      assert.ok(attempt < MAX_ATTEMPTS, `${at}: in ${MAX_ATTEMPTS} attempts the go message never reached both members: no race was run`);
      continue;
    }
    for (const o of r.outcomes) {
      assert.ok(!o.hung, `${at}: ${o.label}'s ${burst} burst (attempt ${attempt}): ` + (o.started
        ? `${o.pending.length} of its ${BURSTS[burst].n} calls still pending after ${OUTCOME_MS} ms (calls ${o.pending.slice(0, 20).join(", ")}${o.pending.length > 20 ? ", ..." : ""})`
        : `never started in ${OUTCOME_MS} ms (the go message never arrived)`) +
        `; the other's: ${JSON.stringify(r.outcomes.find((x) => x !== o), (k, v) => (k === "values" ? `${v.length} values` : v))}`);
    }
    for (const o of r.outcomes) assert.deepEqual(o.errors, [], `${at}: ${o.label}'s ${burst} calls rejected`);
    const note = BARS[burst](at, r, pair);
    if (overlapped(r.outcomes)) {
      t.diagnostic(`${at}, ${burst}: ${note}${attempt > 1 ? ` (attempt ${attempt}: the ones before did not overlap)` : ""}`);
      return;
    }
    t.diagnostic(`${at}, ${burst}: attempt ${attempt}'s bursts did not overlap (${spans(r.outcomes)})`);
    assert.ok(attempt < MAX_ATTEMPTS, `${at}: in ${MAX_ATTEMPTS} attempts the two ${burst} bursts never overlapped: no race was run`);
  }
}

/** The three bars for `entry`, pairing `pairName`, as subtests of `t`. */
async function bars(t, engine, tabs, entry, pairName) {
  const pair = PAIRS[pairName];
  const at = `${engine}, ${entry} entry, ${pairName}`;
  if (pair.some((m) => m.target === "worker")) await tabs.call(0, "page", "startWorker");
  for (const m of pair) await tabs.call(m.tab, m.target, "open", `atomic-${entry}-${pairName.replace(/\W+/g, "-")}`);
  await t.test(`${entry} entry, ${pairName}: 300 incr each at once give 1..600, stored 600`, (t) => raceUntilOverlap(t, at, tabs, pair, "incr"));
  await t.test(`${entry} entry, ${pairName}: 20 add each at once, exactly one true`, (t) => raceUntilOverlap(t, at, tabs, pair, "add"));
  await t.test(`${entry} entry, ${pairName}: 100 update each at once, 200 distinct items`, (t) => raceUntilOverlap(t, at, tabs, pair, "update"));
}

/** Every bar for both entries and both pairings in one browser (`withTabs`). */
async function allBars(t, engine, withTabs) {
  await withTabs(async (tabs) => {
    for (const entry of ENTRIES) {
      await tabs.load(entry);
      for (const pairName of Object.keys(PAIRS)) await bars(t, engine, tabs, entry, pairName);
    }
  });
}

const TIMEOUT = TEST_TIMEOUT_MS * 3;

for (const backend of ["leveldb", "sqlite"]) {
  test(`chromium (${backend}): incr, add and update from two tabs, and from a tab and a worker, at once`, { timeout: TIMEOUT }, async (t) => {
    await allBars(t, `chromium (${backend})`, (fn) => withChromiumTabs(backend, fn));
  });
}

for (const engine of ["firefox", "webkit"]) {
  const skip = !available(engine) && `${engine} is not installed (scripts/setup.sh installs it)`;
  test(`${engine}: incr, add and update from two tabs, and from a tab and a worker, at once`, { timeout: TIMEOUT, skip }, async (t) => {
    await allBars(t, engine, (fn) => withWebDriverTabs(engine, fn));
  });
}
