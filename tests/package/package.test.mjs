// The npm package where users put it, tested against the packed tarball (`npm pack pkg/`), not the
// source tree: a Vite app (examples/vite/, what `npm create vite` gives plus `npm i idb-ttl`, no
// plugin, no config) in the dev server and in a production build, with a module worker; the same
// app's modules imported by Node for server-side rendering; a plain <script type="module"> page
// (examples/plain/) in Chromium, Firefox and WebKit; webpack and esbuild bundles of that page.
// Each with both entries: "idb-ttl" and "idb-ttl/lite" (the same apps with the import changed),
// plus a probe of the lite entry (a ttl that expires; what it writes, the default entry reads);
// every bundler (esbuild, Vite, webpack) must bundle them without a warning. Run by
// scripts/test.sh after scripts/build.sh.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { EVENT_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, poll, startServer, stopServer, withChromium } from "../page/harness.mjs";
import { available, freePort, launch } from "../page/webdriver.mjs";

/** The Vite majors the example is checked with (the package needs no plugin in either). */
const VITES = { "vite 8": "8.3.8", "vite 7": "7.3.8" };
/** Other bundlers, each used with its defaults: no loader, no plugin, no wasm option (the versions of the workspace's package.json). */
const DEV = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies;
const BUNDLERS = { webpack: DEV.webpack, "webpack-cli": DEV["webpack-cli"], esbuild: DEV.esbuild };
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const work = mkdtempSync(join(tmpdir(), "idb-ttl-package-"));
let tarball;
let unpacked;
const appDir = (label) => join(work, label.replaceAll(" ", "-"));
/** Each app is checked with each entry: the label suffix and the import. */
const ENTRIES = { "": "idb-ttl", " lite": "idb-ttl/lite" };
/** Whether the crate's code is gated on its `full` feature yet: until then the lite build is the default one. */
const GATED = readdirSync(join(ROOT, "src"), { recursive: true })
  .some((f) => f.endsWith(".rs") && readFileSync(join(ROOT, "src", f), "utf8").includes('feature = "full"'));
const UNGATED = !GATED && "no code of the crate is gated on its `full` feature yet: the lite build is the default build";

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
}

/** Runs a bundler; its whole output (stdout and stderr), which must hold no warning. */
function bundle(cmd, args, cwd, what) {
  const out = bundlerOutput(cmd, args, cwd, what);
  assertNoWarning(out, what);
  return out;
}

function bundlerOutput(cmd, args, cwd, what) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
  const out = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, `${what} failed: ${out}`);
  return out;
}

/** webpack's default `performance.maxAssetSize` and `maxEntrypointSize`, in bytes. */
const WEBPACK_SIZE_HINT = 250_000;

/**
 * Runs webpack writing to `dist`: no warning but its size hints, and those only while an asset
 * it wrote is over their limit (the default entry's bundle is: its wasm is inlined).
 */
function webpackBundle(cmd, args, cwd, dist, what) {
  const out = bundlerOutput(cmd, args, cwd, what);
  const hints = out.match(/^WARNING in (asset size limit|entrypoint size limit|webpack performance recommendations):/gm) ?? [];
  const warned = Number(/compiled with (\d+) warnings?/.exec(out)?.[1] ?? 0);
  const largest = Math.max(...readdirSync(join(cwd, dist)).map((f) => statSync(join(cwd, dist, f)).size));
  if (largest <= WEBPACK_SIZE_HINT || hints.length !== warned) {
    assertNoWarning(out, `${what}, its largest asset ${largest} B`);
  }
  return { out, largest };
}

function assertNoWarning(out, what) {
  const warnings = out.split("\n").filter((l) => /warn|\(!\)/i.test(l));
  assert.deepEqual(warnings, [], `${what} warned:\n${out}`);
}

/** Replaces `from` by `to` in `text`, which must hold it. */
function swap(text, from, to, where) {
  assert.ok(text.includes(from), `${where} no longer has ${from}`);
  return text.replaceAll(from, to);
}

/**
 * The lite entry's probe, a module of its own: `probe(name)` writes with the lite entry (one entry
 * with a ttl of 10 minutes, one of 0.5 s read before and after it expires), reads it back with the
 * default entry on the same database and writes back; reports what it saw.
 */
const PROBE = `import { TtlStore as Lite } from "idb-ttl/lite";

export async function probe(name) {
  // Loaded when needed, so that a bundler may put each entry in a chunk of its own.
  const { TtlStore: Full } = await import("idb-ttl");
  const lite = await Lite.open(name);
  await lite.set("kept", { from: "lite" }, { ttl: 600 });
  await lite.set("short", 1, { ttl: 0.5 });
  const fresh = await lite.get("short");
  await new Promise((resolve) => setTimeout(resolve, 800));
  const report = { fresh, expired: (await lite.get("short")) === undefined && !(await lite.has("short")) };
  const full = await Full.open(name);
  Object.assign(report, { read: await full.get("kept"), ttl: await full.ttl("kept"), readExpired: await full.get("short") });
  await full.set("back", "from the default entry", { expiresAt: new Date(Date.now() + 60_000) });
  Object.assign(report, {
    back: await lite.get("back"),
    liteCollection: typeof lite.collection,
    fullCollection: typeof full.collection,
  });
  lite.close();
  full.close();
  return report;
}
`;

/** A page script that runs the probe (from PROBE_MODULE) and shows its report in #out. */
const PROBE_PAGE = `import { probe } from "PROBE_MODULE";
const out = document.getElementById("out");
try {
  const report = await probe("probe-page");
  out.textContent = JSON.stringify(report);
  Object.assign(out.dataset, { state: "ready", report: JSON.stringify(report) });
} catch (e) {
  out.textContent = \`\${e.name}: \${e.message}\`;
  out.dataset.state = "error";
}
`;

/** What the probe must have seen. */
function checkProbe(report, where) {
  assert.equal(report.fresh, 1, `${where}: the lite entry reads an entry before its ttl`);
  assert.equal(report.expired, true, `${where}: the lite entry does not read an entry past its ttl`);
  assert.deepEqual(report.read, { from: "lite" }, `${where}: the default entry reads what the lite entry wrote`);
  assert.ok(report.ttl > 590 && report.ttl <= 600, `${where}: with its ttl (${report.ttl})`);
  assert.equal(report.readExpired, undefined, `${where}: the default entry does not read the expired entry either`);
  assert.equal(report.back, "from the default entry", `${where}: the lite entry reads what the default entry wrote`);
  assert.equal(report.fullCollection, "function", where);
  if (GATED) assert.equal(report.liteCollection, "undefined", `${where}: a lite store has no collection()`);
}

before(async () => {
  assert.ok(existsSync(join(ROOT, "pkg/package.json")), "pkg/ is not built: run scripts/build.sh");
  const name = run(NPM, ["pack", join(ROOT, "pkg"), "--pack-destination", work, "--silent"], work).trim().split("\n").pop();
  tarball = join(work, name);
  mkdirSync(join(work, "unpacked"));
  run("tar", ["-xzf", tarball, "-C", join(work, "unpacked")], work);
  unpacked = join(work, "unpacked/package");
  // One copy of the example app per Vite major and entry, depending on the tarball. The lite
  // copy imports "idb-ttl/lite" wherever the example imports "idb-ttl", and its page runs the
  // probe too.
  for (const [major, version] of Object.entries(VITES)) {
    for (const [suffix, entry] of Object.entries(ENTRIES)) {
      const app = appDir(`${major}${suffix}`);
      cpSync(join(ROOT, "examples/vite"), app, { recursive: true, filter: (p) => !/node_modules|dist/.test(p) });
      const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
      pkg.dependencies["idb-ttl"] = `file:${tarball}`;
      pkg.devDependencies.vite = version;
      writeFileSync(join(app, "package.json"), JSON.stringify(pkg, null, 2));
      if (entry !== "idb-ttl") {
        for (const f of ["src/main.js", "src/readme.js", "src/worker.js", "ssr.js"]) {
          writeFileSync(join(app, f), swap(readFileSync(join(app, f), "utf8"), 'from "idb-ttl";', `from "${entry}";`, f));
        }
        writeFileSync(join(app, "src/probe.js"), PROBE);
        let main = readFileSync(join(app, "src/main.js"), "utf8");
        main = swap(main, 'import "./readme.js";\n', 'import "./readme.js";\nimport { probe } from "./probe.js";\nconst probed = await probe("probe");\n', "src/main.js");
        main = swap(main, "    fromWorker: JSON.stringify(fromWorker),\n", "    fromWorker: JSON.stringify(fromWorker),\n    probe: JSON.stringify(probed),\n", "src/main.js");
        writeFileSync(join(app, "src/main.js"), main);
      }
      run(NPM, ["install", "--no-audit", "--no-fund", "--loglevel=error"], app);
    }
  }
  // A page bundled by webpack and by esbuild from one entry module.
  const b = join(work, "bundlers");
  mkdirSync(join(b, "src"), { recursive: true });
  writeFileSync(join(b, "package.json"), JSON.stringify({
    name: "bundlers", private: true, type: "module",
    dependencies: { "idb-ttl": `file:${tarball}` },
    devDependencies: BUNDLERS,
  }));
  cpSync(join(ROOT, "examples/plain/index.html"), join(b, "index.html"));
  const page = readFileSync(join(ROOT, "examples/plain/index.html"), "utf8").match(/<script type="module">([\s\S]*)<\/script>/)[1];
  writeFileSync(join(b, "src/entry.js"), swap(page, '"./idb-ttl/index.js"', '"idb-ttl"', "examples/plain/index.html"));
  writeFileSync(join(b, "src/lite.js"), swap(page, '"./idb-ttl/index.js"', '"idb-ttl/lite"', "examples/plain/index.html"));
  writeFileSync(join(b, "src/probe.js"), PROBE);
  writeFileSync(join(b, "src/probe-page.js"), PROBE_PAGE.replace("PROBE_MODULE", "./probe.js"));
  run(NPM, ["install", "--no-audit", "--no-fund", "--loglevel=error"], b);
});

after(() => rmSync(work, { recursive: true, force: true }));

/** The packed package ships what the entry needs and nothing of the build's leftovers. */
test("the tarball: entry, typings, licences, metadata; no loose .wasm to locate", () => {
  const files = readdirSync(unpacked).sort();
  for (const f of ["index.js", "index.d.ts", "idb_ttl.js", "idb_ttl_wasm.js", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "package.json", "snippets", "lite", "react", "vue", "svelte"]) {
    assert.ok(files.includes(f), `the tarball lacks ${f}: ${files}`);
  }
  const lite = readdirSync(join(unpacked, "lite")).sort();
  assert.deepEqual(lite, ["idb_ttl.js", "idb_ttl_wasm.js", "index.d.ts", "index.js", "snippets"], "the lite entry's files");
  const all = readdirSync(unpacked, { recursive: true });
  assert.ok(!all.some((f) => f.endsWith(".wasm")), `a .wasm file is shipped: ${all}`);
  const pkg = JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8"));
  for (const field of ["repository", "homepage", "bugs", "exports", "types", "license"]) assert.ok(pkg[field], `package.json has no ${field}`);
  assert.equal(pkg.exports["."].default, "./index.js");
  assert.equal(pkg.exports["."].types, "./index.d.ts");
  assert.deepEqual(pkg.exports["./lite"], { types: "./lite/index.d.ts", default: "./lite/index.js" });
  // The React hooks (tests/package/react.test.mjs runs them): their own files, React an optional peer.
  assert.deepEqual(pkg.exports["./react"], { types: "./react/index.d.ts", default: "./react/index.js" });
  assert.deepEqual(pkg.exports["./lite/react"], { types: "./react/lite.d.ts", default: "./react/lite.js" });
  assert.deepEqual(readdirSync(join(unpacked, "react")).sort(), ["hooks.d.ts", "hooks.js", "index.d.ts", "index.js", "lite.d.ts", "lite.js"]);
  // The Vue composable and the Svelte store (tests/package/vue.test.mjs and svelte.test.mjs run
  // them): their own files; Vue an optional peer, Svelte none (the store imports nothing of it).
  assert.deepEqual(pkg.exports["./vue"], { types: "./vue/index.d.ts", default: "./vue/index.js" });
  assert.deepEqual(pkg.exports["./lite/vue"], { types: "./vue/lite.d.ts", default: "./vue/lite.js" });
  assert.deepEqual(readdirSync(join(unpacked, "vue")).sort(), ["composable.d.ts", "composable.js", "index.d.ts", "index.js", "lite.d.ts", "lite.js"]);
  assert.deepEqual(pkg.exports["./svelte"], { types: "./svelte/index.d.ts", default: "./svelte/index.js" });
  assert.deepEqual(pkg.exports["./lite/svelte"], { types: "./svelte/lite.d.ts", default: "./svelte/lite.js" });
  assert.deepEqual(readdirSync(join(unpacked, "svelte")).sort(), ["index.d.ts", "index.js", "lite.d.ts", "lite.js", "store.d.ts", "store.js"]);
  assert.deepEqual(pkg.peerDependencies, { react: "^18.0.0 || ^19.0.0", vue: "^3.3.0" });
  assert.deepEqual(pkg.peerDependenciesMeta, { react: { optional: true }, vue: { optional: true } });
  assert.ok(pkg.sideEffects.includes("./lite/index.js"), "the lite entry wires its glue when imported");
  // Its typings declare none of what it lacks; the default's declare it all.
  const liteTypes = readFileSync(join(unpacked, "lite/index.d.ts"), "utf8");
  const fullTypes = readFileSync(join(unpacked, "index.d.ts"), "utf8");
  for (const decl of [/^export class Collection\b/m, /^export class TimeSeries\b/m, /^export class Archive\b/m, /^export function ttlFromHeaders\b/m,
    /^  collection\(/m, /^  timeSeries\(/m, /^  shred\(/m, /^  readonly archive:/m, /^  encryption\?:/m, /^  onExpire\?:/m, /^  archiveFor\?:/m]) {
    assert.doesNotMatch(liteTypes, decl, "lite/index.d.ts");
    assert.match(fullTypes, decl, "index.d.ts");
  }
  assert.doesNotMatch(`${liteTypes}${fullTypes}`, /\/\/#/, "the template's markers are left out");  assert.match(readFileSync(join(unpacked, "LICENSE-APACHE"), "utf8"), /Apache License\s+Version 2\.0/);
  assert.match(readFileSync(join(unpacked, "LICENSE-MIT"), "utf8"), /^MIT License/);
});

// esbuild keeps its lint warnings (a duplicate key) quiet for code under node_modules, so each entry
// is also bundled where it lies, as scripts/size.mjs measures it.
for (const entry of ["index.js", "lite/index.js"]) {
  test(`esbuild --bundle --minify of the unpacked ${entry}, outside node_modules: no warning`, () => {
    const out = bundle(join(ROOT, "node_modules/.bin/esbuild"), [join(unpacked, entry), "--bundle", "--minify", "--format=esm", `--outfile=${join(work, "esbuild-unpacked", entry)}`], work, `esbuild ${entry}`);
    assert.match(out, /\.js\s+\d/, `esbuild wrote the bundle: ${out}`);
  });
}

test("the example app runs the package README's first example as it stands there", () => {
  const readme = readFileSync(join(unpacked, "README.md"), "utf8");
  const first = /```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(first, "the package README has no js example");
  assert.equal(readFileSync(join(ROOT, "examples/vite/src/readme.js"), "utf8"), first[1]);
});

test("every example of the package README runs, in order, against the package", { timeout: TEST_TIMEOUT_MS }, async () => {
  const readme = readFileSync(join(unpacked, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 2, "the README has its examples");
  const dir = join(work, "readme-page");
  mkdirSync(dir, { recursive: true });
  cpSync(unpacked, join(dir, "idb-ttl"), { recursive: true });
  // One module: the examples as they stand, then a report of what they left in the store.
  const script = blocks.join("\n").replaceAll('from "idb-ttl"', 'from "./idb-ttl/index.js"') + `
    const report = { entries: await store.keys(),
      counting: { attempts, showBanner, otp, otpLeft: await store.has("otp"), recent, later,
        attemptsTtl: await store.ttl("login:ada"), bannerTtl: await store.ttl("banner:seen") } };
    document.body.dataset.report = JSON.stringify(report);`;
  writeFileSync(join(dir, "index.html"), `<!doctype html><link rel="icon" href="data:,"><body><script type="module">
    window.onerror = (m) => { document.body.dataset.error = String(m); };
    window.onunhandledrejection = (e) => { document.body.dataset.error = String(e.reason && e.reason.message); };
  </script><script type="module">${script}</script></body>`);
  const server = startServer(dir);
  try {
    const url = await server.url;
    await withChromium(join(ROOT, "www"), async ({ context }) => {
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset.report || document.body.dataset.error, null, { timeout: EVENT_TIMEOUT_MS });
      const { report, error } = await page.evaluate(() => ({ ...document.body.dataset }));
      assert.equal(error, undefined, `an example failed: ${error}`);
      const r = JSON.parse(report);
      assert.deepEqual(r.entries, ["banner", "banner:seen", "draft", "login:ada", "recent", "session", "token"]);
      // Counting and claiming: a first incr is 1 with its ttl, a first add writes, take empties.
      const c = r.counting;
      assert.equal(c.attempts, 1);
      assert.ok(c.attemptsTtl > 50 && c.attemptsTtl <= 60, `incr's new key has its ttl (${c.attemptsTtl})`);
      assert.equal(c.showBanner, true);
      assert.ok(c.bannerTtl > 86_000 && c.bannerTtl <= 86_400, `add's entry has its ttl (${c.bannerTtl})`);
      assert.equal(c.otp, "483920");
      assert.equal(c.otpLeft, false, "take deleted what it gave");
      assert.deepEqual(c.recent, ["/home"]);
      assert.equal(c.later, true, "an expiry of 7200 s is later than 3600 s");
    });
  } finally {
    await stopServer(server.child);
  }
});

/**
 * The three examples of the counting-and-claiming guide (docs/counting-and-claiming.md), as they
 * stand there: the rate limiter (`incr`), the self-freeing lock (`add`, released by `update`) and
 * the once-a-day banner (`add`).
 */
function countingExamples() {
  const guide = readFileSync(join(ROOT, "docs/counting-and-claiming.md"), "utf8");
  const blocks = [...guide.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const one = (marker) => {
    const found = blocks.filter((b) => b.includes(marker));
    assert.equal(found.length, 1, `docs/counting-and-claiming.md: one example with ${marker}`);
    return found[0];
  };
  return { rate: one("limits.incr("), lock: one("locks.add("), banner: one("seen.add(") };
}

/**
 * A directory holding the unpacked package and, for each entry, a page per guide example:
 * `<name>.html` (default entry) and `<name>-lite.html`. Each page runs its example as one module
 * with the import pointed at the package, then hands `expose` (names of the example's top-level
 * bindings) to the test on `window` and sets `data-ready` (or `data-error`).
 */
function countingPages() {
  const dir = join(work, "counting-pages");
  if (existsSync(dir)) return dir;
  mkdirSync(dir, { recursive: true });
  cpSync(unpacked, join(dir, "idb-ttl"), { recursive: true });
  const { rate, lock, banner } = countingExamples();
  // The takeover test waits for the lock to expire: the same example with a 2 s lock.
  const lock2s = swap(lock, "const LOCK_SECS = 30;", "const LOCK_SECS = 2;", "the guide's lock example");
  const pages = {
    rate: [rate, ["limits", "mayTryPassword", "answers"], ""],
    lock: [lock, ["locks", "me", "refreshTokenOnce"], ""],
    "lock-2s": [lock2s, ["locks", "me", "refreshTokenOnce"], ""],
    banner: [banner, ["seen"], '<div id="banner" hidden>Spring sale</div>'],
  };
  for (const [name, [example, expose, body]] of Object.entries(pages)) {
    for (const [suffix, path] of [["", "./idb-ttl/index.js"], ["-lite", "./idb-ttl/lite/index.js"]]) {
      const script = swap(example, 'from "idb-ttl";', `from "${path}";`, `the guide's ${name} example`) +
        `\nObject.assign(window, { ${expose.join(", ")} });\ndocument.body.dataset.ready = "1";\n`;
      writeFileSync(join(dir, `${name}${suffix}.html`), `<!doctype html><link rel="icon" href="data:,"><body>${body}<script type="module">
    window.onerror = (m) => { document.body.dataset.error = String(m); };
    window.onunhandledrejection = (e) => { document.body.dataset.error = String(e.reason && e.reason.message); };
  </script><script type="module">${script}</script></body>`);
    }
  }
  return dir;
}

/** Opens `page` (a guide example's page) in a new tab of `context`; the tab, once its example ran, and what it logged. */
async function openExample(context, url, page) {
  const tab = await context.newPage();
  const logged = [];
  tab.on("console", (m) => logged.push(m.text()));
  await tab.goto(`${url}${page}`);
  await tab.waitForFunction(() => document.body.dataset.ready || document.body.dataset.error, null, { timeout: EVENT_TIMEOUT_MS });
  const error = await tab.evaluate(() => document.body.dataset.error);
  assert.equal(error, undefined, `${page}: the example failed: ${error}`);
  return { tab, logged };
}

for (const [suffix, entry] of Object.entries({ "": "idb-ttl", "-lite": "idb-ttl/lite" })) {
  test(`counting-and-claiming guide (${entry}): the rate limiter refuses the 6th attempt in a minute, also from two tabs at once`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await withChromium(countingPages(), async ({ context, url }) => {
      const a = await openExample(context, url, `rate${suffix}.html`);
      assert.deepEqual(await a.tab.evaluate(() => answers), [true, true, true, true, true, false], "the example's six attempts");
      const left = await a.tab.evaluate(() => limits.ttl("login:ada"));
      assert.ok(left > 50 && left <= 60, `the window ends a minute after the first attempt (${left} s left)`);
      // A second tab counts on: its six attempts for "ada" are all refused within the minute.
      const b = await openExample(context, url, `rate${suffix}.html`);
      assert.deepEqual(await b.tab.evaluate(() => answers), [false, false, false, false, false, false], "another tab's attempts in the same minute");
      assert.equal(await a.tab.evaluate(() => limits.get("login:ada")), 12);
      // Two tabs trying at once, 4 attempts each: exactly 5 of the 8 pass.
      const burst = () => Promise.all(Array.from({ length: 4 }, () => mayTryPassword("bob")));
      const both = (await Promise.all([a.tab.evaluate(burst), b.tab.evaluate(burst)])).flat();
      assert.equal(both.filter(Boolean).length, 5, `of 8 attempts at once from two tabs, 5 pass: ${both}`);
      assert.equal(await b.tab.evaluate(() => limits.get("login:bob")), 8);
    });
  });

  test(`counting-and-claiming guide (${entry}): one tab holds the token lock, the other is refused, and takes it over once the holder's tab is gone`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await withChromium(countingPages(), async ({ context, url }) => {
      // Each tab's own run of the example: it takes the lock, refreshes, releases it.
      const a = await openExample(context, url, `lock${suffix}.html`);
      const b = await openExample(context, url, `lock${suffix}.html`);
      assert.deepEqual([a.logged, b.logged], [["true"], ["true"]], "each tab's run of the example, one after the other");
      assert.equal(await a.tab.evaluate(() => locks.has("lock:token")), false, "released after the refresh");
      // A holds the lock through a refresh that has not finished; B is refused and its refresh never runs.
      await a.tab.evaluate(() => {
        window.finish = null;
        window.held = refreshTokenOnce(() => new Promise((resolve) => { window.finish = resolve; }));
      });
      await a.tab.waitForFunction(() => window.finish !== null);
      const [aId, holder, ttl] = await a.tab.evaluate(async () => [me, await locks.get("lock:token"), await locks.ttl("lock:token")]);
      assert.equal(holder, aId, "the lock holds the tab's id");
      assert.ok(ttl > 25 && ttl <= 30, `the lock frees itself in 30 s (${ttl} s left)`);
      assert.deepEqual(await b.tab.evaluate(async () => {
        let ran = false;
        return [await refreshTokenOnce(async () => { ran = true; }), ran];
      }), [false, false], "the other tab is refused and does not refresh");
      assert.equal(await b.tab.evaluate(() => locks.get("lock:token")), aId, "a refused tab leaves the lock as it was");
      await a.tab.evaluate(() => { window.finish(); return window.held; }).then((r) => assert.equal(r, true));
      assert.equal(await b.tab.evaluate(() => locks.has("lock:token")), false, "the holder released it");
      // Both at once, each refreshing for 300 ms: exactly one refreshes.
      const attempt = () => refreshTokenOnce(() => new Promise((resolve) => setTimeout(resolve, 300)));
      const both = await Promise.all([a.tab.evaluate(attempt), b.tab.evaluate(attempt)]);
      assert.deepEqual(both.filter(Boolean).length, 1, `one of two tabs at once gets the lock: ${both}`);
    });
  });

  test(`counting-and-claiming guide (${entry}): a lock whose holder's tab closed is taken over when it expires (LOCK_SECS 2)`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await withChromium(countingPages(), async ({ context, url }) => {
      const c = await openExample(context, url, `lock-2s${suffix}.html`);
      const d = await openExample(context, url, `lock-2s${suffix}.html`);
      await c.tab.evaluate(() => {
        window.claimed = false;
        refreshTokenOnce(() => { window.claimed = true; return new Promise(() => {}); });   // never finishes
      });
      await c.tab.waitForFunction(() => window.claimed);
      const cId = await c.tab.evaluate(() => me);
      await c.tab.close();   // the holder dies without releasing
      const closedAt = Date.now();
      assert.equal(await d.tab.evaluate(() => locks.get("lock:token")), cId, "the dead tab's lock is still there");
      assert.equal(await d.tab.evaluate(() => refreshTokenOnce(async () => {})), false, "and still refuses");
      const took = await d.tab.evaluate(async () => {
        for (;;) {
          if (await refreshTokenOnce(async () => {})) return true;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      });
      const after = Date.now() - closedAt;
      assert.equal(took, true);
      assert.ok(after > 500 && after < 6_000, `taken over when the 2 s lock expired, ${after} ms after its holder closed`);
    });
  });

  test(`counting-and-claiming guide (${entry}): of three tabs opening at once, one shows the banner, and none after a reload`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await withChromium(countingPages(), async ({ context, url }) => {
      const tabs = (await Promise.all([0, 1, 2].map(() => openExample(context, url, `banner${suffix}.html`)))).map((t) => t.tab);
      const shown = () => Promise.all(tabs.map((t) => t.evaluate(() => !document.getElementById("banner").hidden)));
      assert.equal((await shown()).filter(Boolean).length, 1, "one of three tabs shows it");
      const left = await tabs[0].evaluate(() => seen.ttl("banner:spring-sale"));
      assert.ok(left > 86_300 && left <= 86_400, `for a day (${left} s left)`);
      for (const t of tabs) {
        await t.reload();
        await t.waitForFunction(() => document.body.dataset.ready || document.body.dataset.error, null, { timeout: EVENT_TIMEOUT_MS });
      }
      assert.deepEqual(await shown(), [false, false, false], "shown once a day: not again after a reload");
    });
  });
}

/**
 * Opens `url` in Chromium and checks the example app: the README example wrote its four entries,
 * the page read the session back, and the module worker read it too and wrote its own entry.
 */
async function checkApp(url, where) {
  await withChromium(join(ROOT, "www"), async ({ context }) => {
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => { if (m.type() === "error") problems.push(`console error: ${m.text()}`); });
    await page.goto(url);
    await page.waitForSelector('#app:not([data-state="loading"])', { timeout: EVENT_TIMEOUT_MS });
    const app = await page.$eval("#app", (el) => ({ ...el.dataset, text: el.textContent }));
    assert.equal(app.state, "ready", `${where}: ${app.text}`);
    assert.deepEqual(JSON.parse(app.session), { user: 7 }, where);
    const worker = JSON.parse(app.worker);
    assert.deepEqual(worker.session, { user: 7 }, `${where}: the worker reads what the page wrote`);
    assert.ok(worker.ttl > 590 && worker.ttl <= 600, `${where}: the worker's entry has its ttl (${worker.ttl})`);
    assert.ok(JSON.parse(app.fromWorker).at > 0, `${where}: the page reads what the worker wrote`);
    // Read back with plain IndexedDB: every entry of the README example is stored.
    const keys = await page.evaluate(() => new Promise((resolve, reject) => {
      const open = indexedDB.open("app-cache");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const req = open.result.transaction("entries").objectStore("entries").getAll();
        req.onsuccess = () => { open.result.close(); resolve(req.result.map((r) => r.k).sort()); };
      };
    }));
    assert.deepEqual(keys, ["banner", "draft", "from-worker", "session", "token"], where);
    if (app.probe !== undefined) checkProbe(JSON.parse(app.probe), where);
    assert.deepEqual(problems, [], where);
  });
}

/** Starts `vite <args>` in `app` on a free port; resolves `{ child, url, output }` once it listens (`output()`: what it printed so far). */
async function startVite(app, args) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(app, "node_modules/vite/bin/vite.js"), ...args, "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: app,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => { out += d; });
  child.stderr.on("data", (d) => { out += d; });
  const url = `http://127.0.0.1:${port}/`;
  await poll(async () => {
    if (child.exitCode !== null) throw new Error(`vite ${args.join(" ")} exited: ${out}`);
    return fetch(url).then((r) => r.ok, () => false);
  }, Boolean, EVENT_TIMEOUT_MS, `vite ${args.join(" ")} listening on ${url}`);
  return { child, url, output: () => out };
}

const viteLabels = Object.keys(VITES).flatMap((major) => Object.keys(ENTRIES).map((suffix) => `${major}${suffix}`));
const entryOf = (label) => (label.endsWith(" lite") ? "idb-ttl/lite" : "idb-ttl");

for (const label of viteLabels) {
  test(`${label} dev server, no plugin and no config: README example and module worker from ${entryOf(label)}, no warning`, { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    const app = appDir(label);
    assert.ok(!existsSync(join(app, "vite.config.js")) && !existsSync(join(app, "vite.config.ts")), "the example has no Vite config");
    const { child, url, output } = await startVite(app, []);
    try {
      await checkApp(url, `${label} dev`);
    } finally {
      await stopServer(child);
    }
    assertNoWarning(output(), `${label} dev server`);
  });

  test(`${label} production build and preview: README example and the bundled worker from ${entryOf(label)}, no warning`, { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    const app = appDir(label);
    bundle(process.execPath, [join(app, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], app, `${label} build`);
    const assets = readdirSync(join(app, "dist/assets"));
    assert.ok(assets.some((f) => /^worker-.*\.js$/.test(f)), `the build emitted the worker: ${assets}`);
    const { child, url } = await startVite(app, ["preview"]);
    try {
      await checkApp(url, `${label} build`);
    } finally {
      await stopServer(child);
    }
  });
}

/** The bundle `script` (built from src/entry.js) in the plain page, served; `fn(url)` runs while it is. */
async function withBundle(script, fn) {
  const b = join(work, "bundlers");
  const html = readFileSync(join(b, "index.html"), "utf8").replace(/<script type="module">[\s\S]*<\/script>/, `<script type="module" src="./${script}"></script>`);
  writeFileSync(join(b, "page.html"), html);
  const server = startServer(b);
  try {
    await fn(`${await server.url}page.html`);
  } finally {
    await stopServer(server.child);
  }
}

/** Each bundler's command line for `src/<entry>.js` (no config file): [command, args, the bundle it writes]. */
const BUILDS = {
  webpack: (entry) => [process.execPath, ["node_modules/webpack/bin/webpack.js", "--entry", `./src/${entry}.js`, "--output-path", `dist-webpack-${entry}`, "--mode", "production"], `dist-webpack-${entry}/main.js`],
  esbuild: (entry) => ["node_modules/.bin/esbuild", [`src/${entry}.js`, "--bundle", "--format=esm", `--outfile=dist-esbuild-${entry}/main.js`], `dist-esbuild-${entry}/main.js`],
};

/** Bundles `entry` with bundler `name`; the bundle's path. */
function build(name, entry, what) {
  const b = join(work, "bundlers");
  const [cmd, args, out] = BUILDS[name](entry);
  if (name === "webpack") {
    const { largest } = webpackBundle(cmd, args, b, dirname(out), what);
    if (largest > WEBPACK_SIZE_HINT) console.log(`# ${what}: webpack's size hints shown, its largest asset is ${largest} B (limit ${WEBPACK_SIZE_HINT})`);
  } else {
    bundle(cmd, args, b, what);
  }
  return out;
}

for (const name of Object.keys(BUILDS)) for (const [entry, from] of [["entry", "idb-ttl"], ["lite", "idb-ttl/lite"]]) {
  test(`${name}, with its defaults, ${from}: no warning, and the bundle works in a page and persists across a reload`, { timeout: TEST_TIMEOUT_MS }, async () => {
    const out = build(name, entry, `${name} (${from})`);
    await withBundle(out, async (url) => {
      await withChromium(join(ROOT, "www"), async ({ context }) => {
        const page = await context.newPage();
        const errors = [];
        page.on("pageerror", (e) => errors.push(e.message));
        for (const visits of ["1", "2"]) {
          await page.goto(url);
          await page.waitForSelector('#out:not([data-state="loading"])', { timeout: EVENT_TIMEOUT_MS });
          const o = await page.$eval("#out", (el) => ({ ...el.dataset, text: el.textContent }));
          assert.equal(o.state, "ready", o.text);
          assert.equal(o.visits, visits, o.text);
        }
        assert.deepEqual(errors, []);
      });
    });
  });
}

for (const name of Object.keys(BUILDS)) {
  test(`${name}: both entries in one bundle, no warning; the lite entry's ttl expires and the default entry reads what it wrote`, { timeout: TEST_TIMEOUT_MS }, async () => {
    const out = build(name, "probe-page", `${name} (probe)`);
    await withBundle(out, async (url) => {
      await withChromium(join(ROOT, "www"), async ({ context }) => {
        const page = await context.newPage();
        const errors = [];
        page.on("pageerror", (e) => errors.push(e.message));
        await page.goto(url);
        await page.waitForSelector('#out:not([data-state="loading"])', { timeout: EVENT_TIMEOUT_MS });
        const o = await page.$eval("#out", (el) => ({ ...el.dataset, text: el.textContent }));
        assert.equal(o.state, "ready", o.text);
        checkProbe(JSON.parse(o.report), name);
        assert.deepEqual(errors, []);
      });
    });
  });
}

for (const [suffix, entry] of Object.entries(ENTRIES)) test(`server-side rendering: Node imports ${entry}; open() and destroy() say there is no IndexedDB`, () => {
  const out = JSON.parse(run(process.execPath, ["ssr.js"], appDir(`vite 8${suffix}`)).trim());
  assert.equal(out.imported, true);
  assert.equal(out.guarded, null);
  assert.equal(out.open.name, "StoreUnavailableError");
  assert.match(out.open.message, /IndexedDB is not available here \(server-side rendering in Node/);
  assert.equal(out.destroy.name, "StoreUnavailableError");
  assert.match(out.destroy.message, /IndexedDB is not available here \(server-side rendering in Node/);
});

test("idb-ttl/lite's TtlStore has none of the default entry's other members, and the module exports none of its other names", { skip: UNGATED }, async () => {
  const app = appDir("vite 8 lite");
  const names = (entry) => JSON.parse(run(process.execPath, ["--input-type=module", "-e", `
    const m = await import(${JSON.stringify(entry)});
    console.log(JSON.stringify({ exports: Object.keys(m).sort(), members: Object.getOwnPropertyNames(m.TtlStore.prototype).sort() }));`], app).trim());
  const lite = names("idb-ttl/lite");
  const full = names("idb-ttl");
  assert.deepEqual(lite.exports, ["TtlStore", "default"]);
  for (const member of ["collection", "timeSeries", "shred", "archive"]) {
    assert.ok(full.members.includes(member), `the default TtlStore has ${member}`);
    assert.ok(!lite.members.includes(member), `the lite TtlStore has no ${member}`);
  }
});

/**
 * The plain page (`index.html`, importing `entry`) with the unpacked package next to it, and the
 * probe's page (`probe.html`), served; `fn(url)` runs while it is.
 */
async function withPlainPage(entry, fn) {
  const dir = join(work, "plain");
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(ROOT, "examples/plain"), dir, { recursive: true });
  cpSync(unpacked, join(dir, "idb-ttl"), { recursive: true });
  const index = join(dir, "index.html");
  if (entry !== "idb-ttl") writeFileSync(index, swap(readFileSync(index, "utf8"), '"./idb-ttl/index.js"', '"./idb-ttl/lite/index.js"', "examples/plain/index.html"));
  writeFileSync(join(dir, "probe.js"), swap(swap(PROBE, '"idb-ttl/lite"', '"./idb-ttl/lite/index.js"', "PROBE"), 'import("idb-ttl")', 'import("./idb-ttl/index.js")', "PROBE"));
  writeFileSync(join(dir, "probe.html"), readFileSync(index, "utf8")
    .replace(/<script type="module">[\s\S]*<\/script>/, () => `<script type="module">${PROBE_PAGE.replace("PROBE_MODULE", "./probe.js")}</script>`));
  const server = startServer(dir);
  try {
    await fn(await server.url);
  } finally {
    await stopServer(server.child);
  }
}

for (const entry of Object.values(ENTRIES)) {
  const probe = entry === "idb-ttl" ? "" : "; the probe: its ttl expires, the default entry reads what it wrote";
  test(`a plain <script type=module> page, no bundler, ${entry}: works, and persists across a reload (Chromium)${probe}`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await withPlainPage(entry, async (url) => {
      await withChromium(join(ROOT, "www"), async ({ context }) => {
        const page = await context.newPage();
        for (const visits of ["1", "2"]) {
          await page.goto(url);
          await page.waitForSelector('#out:not([data-state="loading"])', { timeout: EVENT_TIMEOUT_MS });
          const out = await page.$eval("#out", (el) => ({ ...el.dataset, text: el.textContent }));
          assert.equal(out.state, "ready", out.text);
          assert.equal(out.visits, visits, out.text);
        }
        if (!probe) return;
        await page.goto(`${url}probe.html`);
        await page.waitForSelector('#out:not([data-state="loading"])', { timeout: EVENT_TIMEOUT_MS });
        const out = await page.$eval("#out", (el) => ({ ...el.dataset, text: el.textContent }));
        assert.equal(out.state, "ready", out.text);
        checkProbe(JSON.parse(out.report), "plain page, Chromium");
      });
    });
  });

  for (const engine of ["firefox", "webkit"]) {
    test(`a plain <script type=module> page in ${engine}, ${entry}: works, and persists across a reload${probe}`, { timeout: TEST_TIMEOUT_MS, skip: !available(engine) && `${engine} is not installed (scripts/setup.sh installs it)` }, async () => {
      await withPlainPage(entry, async (url) => {
        const session = await launch(engine);
        const shown = () => session.waitFor(() => {
          const el = document.getElementById("out");
          return el.dataset.state === "loading" ? null : { ...el.dataset, text: el.textContent };
        }, EVENT_TIMEOUT_MS, "the page to load the package");
        try {
          for (const visits of ["1", "2"]) {
            await session.goto(url);
            const out = await shown();
            assert.equal(out.state, "ready", out.text);
            assert.equal(out.visits, visits, out.text);
          }
          if (!probe) return;
          await session.goto(`${url}probe.html`);
          const out = await shown();
          assert.equal(out.state, "ready", out.text);
          checkProbe(JSON.parse(out.report), `plain page, ${engine}`);
        } finally {
          await session.quit();
        }
      });
    });
  }
}
