// Static server for the benchmark pages, bound to 127.0.0.1.
// Uses the team's scripts/serve.mjs when it exists (spawned as a child process),
// otherwise a small in-process server with the same contract (no caching, wasm MIME).
// BENCH_PKG=<dir> (scripts/bench.sh sets it to its copy of the build it measures): /www/pkg/ is
// served from there (in process), so a rebuild of pkg/ or www/pkg/ during a run changes nothing.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";

const MIME = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".json": "application/json",
  ".wasm": "application/wasm", ".svg": "image/svg+xml", ".css": "text/css",
  ".map": "application/json", ".ts": "text/plain",
};

async function freePort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

async function waitUp(url, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try { const r = await fetch(url); if (r.status < 500) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not come up within ${ms} ms`);
}

function inProcess(root, pkg) {
  return createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      const inPkg = pkg && path.startsWith("/www/pkg/");
      const base = inPkg ? pkg : root;
      let file = normalize(join(base, inPkg ? path.slice("/www/pkg/".length) : path));
      if (!file.startsWith(base)) { res.writeHead(403).end(); return; }
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": MIME[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
}

/** Serve `root`; returns { url, stop(), kind }. */
export async function startServer(root, repoRoot) {
  root = resolve(root);
  const serveScript = repoRoot && join(repoRoot, "scripts", "serve.mjs");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const pkg = process.env.BENCH_PKG ? resolve(process.env.BENCH_PKG) : null;
  if (serveScript && existsSync(serveScript) && !process.env.BENCH_OWN_SERVER && !pkg) {
    const child = spawn(process.execPath, [serveScript, root, String(port)], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitUp(url);
    return {
      url, kind: "scripts/serve.mjs",
      stop: () => new Promise((r) => { child.once("exit", r); child.kill("SIGTERM"); }),
    };
  }
  const srv = inProcess(root, pkg);
  await new Promise((r) => srv.listen(port, "127.0.0.1", r));
  return { url, kind: pkg ? `in-process, /www/pkg/ from ${pkg}` : "in-process", stop: () => new Promise((r) => srv.close(r)) };
}
