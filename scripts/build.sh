#!/usr/bin/env bash
# The release build (run scripts/setup.sh first; demo.sh and test.sh do):
#   pkg/      the npm package (every JS file minified by esbuild), two entries of one crate:
#             "idb-ttl" (index.js, feature full) and "idb-ttl/lite" (lite/index.js, the crate
#             built with --no-default-features: the key-value store only), both with
#             --cfg idb_ttl_npm (the JavaScript bindings, without the Rust API). Each has wasm-pack's
#             --target web glue (idb_ttl.js + snippets/), its .wasm inlined as base64 of its gzip
#             in idb_ttl_wasm.js, and its typings. From pkg-template/: index.js and lite/index.js,
#             each bundled with wire.js (what both do with their glue), index.d.ts (lite/index.d.ts
#             is made from it, by scripts/typings.mjs), package.json fields, README; the licences.
#             And react/, vue/, svelte/: the React hooks ("idb-ttl/react", "idb-ttl/lite/react"),
#             the Vue composable ("idb-ttl/vue", "idb-ttl/lite/vue") and the Svelte store
#             ("idb-ttl/svelte", "idb-ttl/lite/svelte"), JS and typings as written.
#   www/pkg/  a copy of pkg/ for the demo page, the page tests and the benchmark
# Optimised by the npm binaryen's wasm-opt (first on PATH via env.sh; never --no-opt here).
# Ends with scripts/size.mjs: the bytes a browser loads, per part and entry, checked against the
# budgets, and each entry bundled by esbuild, which must print no warning.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

for tool in wasm-pack wasm-bindgen wasm-opt esbuild; do
  command -v "$tool" >/dev/null || { echo "build: '$tool' not found: run scripts/setup.sh" >&2; exit 1; }
done

# Panic locations in dependencies name their files by absolute path under cargo's cache
# ($CARGO_HOME/registry/src/<index>/<crate>-<version>/...): remapped to <crate>-<version>/..., so
# the package's bytes, and the size budgets checked below, do not depend on where cargo keeps
# its cache (a CARGO_HOME of /tmp/cold/home/.cargo put 120 bytes more in the wasm than
# /root/.cargo, and failed the budget). `cargo fetch` first: on a fresh machine the cache is
# made by this build.
cargo fetch --locked </dev/null
remap=()
for index in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
  [ -d "$index" ] && remap+=("--remap-path-prefix=$index=")
done
# --cfg idb_ttl_npm: the package is the JavaScript bindings (the `js` feature's code) without the
# Rust API (idb_ttl::TtlStore): its presence alone changed rustc's inlining in the crate, and the
# package grew. The features stay what they were before the `js` feature existed (`full`; none
# for lite): a crate's feature set goes into its symbols' hashes, and those into the order of the
# code in the wasm, so naming `js` too moved the gzip size by 100-200 B either way.
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }${remap[*]} --cfg idb_ttl_npm"

echo "== wasm-pack build --release --target web --out-dir pkg --no-pack --no-typescript -- --no-default-features --features full"
rm -rf pkg
wasm-pack build --release --target web --out-dir pkg --no-pack --no-typescript -- --no-default-features --features full </dev/null
# The lite build shares the default build's target dir: every dependency whose features the two
# builds resolve alike (57 of 57 crates here) is compiled once, not twice (on a fresh machine both
# compiled all of them: 2 min 30 s and 2 min 07 s beside the browser lanes). Only the crate
# itself is built again, as it would be anyway after a change.
echo "== wasm-pack build --release --target web --out-dir pkg/lite --no-pack --no-typescript -- --no-default-features"
wasm-pack build --release --target web --out-dir pkg/lite --no-pack --no-typescript -- --no-default-features </dev/null

node --input-type=module - "$ROOT" <<'EOF'
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { gzipAsync } from "@gfx/zopfli";
import { build, formatMessages } from "esbuild";
import { pathToFileURL } from "node:url";
const root = process.argv[2];
const pkg = `${root}/pkg`;

for (const dir of [pkg, `${pkg}/lite`]) {
  // The .wasm travels inside a JS module (pkg-template/wire.js says why), gzipped, as base64.
  // Zopfli writes a smaller gzip than zlib -9 (10 kB less here, measured by scripts/size.mjs) that
  // any inflater, DecompressionStream included, reads; it takes a few seconds, at build time only.
  const wasm = readFileSync(`${dir}/idb_ttl_bg.wasm`);
  const b64 = Buffer.from(await gzipAsync(wasm, { numiterations: 15 })).toString("base64");
  writeFileSync(`${dir}/idb_ttl_wasm.js`,
    `// idb_ttl_bg.wasm (${wasm.length} bytes), gzipped, base64. Written by scripts/build.sh.\nexport default "${b64}";\n`);
  const gluePath = `${dir}/idb_ttl.js`;
  let glue = readFileSync(gluePath, "utf8");
  // The glue's fallback location of the .wasm would send bundlers (webpack, Parcel) looking for a
  // file the package does not ship; the entry always passes the module in.
  const fallback = "module_or_path = new URL('idb_ttl_bg.wasm', import.meta.url);";
  if (glue.split(fallback).length !== 2) throw new Error(`the wasm-bindgen glue no longer has: ${fallback}`);
  glue = glue.replace(fallback, 'throw new Error("idb-ttl: load the package through its entry, index.js or lite/index.js");');
  glue = oneImportPerSnippet(glue, gluePath);
  writeFileSync(gluePath, glue);
  await shakeSnippets(dir, wasm, glue);
  for (const f of ["idb_ttl_bg.wasm", ".gitignore"]) {
    rmSync(`${dir}/${f}`, { force: true });
  }
}

// wasm-bindgen 0.2.130 (generate_esm_cjs_imports) writes an `import * as importN from "<snippet>"`
// line and a `"<snippet>": importN,` key of __wbg_get_imports' object for each wasm import it
// wires straight to a snippet's export, not for each snippet: a snippet with two such imports
// (storageEstimate and persistStorage of edge.js, watches and views of members.js) is a duplicate
// key, which esbuild, Vite and webpack warn about. Both name the same module, so the first is
// kept; anything else in that shape stops the build.
function oneImportPerSnippet(glue, where) {
  const first = new Map();
  for (const [line, name, module] of glue.matchAll(/^import \* as (import\d+) from "([^"]+)"\n/gm)) {
    if (!first.has(module)) {
      first.set(module, name);
      continue;
    }
    const key = glue.split("\n").filter((l) => l.trim() === `"${module}": ${name},`);
    if (glue.split(line).length !== 2 || key.length !== 1 || glue.split(new RegExp(`\\b${name}\\b`)).length !== 3) {
      throw new Error(`${where}: ${name} (${module}) is not one import line and one key of __wbg_get_imports: the wasm-bindgen glue changed shape`);
    }
    glue = glue.replace(line, "").replace(`${key[0]}\n`, "");
  }
  for (const module of first.keys()) {
    const keys = glue.split("\n").filter((l) => l.trim().startsWith(`"${module}":`)).length;
    if (keys !== 1) throw new Error(`${where}: ${module} is ${keys} keys of __wbg_get_imports, not one`);
  }
  return glue;
}

// Each entry's snippets keep only the exports something imports: the wasm (its import section
// names each snippet function it calls), the glue's named imports and the snippets' imports of
// one another. wasm-bindgen copies a snippet whole into both entries, and the glue hands the wasm
// a snippet as a namespace object, which no bundler can shake; so without this the lite entry
// would ship edge.js's readers of collections' documents, series' events and response headers,
// which only the default entry's wasm calls (about 800 B gzip). esbuild drops what no kept export
// reaches, and stops the build if a name imported is not exported (a snippet renamed under the
// wasm). A snippet another imports as a namespace keeps everything.
async function shakeSnippets(dir, wasm, glue) {
  const files = (function list(d) {
    return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? list(join(d, n)) : n.endsWith(".js") ? [join(d, n)] : []));
  })(join(dir, "snippets"));
  const used = new Map(files.map((f) => [f, new Set()]));
  const whole = new Set();
  for (const { module, name } of WebAssembly.Module.imports(new WebAssembly.Module(wasm))) {
    used.get(join(dir, module))?.add(name);
  }
  for (const [from, text] of [[dir, glue], ...files.map((f) => [dirname(f), readFileSync(f, "utf8")])]) {
    for (const [, names, spec] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
      for (const n of names.split(",")) if (n.trim()) used.get(resolve(from, spec))?.add(n.trim().split(/\s+as\s+/)[0]);
    }
    // The glue's namespace imports are the wasm's import objects (the import line and one key
    // of __wbg_get_imports); one used any other way keeps its snippet whole.
    for (const [, ns, spec] of text.matchAll(/import\s*\*\s*as\s+(\w+)\s+from\s*["']([^"']+)["']/g)) {
      if (from !== dir || text.split(new RegExp(`\\b${ns}\\b`)).length !== 3) whole.add(resolve(from, spec));
    }
  }
  // Imports of other snippets stay imports, as written.
  const external = (f) => ({
    name: "other-snippets-external",
    setup: (b) => b.onResolve({ filter: /^\./ }, (a) => (a.importer === f ? { path: a.path, external: true } : undefined)),
  });
  for (const [f, names] of used) {
    if (whole.has(f)) continue;
    // A snippet whose every export is used stays as it is.
    const { metafile } = await build({ entryPoints: [f], bundle: true, format: "esm", write: false, metafile: true, logLevel: "silent", plugins: [external(f)] });
    if (Object.values(metafile.outputs)[0].exports.every((e) => names.has(e))) continue;
    await build({
      stdin: { contents: `export { ${[...names].join(", ")} } from ${JSON.stringify(f)};`, resolveDir: dirname(f), loader: "js" },
      outfile: f,
      allowOverwrite: true,
      bundle: true,
      format: "esm",
      logLevel: "silent",
      plugins: [external(f)],
    });
  }
}

// The entries, each with the module both share (wire.js) bundled in; their glue and wasm stay
// modules of their own.
for (const f of ["index.js", "lite/index.js"]) {
  const { warnings } = await build({
    entryPoints: [`${root}/pkg-template/${f}`],
    outfile: `${pkg}/${f}`,
    bundle: true,
    format: "esm",
    logLevel: "silent",
    plugins: [{
      name: "glue-external",
      setup: (b) => b.onResolve({ filter: /^\.\/idb_ttl(_wasm)?\.js$/ }, (a) => ({ path: a.path, external: true })),
    }],
  });
  if (warnings.length) throw new Error(`esbuild warned while bundling pkg-template/${f}:\n${(await formatMessages(warnings, { kind: "warning" })).join("")}`);
}
// The typings (by scripts/typings.mjs, whose rule the docs check shares), README, licences;
// package.json gets the crate's version.
cpSync(`${root}/pkg-template/README.md`, `${pkg}/README.md`);
const { typings } = await import(pathToFileURL(`${root}/scripts/typings.mjs`).href);
const dts = readFileSync(`${root}/pkg-template/index.d.ts`, "utf8");
writeFileSync(`${pkg}/index.d.ts`, typings(dts, false));
writeFileSync(`${pkg}/lite/index.d.ts`,
  '// The typings of "idb-ttl/lite", the key-value store, made by scripts/build.sh from index.d.ts\n' +
  "// without what this entry lacks (collections, time series, tiers and archive, hand-off,\n" +
  "// encryption, ttlFromHeaders).\n" + typings(dts, true));
// The React hooks ("idb-ttl/react", "idb-ttl/lite/react"), the Vue composable ("idb-ttl/vue",
// "idb-ttl/lite/vue") and the Svelte store ("idb-ttl/svelte", "idb-ttl/lite/svelte"): modules of
// their own, importing their framework (React, Vue; the Svelte store imports nothing) and an entry
// as they are (no entry imports them, so they add nothing to either).
for (const binding of ["react", "vue", "svelte"]) cpSync(`${root}/pkg-template/${binding}`, `${pkg}/${binding}`, { recursive: true });
for (const f of ["LICENSE-MIT", "LICENSE-APACHE"]) cpSync(`${root}/${f}`, `${pkg}/${f}`);
const version = /^version = "([^"]+)"/m.exec(readFileSync(`${root}/Cargo.toml`, "utf8"))[1];
const tpl = JSON.parse(readFileSync(`${root}/pkg-template/package.json`, "utf8"));
writeFileSync(`${pkg}/package.json`, JSON.stringify({ ...tpl, version }, null, 2) + "\n");
// Every file the package needs is listed in its "files" (npm pack ships only those), and every
// file its "exports" name is made.
for (const f of tpl.files) {
  if (!existsSync(`${pkg}/${f}`)) throw new Error(`pkg-template/package.json lists ${f}, which the build did not make`);
}
for (const target of Object.values(tpl.exports).flatMap((e) => (typeof e === "string" ? [e] : Object.values(e)))) {
  if (!existsSync(`${pkg}/${target}`)) throw new Error(`pkg-template/package.json exports ${target}, which the build did not make`);
}
console.log(`pkg/: ${tpl.name}@${version}`);
EOF

# Every JS module shipped is minified (esbuild, ES module in and out, exports kept): a plain page
# loads them as they are, so their bytes count. A warning stops the build.
find pkg -name '*.js' ! -name idb_ttl_wasm.js -print0 | while IFS= read -r -d '' f; do
  warnings="$(esbuild "$f" --minify --format=esm --log-level=warning --outfile="$f" --allow-overwrite 2>&1 </dev/null)"
  if [ -n "$warnings" ]; then
    printf 'build: esbuild warned while minifying %s:\n%s\n' "$f" "$warnings" >&2
    exit 1
  fi
done

# The demo page, the page tests and the benchmark load the package exactly as shipped.
rm -rf www/pkg
cp -r pkg www/pkg

node scripts/size.mjs
