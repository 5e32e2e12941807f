#!/usr/bin/env node
// Bundles src/main.jsx into dist/main.js with esbuild (the repository's dev dependency), React from
// the repository's node_modules and "idb-ttl" from the release build in www/pkg (scripts/build.sh).
// In an app of your own, `npm i idb-ttl react react-dom` and any bundler (Vite, esbuild...) do this.
//   node examples/react-watch/build.mjs     then serve the repository root and open
//   /examples/react-watch/index.html (e.g. `node scripts/serve.mjs`)
import { build } from "esbuild";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");

export async function buildExample() {
  await build({
    entryPoints: [join(HERE, "src/main.jsx")],
    outfile: join(HERE, "dist/main.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    jsx: "automatic",
    alias: { "idb-ttl": join(ROOT, "www/pkg/index.js") },
    nodePaths: [join(ROOT, "node_modules")],
    define: { "process.env.NODE_ENV": '"production"' },
    minify: true,
    // wasm-bindgen's glue lists one snippet module once per import: harmless, and not ours to fix.
    logOverride: { "duplicate-object-key": "silent" },
    logLevel: "warning",
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildExample();
