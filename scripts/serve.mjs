#!/usr/bin/env node
// Tiny static file server for the demo, the page tests and the benchmark.
//   node scripts/serve.mjs <dir> <port>     (port 0 = any free port; the chosen one is printed)
// Bound to 127.0.0.1 only, never caches (a rebuilt .wasm is always picked up), refuses paths that
// leave <dir>. Prints exactly one line when ready: "serving <dir> at http://127.0.0.1:<port>/".
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { extname, isAbsolute, join, relative, resolve, sep } from "node:path";

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
};

const [dirArg, portArg] = process.argv.slice(2);
if (!dirArg || portArg === undefined || !/^\d+$/.test(portArg) || Number(portArg) > 65535) {
  console.error("usage: node scripts/serve.mjs <dir> <port>   (port 0 = pick a free one)");
  process.exit(2);
}

let root;
try {
  root = await realpath(resolve(dirArg));
  if (!(await stat(root)).isDirectory()) throw new Error("not a directory");
} catch (err) {
  console.error(`serve: cannot serve '${dirArg}': ${err.message}`);
  process.exit(2);
}

const inside = (p) => {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith(".." + sep) && rel !== ".." && !isAbsolute(rel));
};

function send(res, status, body, method) {
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  res.end(method === "HEAD" ? undefined : body);
}

// Maps a request path to a file inside root, or null (missing, or outside root even via symlink).
async function locate(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  let file = resolve(join(root, decoded));
  if (!inside(file)) return null;
  try {
    let info = await stat(file);
    const isDir = info.isDirectory();
    if (isDir) {
      file = join(file, "index.html");
      info = await stat(file);
    }
    if (!info.isFile()) return null;
    const real = await realpath(file);
    if (!inside(real)) return null;
    return { file: real, size: info.size, isDir };
  } catch {
    return null;
  }
}

const server = createServer(async (req, res) => {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("Allow", "GET, HEAD");
    return send(res, 405, "405 method not allowed\n", req.method);
  }
  const urlPath = (req.url || "/").split("?")[0].split("#")[0];
  const found = await locate(urlPath);
  if (!found) return send(res, 404, `404 not found: ${urlPath}\n`, req.method);
  // A directory URL without its trailing slash: redirect, so relative imports resolve inside it.
  if (found.isDir && !urlPath.endsWith("/")) {
    res.writeHead(301, { Location: urlPath + "/", "Cache-Control": "no-store" });
    return res.end();
  }
  res.writeHead(200, {
    "Content-Type": MIME[extname(found.file).toLowerCase()] || "application/octet-stream",
    "Content-Length": found.size,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  if (req.method === "HEAD") return res.end();
  createReadStream(found.file)
    .on("error", () => res.destroy())
    .pipe(res);
});

server.on("error", (err) => {
  console.error(`serve: ${err.message}`);
  process.exit(1);
});

server.listen(Number(portArg), "127.0.0.1", () => {
  const { port } = server.address();
  console.log(`serving ${dirArg} at http://127.0.0.1:${port}/`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections?.();
    process.exit(0);
  });
}
