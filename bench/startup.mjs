// Time to first get: from navigating to a page until its first awaited read of a stored key
// resolves, for idb-ttl, idb-ttl/lite, Dexie 4, idb-keyval and localForage. What a user pays
// before anything works: fetching the page and its script, parsing, compiling (and for idb-ttl
// instantiating its wasm), opening the database, the first read.
//
// Each library's app is the few lines a user writes for a value with an expiry (the same pattern
// as bench/contenders/: Dexie and the key-value stores keep `{ v, e }` and compare `e` with
// Date.now(); idb-ttl stores with a ttl), bundled by esbuild (--bundle --minify --format=esm) and
// served gzip-encoded (gzip -9) by a server in this process on 127.0.0.1. Every library's key is
// written once (a visit with ?seed) before anything is timed; every timed load checks that the
// first get returned that value.
//
// Three profiles, in one headless Chromium (a persistent profile: IndexedDB on disk), the
// libraries interleaved in each round (one load of each in turn, then the next round):
//   desktop cold          nothing cached (the bundles served with Cache-Control: no-store)
//   desktop second visit  the bundle cacheable (max-age=1 year): one visit, then the timed one
//   mobile cold           Lighthouse's mobile preset through CDP: Emulation.setCPUThrottlingRate 4,
//                         Network.emulateNetworkConditions 150 ms latency, 1.6 Mbps down,
//                         750 kbps up; nothing cached
// The time is `performance.now()` in the page when the get resolves: milliseconds since the
// navigation started. Medians of `--reps` loads (default 7) with min-max, the ratio to Dexie's
// median, and each bundle's bytes (raw, gzip -9, brotli 11). Writes bench/results/startup-latest.json
// (or, with --name, <name>.json: scripts/bench.sh names its runs by date).
// Not a test: nothing here fails on a slow number; the issue-40 bars are printed as yes/no.
//
//   scripts/bench.sh --startup [--reps N]
//   node bench/startup.mjs [--reps N] [--profiles desktop-cold,desktop-warm,mobile-cold] [--name NAME]
//   BENCH_SKIP_BUILD=1 scripts/bench.sh --startup     # the current pkg/, no rebuild
//   node bench/startup.mjs --with /tmp/old-pkg         # another build beside it (after a build)

import { createServer } from "node:http";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "esbuild";
import { launch } from "./lib/browser.mjs";
import { fmt, median } from "./lib/stats.mjs";
import { load as loadNow, runMeta } from "./lib/meta.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
// The build measured: scripts/bench.sh's copy of it (BENCH_PKG), else pkg/.
const PKG = resolve(process.env.BENCH_PKG || join(ROOT, "pkg"));

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const REPS = Number(opt("reps", "7"));
if (!(Number.isInteger(REPS) && REPS >= 1)) throw new Error(`--reps ${opt("reps")}: expected a whole number >= 1`);
const PROFILES = opt("profiles", "desktop-cold,desktop-warm,mobile-cold").split(",");
const KNOWN = ["desktop-cold", "desktop-warm", "mobile-cold"];
for (const p of PROFILES) if (!KNOWN.includes(p)) throw new Error(`--profiles: no profile ${p} (known: ${KNOWN.join(", ")})`);
// --with <dir>: another build of the package (a pkg/ directory, e.g. an older commit's) as two more
// columns, its entries interleaved with the rest: a change's effect in one run.
const WITH = opt("with", null);
const NAME = opt("name", "startup-latest");
const META = runMeta();

/** The value every app stores and must read back. */
const VALUE = { user: "ada", n: 42 };
const DAY = 86_400;

// Each app (a database of its own): `first(mark)` opens and reads, marking its stages; `seed()`
// writes the key (only on the ?seed visit). The page reports `window.__startup = { ms, marks, ok,
// error }` once the first get resolved.
/** An idb-ttl entry's app: `file` its module, `db` its database. */
const idbTtlApp = (label, file, db) => ({
  label,
  source: `import init, { TtlStore } from ${JSON.stringify(file)};
      let store;
      export const first = async (mark) => {
        await init(); mark("loaded");
        store = await TtlStore.open(${JSON.stringify(db)}); mark("opened");
        return store.get("k");
      };
      export const seed = (v) => store.set("k", v, { ttl: ${DAY} });`,
});
const APPS = {
  "idb-ttl": idbTtlApp("idb-ttl", join(PKG, "index.js"), "startup-idb-ttl"),
  "idb-ttl/lite": idbTtlApp("idb-ttl/lite", join(PKG, "lite/index.js"), "startup-idb-ttl-lite"),
  dexie: {
    label: "Dexie 4",
    source: `import Dexie from "dexie";
      const db = new Dexie("startup-dexie");
      db.version(1).stores({ kv: "k, e" });
      export const first = async (mark) => {
        await db.open(); mark("opened");
        const r = await db.kv.get("k");
        return r !== undefined && r.e > Date.now() ? r.v : undefined;
      };
      export const seed = (v) => db.kv.put({ k: "k", e: Date.now() + ${DAY * 1000}, v });`,
  },
  "idb-keyval": {
    label: "idb-keyval",
    // idb-keyval has no open: its first get opens the database.
    source: `import { createStore, get, set } from "idb-keyval";
      const store = createStore("startup-idb-keyval", "kv");
      export const first = async () => { const r = await get("k", store); return r !== undefined && r.e > Date.now() ? r.v : undefined; };
      export const seed = (v) => set("k", { v, e: Date.now() + ${DAY * 1000} }, store);`,
  },
  localforage: {
    label: "localForage",
    source: `import localforage from "localforage";
      const lf = localforage.createInstance({ name: "startup-localforage", storeName: "kv", driver: localforage.INDEXEDDB });
      export const first = async (mark) => {
        await lf.ready(); mark("opened");
        const r = await lf.getItem("k");
        return r != null && r.e > Date.now() ? r.v : undefined;
      };
      export const seed = (v) => lf.setItem("k", { v, e: Date.now() + ${DAY * 1000} });`,
  },
};

// The page's marks, ms since the navigation started: "fetched" (the bundle's last byte, Resource
// Timing), "started" (the app's own code begins: the bundle parsed, compiled and its libraries'
// top-level code run), "loaded" (idb-ttl's wasm decompressed, compiled and instantiated: its
// init(), which open() would otherwise await itself), "opened", and "got" (`ms`).
if (WITH) {
  const dir = resolve(WITH);
  for (const f of ["index.js", "lite/index.js"]) if (!existsSync(join(dir, f))) throw new Error(`--with ${WITH}: no ${f} there (a built pkg/ directory is expected)`);
  APPS["idb-ttl (with)"] = idbTtlApp(`idb-ttl (${WITH})`, join(dir, "index.js"), "startup-idb-ttl-with");
  APPS["idb-ttl/lite (with)"] = idbTtlApp(`idb-ttl/lite (${WITH})`, join(dir, "lite/index.js"), "startup-idb-ttl-lite-with");
}

const MAIN = `import { first, seed } from "./lib.js";
  const marks = { started: performance.now() };
  const want = ${JSON.stringify(VALUE)};
  try {
    const v = await first((name) => { marks[name] = performance.now(); });
    const ms = performance.now();
    marks.got = ms;
    const script = performance.getEntriesByName(new URL("app.js", location.href).href)[0];
    if (script) marks.fetched = script.responseEnd;
    if (v === undefined && new URLSearchParams(location.search).has("seed")) await seed(want);
    window.__startup = { ms, marks, ok: JSON.stringify(v) === JSON.stringify(want), got: v === undefined ? "undefined" : JSON.stringify(v) };
  } catch (e) {
    window.__startup = { error: String(e && e.stack || e) };
  }`;

/** Bundles each app as a user's esbuild would: `{ id: { js (gzip Buffer), raw, gzip } }`. */
async function bundleApps() {
  const out = {};
  for (const [id, app] of Object.entries(APPS)) {
    const result = await build({
      stdin: { contents: MAIN, resolveDir: HERE, sourcefile: `${id}-main.js` },
      plugins: [{
        name: "app-lib",
        setup(b) {
          b.onResolve({ filter: /^\.\/lib\.js$/ }, () => ({ path: `${id}-lib`, namespace: "app" }));
          b.onLoad({ filter: /.*/, namespace: "app" }, () => ({ contents: app.source, resolveDir: HERE, loader: "js" }));
        },
      }],
      bundle: true,
      minify: true,
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    if (result.warnings.length) throw new Error(`esbuild warned bundling ${id}: ${JSON.stringify(result.warnings)}`);
    const js = Buffer.from(result.outputFiles[0].contents);
    out[id] = { js: gzipSync(js, { level: 9 }), raw: js.length };
    out[id].gzip = out[id].js.length;
    out[id].brotli = brotliCompressSync(js, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return out;
}

const PAGE = gzipSync(Buffer.from('<!doctype html><meta charset="utf-8"><title>startup</title><script type="module" src="app.js"></script>'), { level: 9 });

/** Serves /<mode>/<app>/ (index.html) and /<mode>/<app>/app.js; mode "cold" or "warm". */
async function serve(bundles) {
  const server = createServer((req, res) => {
    const m = /^\/(cold|warm)\/([^/]+)\/(app\.js)?(\?.*)?$/.exec(req.url);
    const id = m && decodeURIComponent(m[2]);
    if (!m || !bundles[id]) {
      res.writeHead(404).end();
      return;
    }
    const js = m[3] === "app.js";
    res.writeHead(200, {
      "content-type": js ? "text/javascript" : "text/html; charset=utf-8",
      "content-encoding": "gzip",
      // The page itself is never cached; the bundle is on the second visit, as a hashed bundle is.
      "cache-control": js && m[1] === "warm" ? "public, max-age=31536000, immutable" : "no-store",
    });
    res.end(js ? bundles[id].js : PAGE);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Loads `url` in a new page (with `profile`'s throttling) and resolves to the page's report. */
async function load(context, url, throttled) {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    if (throttled) {
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
    }
    await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
    await page.waitForFunction(() => window.__startup !== undefined, null, { timeout: 120_000, polling: 20 });
    const report = await page.evaluate(() => window.__startup);
    if (report.error) throw new Error(`${url}: ${report.error}`);
    return report;
  } finally {
    await page.close();
  }
}

const bundles = await bundleApps();
const server = await serve(bundles);
const browser = await launch();
const ids = Object.keys(APPS);
const results = {};
const stageSamples = {};
try {
  // Seed: one visit per library writes its key (and checks it is not there yet).
  for (const id of ids) {
    const r = await load(browser.context, `${server.url}/cold/${encodeURIComponent(id)}/?seed`, false);
    if (r.got !== "undefined" && !r.ok) throw new Error(`${id}: the seed visit found ${r.got}`);
  }
  for (const profile of PROFILES) {
    results[profile] = Object.fromEntries(ids.map((id) => [id, []]));
    stageSamples[profile] = Object.fromEntries(ids.map((id) => [id, []]));
    for (let rep = 0; rep < REPS; rep++) {
      for (const id of ids) {
        const mode = profile === "desktop-warm" ? "warm" : "cold";
        const url = `${server.url}/${mode}/${encodeURIComponent(id)}/`;
        const throttled = profile === "mobile-cold";
        // The second visit: the first (which fills the HTTP cache) is not timed.
        if (mode === "warm") await load(browser.context, url, throttled);
        const r = await load(browser.context, url, throttled);
        if (!r.ok) throw new Error(`${id}, ${profile}: the first get returned ${r.got}, not the stored value`);
        results[profile][id].push(r.ms);
        stageSamples[profile][id].push(r.marks);
      }
    }
    process.stderr.write(`startup: ${profile} done\n`);
  }
} finally {
  await browser.close();
  await server.close();
}

const LABELS = { "desktop-cold": "desktop, cold", "desktop-warm": "desktop, second visit (HTTP cache warm)", "mobile-cold": "mobile (4x CPU, 150 ms, 1.6 Mbps), cold" };
const head = `| profile | ${ids.map((id) => APPS[id].label).join(" | ")} |`;
const lines = [
  `Time to first get, ms: median of ${REPS} (min-max), and the ratio to Dexie's median; Chromium ${browser.version}, libraries interleaved.`,
  "",
  head,
  `|---|${ids.map(() => "---").join("|")}|`,
];
const summary = {};
for (const profile of PROFILES) {
  const med = Object.fromEntries(ids.map((id) => [id, median(results[profile][id])]));
  summary[profile] = med;
  lines.push(`| ${LABELS[profile]} | ${ids.map((id) => {
    const xs = results[profile][id];
    return `${fmt(med[id])} (${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))}) ${(med[id] / med.dexie).toFixed(2)}x`;
  }).join(" | ")} |`);
}
lines.push(`| bytes, gzip -9 (raw) | ${ids.map((id) => `${bundles[id].gzip} (${bundles[id].raw})`).join(" | ")} |`);
lines.push(`| bytes, brotli 11 | ${ids.map((id) => `${bundles[id].brotli}`).join(" | ")} |`);
lines.push("");
// Where each library's time goes: the median of each stage's length, from the page's marks
// (a stage a library has not, as idb-keyval's open or the others' wasm load, is "-").
const STAGES = [
  ["fetched", null, "page and bundle fetched"],
  ["started", "fetched", "bundle parsed, compiled, run"],
  ["loaded", "started", "wasm loaded (init)"],
  ["opened", null, "open"],
  ["got", null, "first get (idb-keyval: open and get)"],
];
const stages = {};
for (const profile of PROFILES) {
  stages[profile] = {};
  lines.push(`Where the time goes, ${LABELS[profile]}: median ms of each stage`, "", head, `|---|${ids.map(() => "---").join("|")}|`);
  for (const [stage, from, label] of STAGES) {
    const cells = ids.map((id) => {
      const xs = stageSamples[profile][id]
        .map((m) => {
          if (m[stage] === undefined) return undefined;
          // open: from the wasm load if there is one, else from the start of the app's code.
          // The first get: from the open, or for idb-keyval (no open) from the start of the app's code.
          const start = from ? m[from] : stage === "opened" ? (m.loaded ?? m.started) : stage === "got" ? (m.opened ?? m.started) : 0;
          return start === undefined ? undefined : m[stage] - start;
        })
        .filter((x) => x !== undefined);
      if (xs.length === 0) return "-";
      (stages[profile][id] ??= {})[stage] = median(xs);
      return fmt(median(xs));
    });
    lines.push(`| ${label} | ${cells.join(" | ")} |`);
  }
  lines.push("");
}
const bar = (profile, id, max) => {
  if (!summary[profile]) return null;
  const r = summary[profile][id] / summary[profile].dexie;
  return `${APPS[id].label}, ${LABELS[profile]}: ${r.toFixed(2)}x Dexie (bar <= ${max}x): ${r <= max ? "yes" : "no"}`;
};
for (const b of [bar("mobile-cold", "idb-ttl/lite", 1.6), bar("mobile-cold", "idb-ttl", 2.2), bar("desktop-warm", "idb-ttl/lite", 1.6), bar("desktop-warm", "idb-ttl", 1.6)]) {
  if (b) lines.push(b);
}
lines.push(`bundled bytes (gzip -9): idb-ttl ${bundles["idb-ttl"].gzip} (bar <= 180000: ${bundles["idb-ttl"].gzip <= 180_000 ? "yes" : "no"}), idb-ttl/lite ${bundles["idb-ttl/lite"].gzip} (bar <= 100000: ${bundles["idb-ttl/lite"].gzip <= 100_000 ? "yes" : "no"})`);
const loadAtEnd = loadNow();
lines.push(`commit ${META.commit}; ${META.machine}; load average (1, 5, 15 min) ${META.loadAtStart} at the start, ${loadAtEnd} at the end`);
console.log(lines.join("\n"));

mkdirSync(join(HERE, "results"), { recursive: true });
writeFileSync(join(HERE, "results", `${NAME}.json`), JSON.stringify({
  ...META,
  loadAtEnd,
  chromium: browser.version,
  labels: Object.fromEntries(ids.map((id) => [id, APPS[id].label])),
  reps: REPS,
  samples: results,
  medians: summary,
  stages,
  bytes: Object.fromEntries(ids.map((id) => [id, { raw: bundles[id].raw, gzip: bundles[id].gzip, brotli: bundles[id].brotli }])),
}, null, 2) + "\n");
