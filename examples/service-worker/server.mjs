#!/usr/bin/env node
// The origin server of the service-worker example, and of its test
// (tests/page/service-worker.test.mjs):
//
//   node examples/service-worker/server.mjs [port] [package-dir]
//
// Serves this folder (index.html, sw.js), the idb-ttl package at /idb-ttl/ (package-dir: by
// default the repository's pkg/, made by scripts/build.sh; or node_modules/idb-ttl), and
// /api/<anything>, a response that says when it was made, with the caching headers its query
// asks for: ?max-age=60, ?no-store, ?expires=<Unix seconds>, ?no-cache. GET /origin/count
// answers how many /api/ requests reached the server, by path. Bound to 127.0.0.1; port 0 (the
// default) picks a free one. Prints one line when ready: "serving ... at http://127.0.0.1:<port>/".
import { createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const [portArg = "0", pkgArg] = process.argv.slice(2);
const pkg = pkgArg ?? [join(here, "../../pkg"), join(here, "node_modules/idb-ttl")].find((d) => existsSync(join(d, "index.js")));
if (!pkg || !existsSync(join(pkg, "index.js"))) {
  console.error("server: no idb-ttl package found: run scripts/build.sh (it makes pkg/), or name the package folder");
  process.exit(2);
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8" };
const counts = {};

// A file under `dir`, or undefined (missing, or outside it).
function file(dir, path) {
  const p = normalize(join(dir, decodeURIComponent(path)));
  if (!p.startsWith(join(dir, sep)) || !existsSync(p) || !extname(p)) return undefined;
  return readFileSync(p);
}

const server = createServer((req, res) => {
  let url;
  try {
    url = new URL(`http://localhost${req.url}`);
  } catch {
    res.writeHead(400, { "content-type": "text/plain" }).end("bad request");
    return;
  }
  const path = url.pathname;
  if (path.startsWith("/api/")) {
    counts[path] = (counts[path] ?? 0) + 1;
    const q = url.searchParams;
    const headers = { "content-type": "application/json", date: new Date().toUTCString() };
    const cc = [q.has("max-age") && `max-age=${q.get("max-age")}`, q.has("no-store") && "no-store", q.has("no-cache") && "no-cache"].filter(Boolean);
    if (cc.length) headers["cache-control"] = cc.join(", ");
    if (q.has("expires")) headers.expires = new Date(Number(q.get("expires")) * 1000).toUTCString();
    res.writeHead(200, headers);
    res.end(JSON.stringify({ path, served: counts[path], at: Date.now() }));
    return;
  }
  if (path === "/origin/count") {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(counts));
    return;
  }
  let body;
  try {
    body = path.startsWith("/idb-ttl/") ? file(pkg, path.slice("/idb-ttl/".length)) : file(here, path === "/" ? "index.html" : path);
  } catch {
    body = undefined;
  }
  if (!body) {
    res.writeHead(404, { "content-type": "text/plain", "cache-control": "no-store" }).end("not found");
    return;
  }
  // no-store: the browser's own HTTP cache never answers for the example's files.
  res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(body);
});

server.listen(Number(portArg), "127.0.0.1", () => {
  console.log(`serving ${here} and idb-ttl from ${pkg} at http://127.0.0.1:${server.address().port}/`);
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
