// Builds the app with esbuild: src/main.js and index.html into dist/ (`--serve`: and serves it,
// rebuilding on change), or with `--ssr` src/server.js into dist-server/ for Node. Single-file
// components (.vue) go through Vue's own compiler (vue/compiler-sfc, part of the vue package) in
// the small plugin below, which is all this app needs of what Vite's Vue plugin does (no <style>
// blocks: the page's styles are in index.html).
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import * as esbuild from "esbuild";
import { compileScript, parse } from "vue/compiler-sfc";

const ssr = process.argv.includes("--ssr");

/** `.vue` files: `<script setup>` with its template inlined, as one ES module. */
const vue = {
  name: "vue",
  setup(build) {
    build.onLoad({ filter: /\.vue$/ }, ({ path }) => {
      const { descriptor, errors } = parse(readFileSync(path, "utf8"), { filename: path });
      if (errors.length) return { errors: errors.map((e) => ({ text: e.message })) };
      const id = createHash("sha256").update(path).digest("hex").slice(0, 8);
      const script = compileScript(descriptor, { id, inlineTemplate: true, isProd: true });
      return { contents: script.content, loader: script.lang === "ts" ? "ts" : "js" };
    });
  },
};

// Vue's compile-time flags, which its bundler build asks for: no Options API, no devtools.
const define = {
  __VUE_OPTIONS_API__: "false",
  __VUE_PROD_DEVTOOLS__: "false",
  __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
};
const options = ssr
  // For Node: vue and idb-ttl stay imports, loaded from node_modules when it runs.
  ? { entryPoints: ["src/server.js"], outfile: "dist-server/server.js", platform: "node", packages: "external", define }
  : { entryPoints: ["src/main.js"], outfile: "dist/app.js", minify: true, define: { ...define, "process.env.NODE_ENV": '"production"' } };
Object.assign(options, { bundle: true, format: "esm", plugins: [vue], logLevel: "warning" });

if (!ssr) {
  mkdirSync("dist", { recursive: true });
  copyFileSync("index.html", "dist/index.html");
}
if (process.argv.includes("--serve")) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  const { port } = await ctx.serve({ servedir: "dist" });
  console.log(`serving dist/ at http://127.0.0.1:${port}/`);
} else {
  await esbuild.build(options);
}
