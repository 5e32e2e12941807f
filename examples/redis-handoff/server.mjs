#!/usr/bin/env node
// idb-ttl hand-off to Redis: a small server that receives the records a page's `onExpire` hook
// posts (JSON) and writes each into Redis with its absolute expiry, so the data outlives the
// device and Redis keeps expiring it. See README.md beside this file.
//
//   node server.mjs [--port N] [--redis redis://127.0.0.1:6379] [--prefix idb-ttl:]
//                   [--pkg DIR] [--static DIR] [--timeout-ms 1500] [--max-body-mb 64]
//
// Environment: PORT, REDIS_URL, HANDOFF_PREFIX (the flags win). Port 0 picks a free port.
// Bound to 127.0.0.1. Prints exactly one line on stdout when ready:
//   redis-handoff listening at http://127.0.0.1:PORT/
// Everything else (Redis going down or coming back, bad requests) goes to stderr.
//
// Routes:
//   POST /handoff   a JSON array of records { kind, name, key, value, expiresAt, action }
//                   200 { stored, expired } once Redis has acknowledged every write;
//                   400 naming the bad record and field (nothing written);
//                   503 when Redis is unreachable or failed (the page's hook then throws and the
//                   browser keeps the records for a later pass).
//   GET  /health    200 { ok: true, redis: "ready" } or 503 { ok: false, redis: "down", error }
//   GET  /          page.html (the example page)
//   GET  /pkg/...   files of --pkg DIR (the idb-ttl package: index.js, ...)
//   GET  /...       files of --static DIR, if given
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createClient } from "redis";

const HERE = fileURLToPath(new URL(".", import.meta.url));

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

const USAGE = `usage: node server.mjs [--port N] [--redis URL] [--prefix P] [--pkg DIR] [--static DIR]
                      [--timeout-ms MS] [--max-body-mb MB]
  --port         HTTP port on 127.0.0.1 (env PORT; 0 = any free port; default 8787)
  --redis        Redis URL (env REDIS_URL; default redis://127.0.0.1:6379)
  --prefix       prefix of every Redis key (env HANDOFF_PREFIX; default "idb-ttl:")
  --pkg          directory served at /pkg/ (the idb-ttl package, e.g. node_modules/idb-ttl)
  --static       directory whose files are served at / (besides page.html and /pkg/)
  --timeout-ms   longest wait for Redis per request before answering 503 (default 1500)
  --max-body-mb  largest accepted hand-off body, in MiB (default 64)`;

let opts;
try {
  opts = parseArgs({
    options: {
      port: { type: "string" },
      redis: { type: "string" },
      prefix: { type: "string" },
      pkg: { type: "string" },
      static: { type: "string" },
      "timeout-ms": { type: "string" },
      "max-body-mb": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }).values;
} catch (e) {
  console.error(`redis-handoff: ${e.message}\n${USAGE}`);
  process.exit(2);
}
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}

function wholeNumber(name, text, min, max) {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    console.error(`redis-handoff: --${name} must be a whole number from ${min} to ${max}, got '${text}'\n${USAGE}`);
    process.exit(2);
  }
  return Number(text);
}

const PORT = wholeNumber("port", opts.port ?? process.env.PORT ?? "8787", 0, 65535);
const REDIS_URL = opts.redis ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = opts.prefix ?? process.env.HANDOFF_PREFIX ?? "idb-ttl:";
const TIMEOUT_MS = wholeNumber("timeout-ms", opts["timeout-ms"] ?? "1500", 1, 600_000);
const MAX_BODY = wholeNumber("max-body-mb", opts["max-body-mb"] ?? "64", 1, 4096) * 1024 * 1024;

async function directory(flag, dir) {
  if (dir === undefined) return null;
  try {
    const real = await realpath(resolve(dir));
    if (!(await stat(real)).isDirectory()) throw new Error("not a directory");
    return real;
  } catch (e) {
    console.error(`redis-handoff: --${flag} '${dir}': ${e.message}`);
    process.exit(2);
  }
}
const PKG_DIR = await directory("pkg", opts.pkg);
const STATIC_DIR = await directory("static", opts.static);

// ---------------------------------------------------------------------------------------------
// Redis
// ---------------------------------------------------------------------------------------------

// node-redis queues commands while disconnected and sends them after reconnecting, by default
// without limit: an HTTP request would then hang for as long as Redis is down, the page's hook
// would time out, and the queued writes would land much later. Here:
// - disableOfflineQueue: a command issued while the client is not connected rejects at once
//   (ClientOfflineError), and commands in flight when the connection drops are rejected too;
// - reconnectStrategy: never give up, retrying every 100 ms, 200 ms, ... up to 1 s apart, so the
//   server picks Redis up by itself (also when Redis is not up yet when the server starts);
// - connectTimeout: a connection attempt to an unreachable host fails within 1 s.
// A request whose MULTI is not answered within --timeout-ms (a Redis that is stuck rather than
// gone) gets a 503 as well; if those writes still land later, nothing is harmed, because every
// write is idempotent and the browser resends the same records.
const redis = createClient({
  url: REDIS_URL,
  disableOfflineQueue: true,
  socket: {
    connectTimeout: 1_000,
    reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 1_000),
  },
});

// node-redis emits "error" on every failed (re)connection attempt; log state changes only.
let redisState = "connecting";
let redisError = "not connected yet";
redis.on("error", (e) => {
  redisError = e.message || String(e);
  if (redisState !== "down") console.error(`redis-handoff: Redis at ${REDIS_URL} unreachable: ${redisError} (retrying)`);
  redisState = "down";
});
redis.on("ready", () => {
  if (redisState === "down") console.error(`redis-handoff: Redis at ${REDIS_URL} is back`);
  redisState = "ready";
});
// connect() resolves on the first successful connection; it keeps retrying meanwhile (the
// strategy never gives up), so the HTTP server starts without waiting for it.
redis.connect().catch((e) => console.error(`redis-handoff: Redis client stopped: ${e.message}`));

/** `promise`, or a rejection after TIMEOUT_MS. */
function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from Redis within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

const KINDS = ["entry", "document", "events"];
const ACTIONS = ["archive", "delete"];
// JavaScript's Date range (±8.64e15 ms): far inside what Redis accepts for PXAT.
const MAX_EXPIRES_AT = 8.64e12;

class BadRequest extends Error {}

const show = (v) => {
  if (v === undefined) return "undefined (missing)";
  const s = JSON.stringify(v);
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
};

/**
 * Checks record `i` of the batch and returns its Redis key, payload and expiry in milliseconds,
 * or throws a BadRequest naming the record and the field.
 */
function checkRecord(r, i) {
  if (r === null || typeof r !== "object" || Array.isArray(r)) {
    throw new BadRequest(`record ${i}: expected an object { kind, name, key, value, expiresAt, action }, got ${show(r)}`);
  }
  const where = `record ${i}${typeof r.key === "string" || typeof r.key === "number" ? ` (key ${show(r.key)})` : ""}`;
  const bad = (field, want) => new BadRequest(`${where}: field '${field}' must be ${want}, got ${show(r[field])}`);

  if (!KINDS.includes(r.kind)) throw bad("kind", `one of ${KINDS.map((k) => `"${k}"`).join(", ")}`);
  if (r.kind === "entry") {
    if (r.name !== undefined && r.name !== null) throw bad("name", "absent for kind \"entry\"");
  } else if (typeof r.name !== "string" || r.name === "") {
    throw bad("name", `a non-empty string (the ${r.kind === "document" ? "collection" : "time series"} name) for kind "${r.kind}"`);
  }
  if (!(typeof r.key === "string" || (typeof r.key === "number" && Number.isFinite(r.key)))) {
    throw bad("key", "a string or a finite number");
  }
  // null: an archive tier with no delete tier after it (the record is kept for good).
  if (r.expiresAt !== null && (typeof r.expiresAt !== "number" || !Number.isFinite(r.expiresAt) || r.expiresAt <= 0 || r.expiresAt > MAX_EXPIRES_AT)) {
    throw bad("expiresAt", `a number of Unix seconds, > 0 and <= ${MAX_EXPIRES_AT}, or null (no delete tier)`);
  }
  if (!ACTIONS.includes(r.action)) throw bad("action", `one of ${ACTIONS.map((a) => `"${a}"`).join(", ")}`);

  const name = r.kind === "entry" ? undefined : r.name;
  return {
    // One key per record, whatever pass or tab delivers it: a second delivery overwrites the
    // first with the same content. JSON.stringify(key) keeps the string "1" and the number 1
    // apart, as the browser store does.
    key: `${PREFIX}${r.kind}:${name ?? ""}:${JSON.stringify(r.key)}`,
    // A missing value (undefined in the page, dropped by JSON.stringify) is stored as null.
    payload: JSON.stringify({ value: r.value ?? null, expiresAt: r.expiresAt, action: r.action, kind: r.kind, name, key: r.key }),
    // PXAT rather than EXAT: expiresAt has a fraction (milliseconds), and EXAT would round it
    // to a whole second, so Redis would expire the record up to half a second early or late.
    // No expiry (null): stored without one, as the browser's archive keeps it.
    pxat: r.expiresAt === null ? Infinity : Math.round(r.expiresAt * 1000),
  };
}

/**
 * Writes a batch: one SET per record, all in one MULTI (a single round trip; on one Redis
 * server the batch is applied whole or not at all). Records whose expiry has already passed are
 * not sent: Redis 7 answers a SET ... PXAT in the past with OK but stores nothing (and deletes an
 * existing key of that name, counting it as expired), so sending them would only cost a round
 * trip. Resolves to { stored, expired }.
 */
async function store(records) {
  if (!Array.isArray(records)) throw new BadRequest(`expected a JSON array of records, got ${show(records)}`);
  const checked = records.map(checkRecord); // all checked before anything is written
  const now = Date.now();
  const live = checked.filter((c) => c.pxat > now);
  const expired = checked.length - live.length;
  if (live.length === 0) return { stored: 0, expired };

  const multi = redis.multi();
  for (const c of live) {
    if (c.pxat === Infinity) multi.set(c.key, c.payload);
    else multi.set(c.key, c.payload, { expiration: { type: "PXAT", value: c.pxat } });
  }
  try {
    await withTimeout(multi.exec(), `writing ${live.length} record(s)`);
  } catch (e) {
    // A command Redis refused inside the MULTI (out of memory, read-only replica, ...): node-redis
    // rejects exec() with a MultiErrorReply listing them. Any failure means "not stored": 503.
    const first = e.errorIndexes?.[0];
    if (first !== undefined) throw new Error(`Redis refused the write of ${live[first].key}: ${e.replies[first]?.message ?? e.message}`);
    throw e;
  }
  return { stored: live.length, expired };
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

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

function send(res, status, body, type = "text/plain; charset=utf-8") {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": typeof body === "string" ? type : "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  res.end(res.req.method === "HEAD" ? undefined : text);
}

/** The request body as text, or a BadRequest past MAX_BODY. */
function readBody(req) {
  return new Promise((resolveBody, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(Object.assign(new BadRequest(`body larger than ${MAX_BODY} bytes (--max-body-mb)`), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolveBody(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

async function handoff(req, res) {
  let records;
  try {
    const text = await readBody(req);
    try {
      records = JSON.parse(text);
    } catch (e) {
      throw new BadRequest(`body is not JSON: ${e.message}`);
    }
    const reply = await store(records);
    send(res, 200, reply);
  } catch (e) {
    if (e instanceof BadRequest) return send(res, e.status ?? 400, `bad hand-off: ${e.message}\n`);
    console.error(`redis-handoff: hand-off of ${Array.isArray(records) ? records.length : "?"} record(s) failed: ${e.message}`);
    send(res, 503, `Redis unavailable, records not stored (the browser keeps them and retries): ${e.message}\n`);
  }
}

async function health(res) {
  try {
    const pong = await withTimeout(redis.ping(), "PING");
    send(res, 200, { ok: true, redis: "ready", ping: pong });
  } catch (e) {
    send(res, 503, { ok: false, redis: "down", error: e.message || redisError });
  }
}

const inside = (root, p) => {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith(".." + sep) && rel !== ".." && !isAbsolute(rel));
};

/** A file inside `root` for the decoded relative path `rel`, or null (missing, outside, not a file). */
async function locate(root, rel) {
  if (rel.includes("\0")) return null;
  let file = resolve(join(root, rel));
  if (!inside(root, file)) return null;
  try {
    if ((await stat(file)).isDirectory()) file = join(file, "index.html");
    const real = await realpath(file);
    const info = await stat(real);
    if (!info.isFile() || !inside(root, real)) return null;
    return { file: real, size: info.size };
  } catch {
    return null;
  }
}

async function serveFile(req, res, found) {
  if (!found) return send(res, 404, `404 not found: ${req.url}\n`);
  res.writeHead(200, {
    "Content-Type": MIME[extname(found.file).toLowerCase()] || "application/octet-stream",
    "Content-Length": found.size,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  if (req.method === "HEAD") return res.end();
  createReadStream(found.file).on("error", () => res.destroy()).pipe(res);
}

const server = createServer(async (req, res) => {
  let path;
  try {
    path = decodeURIComponent(new URL(req.url || "/", "http://x").pathname);
  } catch {
    return send(res, 400, "bad URL\n");
  }
  if (path === "/handoff") {
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      return send(res, 405, "405: POST a JSON array of records to /handoff\n");
    }
    return handoff(req, res);
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("Allow", "GET, HEAD");
    return send(res, 405, "405 method not allowed\n");
  }
  if (path === "/health") return health(res);
  if (path === "/" || path === "/index.html" || path === "/page.html") {
    return serveFile(req, res, await locate(HERE, "page.html"));
  }
  if (path === "/pkg" || path.startsWith("/pkg/")) {
    if (!PKG_DIR) return send(res, 404, "404: no package directory: start the server with --pkg DIR\n");
    return serveFile(req, res, await locate(PKG_DIR, path.slice("/pkg".length) || "/"));
  }
  if (STATIC_DIR) return serveFile(req, res, await locate(STATIC_DIR, path));
  return send(res, 404, `404 not found: ${path}\n`);
});

server.on("error", (e) => {
  console.error(`redis-handoff: ${e.message}`);
  process.exit(1);
});

server.listen(PORT, "127.0.0.1", () => {
  console.log(`redis-handoff listening at http://127.0.0.1:${server.address().port}/`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections?.();
    try {
      redis.destroy();
    } catch {
      // already closed
    }
    process.exit(0);
  });
}
