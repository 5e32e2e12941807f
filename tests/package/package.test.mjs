// The npm package where users put it, tested against the packed tarball (`npm pack pkg/`), not the
// source tree: a Vite app (examples/vite/, what `npm create vite` gives plus `npm i idb-ttl`, no
// plugin, no config) in the dev server and in a production build, with a module worker; the same
// app's modules imported by Node for server-side rendering; a plain <script type="module"> page
// (examples/plain/) in Chromium, Firefox and WebKit. Run by scripts/test.sh after scripts/build.sh.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, TEST_TIMEOUT_MS, poll, startServer, stopServer, withChromium } from "../page/harness.mjs";
import { available, freePort, launch } from "../page/webdriver.mjs";

/** The Vite majors the example is checked with (the package needs no plugin in either). */
const VITES = { "vite 8": "8.3.8", "vite 7": "7.3.8" };
/** Other bundlers, each used with its defaults: no loader, no plugin, no wasm option. */
const BUNDLERS = { webpack: "5.112.2", "webpack-cli": "7.3.1", esbuild: "0.28.2" };
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const work = mkdtempSync(join(tmpdir(), "idb-ttl-package-"));
let tarball;
let unpacked;
const appDir = (label) => join(work, label.replace(" ", "-"));

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
}

before(async () => {
  assert.ok(existsSync(join(ROOT, "pkg/package.json")), "pkg/ is not built: run scripts/build.sh");
  const name = run(NPM, ["pack", join(ROOT, "pkg"), "--pack-destination", work, "--silent"], work).trim().split("\n").pop();
  tarball = join(work, name);
  mkdirSync(join(work, "unpacked"));
  run("tar", ["-xzf", tarball, "-C", join(work, "unpacked")], work);
  unpacked = join(work, "unpacked/package");
  // One copy of the example app per Vite major, depending on the tarball.
  for (const [label, version] of Object.entries(VITES)) {
    const app = appDir(label);
    cpSync(join(ROOT, "examples/vite"), app, { recursive: true, filter: (p) => !/node_modules|dist/.test(p) });
    const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
    pkg.dependencies["idb-ttl"] = `file:${tarball}`;
    pkg.devDependencies.vite = version;
    writeFileSync(join(app, "package.json"), JSON.stringify(pkg, null, 2));
    run(NPM, ["install", "--no-audit", "--no-fund", "--loglevel=error"], app);
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
  writeFileSync(join(b, "src/entry.js"), readFileSync(join(ROOT, "examples/plain/index.html"), "utf8")
    .match(/<script type="module">([\s\S]*)<\/script>/)[1]
    .replace('"./idb-ttl/index.js"', '"idb-ttl"'));
  run(NPM, ["install", "--no-audit", "--no-fund", "--loglevel=error"], b);
});

after(() => rmSync(work, { recursive: true, force: true }));

/** The packed package ships what the entry needs and nothing of the build's leftovers. */
test("the tarball: entry, typings, licences, metadata; no loose .wasm to locate", () => {
  const files = readdirSync(unpacked).sort();
  for (const f of ["index.js", "index.d.ts", "idb_ttl.js", "idb_ttl_wasm.js", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "package.json", "snippets"]) {
    assert.ok(files.includes(f), `the tarball lacks ${f}: ${files}`);
  }
  assert.ok(!files.some((f) => f.endsWith(".wasm")), `a .wasm file is shipped: ${files}`);
  const pkg = JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8"));
  for (const field of ["repository", "homepage", "bugs", "exports", "types", "license"]) assert.ok(pkg[field], `package.json has no ${field}`);
  assert.equal(pkg.exports["."].default, "./index.js");
  assert.equal(pkg.exports["."].types, "./index.d.ts");
  assert.match(readFileSync(join(unpacked, "LICENSE-APACHE"), "utf8"), /Apache License\s+Version 2\.0/);
  assert.match(readFileSync(join(unpacked, "LICENSE-MIT"), "utf8"), /^MIT License/);
});

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
    const report = { entries: await store.keys(), events: await events.count(), temps: await temps.count(),
      snapshotEntries: snapshot.entries.length, copied: await copyStore.keys() };
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
      await page.waitForFunction(() => document.body.dataset.report || document.body.dataset.error, null, { timeout: 15_000 });
      const { report, error } = await page.evaluate(() => ({ ...document.body.dataset }));
      assert.equal(error, undefined, `an example failed: ${error}`);
      const r = JSON.parse(report);
      assert.deepEqual(r.entries, ["banner", "draft", "row1", "row2", "session", "token"]);
      assert.deepEqual(r.copied, r.entries, "the long-work example's copy holds what the store held");
      assert.equal(r.events, 1);
      assert.equal(r.temps, 1);
      assert.equal(r.snapshotEntries, 4);
    });
  } finally {
    await stopServer(server.child);
  }
});

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
    await page.waitForSelector('#app:not([data-state="loading"])', { timeout: 30_000 });
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
    assert.deepEqual(problems, [], where);
  });
}

/** Starts `vite <args>` in `app` on a free port; resolves `{ child, url }` once it listens. */
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
  }, Boolean, 30_000, `vite ${args.join(" ")} listening on ${url}`);
  return { child, url };
}

for (const label of Object.keys(VITES)) {
  test(`${label} dev server, no plugin and no config: README example and module worker`, { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    const app = appDir(label);
    assert.ok(!existsSync(join(app, "vite.config.js")) && !existsSync(join(app, "vite.config.ts")), "the example has no Vite config");
    const { child, url } = await startVite(app, []);
    try {
      await checkApp(url, `${label} dev`);
    } finally {
      await stopServer(child);
    }
  });

  test(`${label} production build and preview: README example and the bundled worker`, { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    const app = appDir(label);
    run(process.execPath, [join(app, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], app);
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

/** Each bundler's command line (no config file): [command, args, the bundle it writes]. */
const BUILDS = {
  webpack: [process.execPath, ["node_modules/webpack/bin/webpack.js", "--entry", "./src/entry.js", "--output-path", "dist-webpack", "--mode", "production"], "dist-webpack/main.js"],
  esbuild: ["node_modules/.bin/esbuild", ["src/entry.js", "--bundle", "--format=esm", "--outfile=dist-esbuild/main.js"], "dist-esbuild/main.js"],
};

for (const [name, [cmd, args, out]] of Object.entries(BUILDS)) {
  test(`${name}, with its defaults: the bundle works in a page and persists across a reload`, { timeout: TEST_TIMEOUT_MS }, async () => {
    const b = join(work, "bundlers");
    run(cmd, args, b);
    await withBundle(out, async (url) => {
      await withChromium(join(ROOT, "www"), async ({ context }) => {
        const page = await context.newPage();
        const errors = [];
        page.on("pageerror", (e) => errors.push(e.message));
        for (const visits of ["1", "2"]) {
          await page.goto(url);
          await page.waitForSelector('#out:not([data-state="loading"])', { timeout: 15_000 });
          const o = await page.$eval("#out", (el) => ({ ...el.dataset, text: el.textContent }));
          assert.equal(o.state, "ready", o.text);
          assert.equal(o.visits, visits, o.text);
        }
        assert.deepEqual(errors, []);
      });
    });
  });
}

test("server-side rendering: Node imports the package; open() and destroy() say there is no IndexedDB", () => {
  const out = JSON.parse(run(process.execPath, ["ssr.js"], appDir("vite 8")).trim());
  assert.equal(out.imported, true);
  assert.equal(out.guarded, null);
  assert.equal(out.open.name, "StoreUnavailableError");
  assert.match(out.open.message, /IndexedDB is not available here \(server-side rendering in Node/);
  assert.equal(out.destroy.name, "StoreUnavailableError");
  assert.match(out.destroy.message, /IndexedDB is not available here \(server-side rendering in Node/);
});

/** The plain page with the unpacked package next to it, served; `fn(url)` runs while it is. */
async function withPlainPage(fn) {
  const dir = join(work, "plain");
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(ROOT, "examples/plain"), dir, { recursive: true });
  cpSync(unpacked, join(dir, "idb-ttl"), { recursive: true });
  const server = startServer(dir);
  try {
    await fn(await server.url);
  } finally {
    await stopServer(server.child);
  }
}

test("a plain <script type=module> page, no bundler: works, and persists across a reload (Chromium)", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withPlainPage(async (url) => {
    await withChromium(join(ROOT, "www"), async ({ context }) => {
      const page = await context.newPage();
      for (const visits of ["1", "2"]) {
        await page.goto(url);
        await page.waitForSelector('#out:not([data-state="loading"])', { timeout: 15_000 });
        const out = await page.$eval("#out", (el) => ({ ...el.dataset, text: el.textContent }));
        assert.equal(out.state, "ready", out.text);
        assert.equal(out.visits, visits, out.text);
      }
    });
  });
});

for (const engine of ["firefox", "webkit"]) {
  test(`a plain <script type=module> page in ${engine}: works, and persists across a reload`, { timeout: TEST_TIMEOUT_MS, skip: !available(engine) && `${engine} is not installed (scripts/setup.sh installs it)` }, async () => {
    await withPlainPage(async (url) => {
      const session = await launch(engine);
      try {
        for (const visits of ["1", "2"]) {
          await session.goto(url);
          const out = await session.waitFor(() => {
            const el = document.getElementById("out");
            return el.dataset.state === "loading" ? null : { ...el.dataset, text: el.textContent };
          }, 15_000, "the page to load the package");
          assert.equal(out.state, "ready", out.text);
          assert.equal(out.visits, visits, out.text);
        }
      } finally {
        await session.quit();
      }
    });
  });
}
