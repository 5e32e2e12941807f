#!/usr/bin/env node
// A forward HTTP proxy between Chromium and wasm-bindgen-test-runner's own server, for the
// browser suite's Chromium stage (scripts/test.sh). Chromium keeps its connections to this proxy
// alive as it likes; each request reaches the runner's server on a connection of its own, closed
// after the answer. Why: the runner's server (tiny_http 0.12) can queue a new connection behind
// threads that each hold an idle keep-alive connection, so a module request of the page may go
// unanswered until the browser closes one, and Chromium keeps idle connections for minutes (no
// flag changes that): seen as a service-worker test page that never loads. Only loopback is
// forwarded. Prints its port, then serves until killed.
//
//   node scripts/runner-proxy.mjs      -> "41234"
import { createServer, request } from "node:http";

const HOP = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"];
const strip = (headers) => Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP.includes(k)));

const server = createServer((req, res) => {
  let url;
  try {
    url = new URL(req.url);
  } catch {
    res.writeHead(400).end("an absolute http:// URL is expected");
    return;
  }
  if (url.protocol !== "http:" || !["127.0.0.1", "localhost"].includes(url.hostname)) {
    res.writeHead(403).end("only loopback is forwarded");
    return;
  }
  const up = request(
    { host: url.hostname, port: url.port || 80, path: url.pathname + url.search, method: req.method,
      headers: { ...strip(req.headers), connection: "close" }, agent: false },
    (answer) => {
      res.writeHead(answer.statusCode, strip(answer.headers));
      answer.pipe(res);
    },
  );
  up.on("error", (e) => {
    if (!res.headersSent) res.writeHead(502);
    res.end(String(e));
  });
  req.pipe(up);
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
