// Builds the app with esbuild: src/main.js and index.html into dist/ (`--serve`: and serves it,
// rebuilding on change), or with `--ssr` src/server.js into dist-server/ for Node. Components
// (.svelte) go through Svelte's own compiler (svelte/compiler) in the small plugin below, which is
// all this app needs of what Vite's Svelte plugin does (no <style> blocks: the page's styles are
// in index.html).
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import * as esbuild from "esbuild";
import { compile } from "svelte/compiler";

const ssr = process.argv.includes("--ssr");

/** `.svelte` files, compiled for the browser or for the server; the compiler's warnings are esbuild's. */
const svelte = {
  name: "svelte",
  setup(build) {
    build.onLoad({ filter: /\.svelte$/ }, ({ path }) => {
      const { js, warnings } = compile(readFileSync(path, "utf8"), { filename: path, generate: ssr ? "server" : "client" });
      return { contents: js.code, loader: "js", warnings: warnings.map((w) => ({ text: `${w.code}: ${w.message}` })) };
    });
  },
};

const options = ssr
  // For Node: svelte and idb-ttl stay imports, loaded from node_modules when it runs.
  ? { entryPoints: ["src/server.js"], outfile: "dist-server/server.js", platform: "node", packages: "external" }
  : { entryPoints: ["src/main.js"], outfile: "dist/app.js", minify: true };
Object.assign(options, { bundle: true, format: "esm", plugins: [svelte], logLevel: "warning" });

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
